/**
 * Markdown → HTML for lesson bodies and descriptions (PURE, deterministic): remark + GFM →
 * hast (raw HTML parsed by rehype-raw only when there is some) → HTML, in one parse. The raw
 * HTML is not sanitised but validated against the school's rules. Headings get GitHub's slug
 * ids, and GitHub's emoji shortcodes (`:tada:`) their emoji. Local references (images, links,
 * srcset, `#anchors`) are collected with their places and left as markers in the HTML, so the
 * result depends on the text alone (a caller can cache it by content digest or render it in a
 * worker) and compile resolves the markers against the repo (resolve-refs.ts).
 */
import type { Root as HastRoot } from 'hast';
import type { Nodes as MdastNodes, Root as MdastRoot } from 'mdast';
import { GithubSlugger, rehypeRaw, remarkGfm, remarkParse, remarkRehype, toHtml, unified, type Data, type Processor } from '../vendor/html-stack.js';
import { findHtmlProblems, isJavascriptUrl, type HtmlProblem } from './check-html.js';
import { applyAttributeBlocks, holdsPhrasing } from './attribute-blocks.js';
import { MAY_HOLD_SHORTCODE, replaceShortcodes } from './emoji-shortcodes.js';
import { findContainers, wrapContainers } from './containers.js';
import { hideRustLines } from './hidden-lines.js';
import { findDeepHtml, type RawHtml } from './nesting-depth.js';
import { addHeadingId, forEachElement, markLocalRefs, unique, unknownElements, type LocalRef, type RenderResult } from './rendered-html.js';
import { provideMarkdownRenderer } from './markdown-renderer.js';

// What a rendering is, and the HTML-only checks, for the callers that import them from here.
export * from './rendered-html.js';

const parser = unified().use(remarkParse).use(remarkGfm).use(autolinkLiteralsOnlyWherePossible).freeze();
const toHast = unified().use(remarkRehype, { allowDangerousHtml: true }).freeze();
const toRawHast = unified().use(remarkRehype, { allowDangerousHtml: true }).use(rehypeRaw).freeze();

type FromMarkdownExtension = NonNullable<Data['fromMarkdownExtensions']>[number];
type MdastTransform = NonNullable<Extract<FromMarkdownExtension, { transforms?: unknown }>['transforms']>[number];

/**
 * GFM finds literal autolinks (`www.x.com`, `https://…`, `a@b.co`) with a transform that walks
 * the whole tree once per pattern (four walks, a tenth of a lesson's rendering). Its patterns
 * only match in text holding `@`, `http://`, `https://` or `www.`, so the transform is skipped
 * for a tree with no such text node: the same tree either way.
 */
function autolinkLiteralsOnlyWherePossible(this: Processor): void {
  const data = this.data();
  const guard = (extension: FromMarkdownExtension): FromMarkdownExtension => {
    if (Array.isArray(extension)) return extension.map((e) => guard(e) as Exclude<FromMarkdownExtension, unknown[]>);
    if (!extension.transforms || !extension.enter || !('literalAutolink' in extension.enter)) return extension;
    return { ...extension, transforms: extension.transforms.map((t): MdastTransform => (tree) => (mayHoldAutolinkLiteral(tree) ? t(tree) : undefined)) };
  };
  data.fromMarkdownExtensions = (data.fromMarkdownExtensions ?? []).map(guard);
}

const AUTOLINK_LITERAL_HINT = /@|https?:\/\/|www\./i;

function mayHoldAutolinkLiteral(node: MdastNodes): boolean {
  if (node.type === 'text') return AUTOLINK_LITERAL_HINT.test(node.value);
  if ('children' in node) for (const child of node.children) if (mayHoldAutolinkLiteral(child)) return true;
  return false;
}

/**
 * A heading's trailing attribute block as mdBook reads it (pulldown-cmark): `{#id .class …}`,
 * tokens apart by spaces, ids and classes only (`{#v1.2}` is the id v1.2).
 */
const HEADING_ATTRIBUTES = /[ \t]*\{[ \t]*((?:[#.][^\s{}]+[ \t]*)+)\}[ \t]*$/;

/**
 * `## Options {#options}`: mdBook gives the heading that id (and classes) and shows "Options";
 * GitHub's slug would be "options-options" with the braces in the text. The block is taken off
 * the heading's last text, and the id wins over the slug (rendered-html.ts addHeadingId).
 * Returns the id it gives, if any.
 */
function headingAttributes(heading: Extract<MdastNodes, { type: 'heading' }>): string | undefined {
  const last = heading.children.at(-1);
  const match = last?.type === 'text' ? HEADING_ATTRIBUTES.exec(last.value) : null;
  if (!last || last.type !== 'text' || !match) return undefined;
  const tokens = match[1]!.trim().split(/[ \t]+/);
  const ids = tokens.filter((t) => t.startsWith('#')).map((t) => t.slice(1));
  const classes = tokens.filter((t) => t.startsWith('.')).map((t) => t.slice(1));
  last.value = last.value.slice(0, match.index);
  if (last.value === '') heading.children.pop();
  const properties: Record<string, string | string[]> = {};
  if (ids.length > 0) properties.id = ids.at(-1)!;
  if (classes.length > 0) properties.className = classes;
  heading.data = { ...heading.data, hProperties: { ...heading.data?.hProperties, ...properties } };
  return ids.at(-1);
}

/** GitHub's alert types, as the title each shows. */
const ALERTS: Readonly<Record<string, string>> = { NOTE: 'Note', TIP: 'Tip', IMPORTANT: 'Important', WARNING: 'Warning', CAUTION: 'Caution' };
/** The marker alone on the first line of a block quote: `> [!NOTE]`. */
const ALERT_MARKER = /^\[!([A-Za-z]+)\][ \t]*(?:\n|$)/;

/**
 * `> [!NOTE]` and GitHub's four other alerts: the marker gives way to its title in bold and the
 * quote gets GitHub's classes (`markdown-alert markdown-alert-note`), so learners read "Note"
 * over the text rather than "[!NOTE]". It stays a block quote: a school without GitHub's CSS
 * still sets it apart. A marker with nothing after it is text, as on GitHub.
 */
function githubAlert(quote: Extract<MdastNodes, { type: 'blockquote' }>): void {
  const first = quote.children[0];
  const text = first?.type === 'paragraph' ? first.children[0] : undefined;
  const m = text?.type === 'text' ? ALERT_MARKER.exec(text.value) : null;
  const title = m ? ALERTS[m[1]!.toUpperCase()] : undefined;
  if (!first || first.type !== 'paragraph' || !text || text.type !== 'text' || !m || title === undefined) return;
  // Alone on its line: what follows it in the paragraph starts a new one.
  if (!m[0].endsWith('\n') && first.children.length > 1) return;
  const rest = text.value.slice(m[0].length);
  if (rest === '' && first.children.length === 1 && quote.children.length === 1) return;
  if (rest === '') first.children.shift();
  else text.value = rest;
  if (first.children.length === 0) quote.children.shift();
  const type = m[1]!.toLowerCase();
  quote.data = { ...quote.data, hProperties: { ...quote.data?.hProperties, className: ['markdown-alert', `markdown-alert-${type}`] } };
  quote.children.unshift({ type: 'paragraph', data: { hProperties: { className: ['markdown-alert-title'] } }, children: [{ type: 'strong', children: [{ type: 'text', value: title }] }] });
}

/** Render Markdown to HTML, find what the school would reject in it, its anchors and references. */
export function renderMarkdown(markdown: string): RenderResult {
  const containers = findContainers(markdown);
  const mdast = parser.runSync(parser.parse(containers?.text ?? markdown)) as MdastRoot;
  if (containers) wrapContainers(mdast, containers);
  const problems: HtmlProblem[] = [];
  // Hand-written walks (document order, as unist-util-visit): a generic visitor costs more
  // than the work done at each node.
  const rawHtml: RawHtml[] = [];
  const explicitIds: string[] = [];
  const walkMdast = (node: MdastNodes): void => {
    if (node.type === 'heading') {
      const id = headingAttributes(node);
      if (id !== undefined) explicitIds.push(id);
    }
    if (node.type === 'code') hideRustLines(node);
    else if (node.type === 'blockquote') githubAlert(node);
    else if (holdsPhrasing(node)) applyAttributeBlocks(node.children);
    if (node.type === 'html') rawHtml.push({ value: node.value, line: node.position?.start.line ?? 1, column: node.position?.start.column ?? 1 });
    else if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && isJavascriptUrl(node.url)) {
      const start = node.position?.start ?? { line: 1, column: 1 };
      problems.push({ kind: 'javascript-url', message: `javascript: URL in a ${node.type}`, line: start.line, column: start.column });
    }
    if ('children' in node) for (const child of node.children) walkMdast(child);
  };
  walkMdast(mdast);
  const hasHtml = rawHtml.length > 0;
  // Raw HTML is flat text in mdast and nests in hast: its depth is checked before it can nest.
  const tooDeep = findDeepHtml(rawHtml);
  if (tooDeep) return { html: '', problems: [], anchors: [], refs: [], tooDeep };
  problems.push(...unknownElements(rawHtml));
  // Only raw HTML can hold elements the school rejects; Markdown syntax cannot produce them.
  const hast = (hasHtml ? toRawHast : toHast).runSync(mdast) as HastRoot;
  if (hasHtml) problems.push(...findHtmlProblems(hast));
  // One walk over the tree for both: heading ids first, so anchors are in document order.
  const slugger = new GithubSlugger();
  // An id the author gave is taken wherever its heading is: a heading slugged to the same text
  // gets the next free one (`options-1`), so a page never holds one id twice and `#options`
  // leads where the author meant.
  for (const id of explicitIds) slugger.occurrences[id] ??= 0;
  const anchors: string[] = [];
  const refs: LocalRef[] = [];
  forEachElement(hast, (node) => {
    addHeadingId(node, slugger, anchors);
    markLocalRefs(node, refs);
  });
  // After the ids, which GitHub makes from the shortcodes as written.
  if (MAY_HOLD_SHORTCODE.test(markdown)) replaceShortcodes(hast);
  let html = toHtml(hast, { allowDangerousHtml: true });
  // As remark-html did: a document ends with a newline.
  if (html !== '' && !/[\r\n]$/.test(html)) html += '\n';
  return { html, problems: unique(problems), anchors, refs };
}

// Compile renders with this when its caller passes no renderer (markdown-renderer.ts).
provideMarkdownRenderer(renderMarkdown);

