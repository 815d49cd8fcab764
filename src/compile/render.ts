/**
 * Markdown → HTML for lesson bodies and descriptions (PURE, deterministic): remark + GFM +
 * remark-html, raw HTML kept (blockquotes stay <blockquote>). The raw HTML is not sanitised
 * but validated: it is parsed into hast (rehype-raw) and checked against the school's rules.
 * One string in, one result out, so a caller can cache by content digest or run it in a worker.
 */
import type { Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import rehypeRaw from 'rehype-raw';
import remarkGfm from 'remark-gfm';
import remarkHtml from 'remark-html';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { findHtmlProblems, isJavascriptUrl, type HtmlProblem } from './check-html.js';
import type { RenderStop } from './render-budget.js';

export interface RenderResult {
  html: string;
  /** Forbidden HTML and warnings, placed (1-based) in the Markdown text. */
  problems: HtmlProblem[];
  /** Set when rendering was stopped over its budget (source/render-pool.ts); html is then empty. */
  stopped?: RenderStop;
}

const toHtml = unified().use(remarkParse).use(remarkGfm).use(remarkHtml, { sanitize: false }).freeze();
const toHast = unified().use(remarkRehype, { allowDangerousHtml: true }).use(rehypeRaw).freeze();

/** Render Markdown to HTML and find what the school would reject in it. */
export function renderMarkdown(markdown: string): RenderResult {
  const tree = toHtml.parse(markdown);
  toHtml.runSync(tree);
  const html = String(toHtml.stringify(tree));
  return { html, problems: findMarkdownProblems(tree) };
}

function findMarkdownProblems(tree: MdastRoot): HtmlProblem[] {
  const problems: HtmlProblem[] = [];
  let hasHtml = false;
  visit(tree, (node) => {
    if (node.type === 'html') hasHtml = true;
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && isJavascriptUrl(node.url)) {
      const start = node.position?.start ?? { line: 1, column: 1 };
      problems.push({ kind: 'javascript-url', message: `javascript: URL in a ${node.type}`, line: start.line, column: start.column });
    }
  });
  // Only raw HTML can hold elements the school rejects; Markdown syntax cannot produce them.
  if (hasHtml) {
    // The HTML is already rendered, so the mdast tree may be consumed here.
    const hast = toHast.runSync(tree) as HastRoot;
    problems.push(...findHtmlProblems(hast));
  }
  // A Markdown link also becomes an <a> in hast: report each place once.
  const seen = new Set<string>();
  return problems
    .filter((p) => {
      const id = `${p.kind}:${p.line}:${p.column}`;
      return seen.has(id) ? false : (seen.add(id), true);
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);
}
