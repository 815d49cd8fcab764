/**
 * Markdown → HTML for lesson bodies and descriptions (PURE, deterministic): remark + GFM →
 * hast (raw HTML parsed by rehype-raw only when there is some) → HTML, in one parse. The raw
 * HTML is not sanitised but validated against the school's rules. Headings get GitHub's slug
 * ids. Local references (images, links, srcset, `#anchors`) are collected with their places
 * and left as markers in the HTML, so the result depends on the text alone (a caller can cache
 * it by content digest or render it in a worker) and compile resolves the markers against the
 * repo (resolve-refs.ts).
 */
import GithubSlugger from 'github-slugger';
import type { Element, Root as HastRoot, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import type { Nodes as MdastNodes, Root as MdastRoot } from 'mdast';
import rehypeRaw from 'rehype-raw';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified, type Data, type Processor } from 'unified';
import { findHtmlProblems, isJavascriptUrl, type HtmlProblem } from './check-html.js';
import { isUnknownElement } from './html-elements.js';
import { findDeepHtml, htmlTags, type RawHtml, type TooDeep } from './nesting-depth.js';
import type { RenderStop } from './render-budget.js';

/** A local reference in the Markdown: a repo path, a site-root path or a `#fragment`. */
export interface LocalRef {
  /** As written (entities decoded). */
  url: string;
  /** An image source (img src/srcset, video poster…) rather than a link. */
  image: boolean;
  /** 1-based place of the element in the Markdown text. */
  line: number;
  column: number;
}

export interface RenderResult {
  /** HTML; the URL of `refs[i]` is replaced by refMarker(i). */
  html: string;
  /** Forbidden HTML and warnings, placed (1-based) in the Markdown text. */
  problems: HtmlProblem[];
  /** Set when rendering was stopped over its budget (load/render-pool.ts); html is then empty. */
  stopped?: RenderStop;
  /** Set when the raw HTML nests too deep to be parsed (nesting-depth.ts); html is then empty. */
  tooDeep?: TooDeep;
  /** Every id (headings included) and `<a name>` a `#fragment` can reach. */
  anchors: string[];
  refs: LocalRef[];
}

/** Private-use characters: they cannot come from a URL attribute of rendered Markdown by accident. */
export const REF_MARKER = /\uE000(\d+)\uE001/g;
export const refMarker = (i: number): string => `\uE000${i}\uE001`;

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

/** Render Markdown to HTML, find what the school would reject in it, its anchors and references. */
export function renderMarkdown(markdown: string): RenderResult {
  const mdast = parser.runSync(parser.parse(markdown)) as MdastRoot;
  const problems: HtmlProblem[] = [];
  // Hand-written walks (document order, as unist-util-visit): a generic visitor costs more
  // than the work done at each node.
  const rawHtml: RawHtml[] = [];
  const walkMdast = (node: MdastNodes): void => {
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
  const anchors: string[] = [];
  const refs: LocalRef[] = [];
  forEachElement(hast, (node) => {
    addHeadingId(node, slugger, anchors);
    markLocalRefs(node, refs);
  });
  let html = toHtml(hast, { allowDangerousHtml: true });
  // As remark-html did: a document ends with a newline.
  if (html !== '' && !/[\r\n]$/.test(html)) html += '\n';
  return { html, problems: unique(problems), anchors, refs };
}

/**
 * An HTML body (`content_format: html`) checked the same way: problems, anchors and local
 * references. It is sent as written (no heading ids added), re-serialised only when it holds a
 * local reference, whose URL must then be replaced.
 */
export function renderHtmlBody(html: string): RenderResult {
  const hast = fromHtml(html, { fragment: true });
  const problems = findHtmlProblems(hast);
  const anchors: string[] = [];
  const refs: LocalRef[] = [];
  forEachElement(hast, (node) => {
    const { id, name } = node.properties;
    if (typeof id === 'string' && id !== '') anchors.push(id);
    if (node.tagName === 'a' && typeof name === 'string' && name !== '') anchors.push(name);
    markLocalRefs(node, refs);
  });
  return { html: refs.length === 0 ? html : toHtml(hast, { allowDangerousHtml: true }), problems, anchors, refs };
}

/** A warning for each tag a browser would take for an unknown element and show as nothing (`Box<T>`, `<ENTER>`). */
function unknownElements(rawHtml: readonly RawHtml[]): HtmlProblem[] {
  const found: HtmlProblem[] = [];
  // A tag inside an HTML comment is shown by nobody, on purpose (blanked, so places stay).
  const uncommented = rawHtml.map((h) => ({ ...h, value: h.value.replace(/<!--[\s\S]*?-->/g, (c) => c.replace(/[^\n]/g, ' ')) }));
  // One warning per element name, at its first tag, with the count: a book that wraps every
  // listing in <Listing …> gets one line per lesson, not hundreds.
  const byName = new Map<string, { tag: { name: string; text: string; line: number; column: number }; count: number }>();
  for (const tag of htmlTags(uncommented)) {
    if (!isUnknownElement(tag.name)) continue;
    const seen = byName.get(tag.name.toLowerCase());
    if (seen) seen.count++;
    else byName.set(tag.name.toLowerCase(), { tag, count: 1 });
  }
  for (const { tag, count } of byName.values()) {
    const shown = tag.text.length > 40 ? `${tag.text.slice(0, 39)}…` : tag.text;
    const written = /^<\/?([^\s>/]+)/.exec(tag.text)?.[1] ?? tag.name;
    const others = count > 1 ? ` (nor of the ${count - 1} other <${written}> tags of this lesson)` : '';
    found.push({ kind: 'unknown-element', message: `${shown} is not an HTML element, yet a browser reads it as one: learners see nothing of it${others}`, line: tag.line, column: tag.column });
  }
  return found;
}

/** Call `fn` on every element of `tree`, in document order (as unist-util-visit, without its cost). */
function forEachElement(tree: HastRoot | Element, fn: (node: Element) => void): void {
  for (const child of tree.children) {
    if (child.type !== 'element') continue;
    fn(child);
    forEachElement(child, fn);
  }
}

/** A Markdown link also becomes an <a> in hast: report each place once. */
function unique(problems: HtmlProblem[]): HtmlProblem[] {
  const seen = new Set<string>();
  return problems
    .filter((p) => {
      const id = `${p.kind}:${p.line}:${p.column}`;
      return seen.has(id) ? false : (seen.add(id), true);
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);
}

const HEADING = /^h[1-6]$/;

/** GitHub's heading ids (github-slugger: duplicates get -1, -2); every id and <a name> is an anchor. */
function addHeadingId(node: Element, slugger: GithubSlugger, anchors: string[]): void {
  const { id, name } = node.properties;
  if (HEADING.test(node.tagName) && (id === undefined || id === null || id === '')) {
    const slug = slugger.slug(textOf(node));
    if (slug !== '') {
      node.properties.id = slug;
      anchors.push(slug);
    }
  } else if (typeof id === 'string' && id !== '') anchors.push(id);
  if (node.tagName === 'a' && typeof name === 'string' && name !== '') anchors.push(name);
}

function textOf(node: Element | RootContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/** Which attributes of which elements hold a URL a learner's browser loads or follows. */
const URL_ATTRIBUTES: Record<string, { links?: string[]; images?: string[]; srcset?: boolean }> = {
  a: { links: ['href'] },
  area: { links: ['href'] },
  img: { images: ['src'], srcset: true },
  source: { images: ['src'], srcset: true },
  video: { images: ['src', 'poster'] },
  audio: { images: ['src'] },
  track: { images: ['src'] },
};

/** Not a scheme (`https:`, `mailto:`), not protocol-relative (`//host`), not empty. */
export function isLocalUrl(url: string): boolean {
  const u = url.trim();
  return u !== '' && !u.startsWith('//') && !/^[a-z][a-z0-9+.-]*:/i.test(u) && !u.startsWith('?');
}

/** Replace each local URL of `node` by a marker and list it. */
function markLocalRefs(node: Element, refs: LocalRef[]): void {
  const spec = URL_ATTRIBUTES[node.tagName];
  if (!spec) return;
  const start = node.position?.start ?? { line: 1, column: 1 };
  const mark = (url: string, image: boolean): string => {
    if (!isLocalUrl(url)) return url;
    refs.push({ url: url.trim(), image, line: start.line, column: start.column });
    return refMarker(refs.length - 1);
  };
  for (const [names, image] of [[spec.links ?? [], false], [spec.images ?? [], true]] as const) {
    for (const name of names) {
      const value = node.properties[name];
      if (typeof value === 'string') node.properties[name] = mark(value, image);
    }
  }
  const srcset = node.properties.srcSet;
  if (spec.srcset && srcset !== undefined && srcset !== null) {
    // Candidates "URL [descriptor]", separated by commas (hast may hold them split already).
    const candidates = Array.isArray(srcset) ? srcset.map(String) : String(srcset).split(',');
    node.properties.srcSet = candidates
      .map((candidate) => {
        const m = /^(\s*)(\S+)(.*)$/s.exec(candidate);
        return m ? `${m[1]}${mark(m[2]!, true)}${m[3]}` : candidate;
      })
      .join(',');
  }
}

/** The HTML with every marker put back to the URL as written (for callers outside a repo). */
export function plainHtml(result: Pick<RenderResult, 'html' | 'refs'>): string {
  if (result.refs.length === 0) return result.html;
  return result.html.replace(REF_MARKER, (m, i: string) => escapeAttribute(result.refs[Number(i)]?.url ?? m));
}

/** Text as the value of a double-quoted attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&#x22;');
}
