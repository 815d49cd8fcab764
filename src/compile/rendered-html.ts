/**
 * Rendered HTML (PURE), without the Markdown parser: what a rendering is (RenderResult), the
 * markers left for local references, and the walks over HTML that every rendering shares. An
 * HTML body (`content_format: html`) is checked here alone. Apart from render.ts so that
 * compile can be loaded without remark and micromark, which a plan needs only when a lesson
 * must be rendered (load/load-course.ts).
 */
import type GithubSlugger from 'github-slugger';
import type { Element, Root as HastRoot, RootContent } from 'hast';
import { fromHtml, toHtml } from '../vendor/html-stack.js';
import { findHtmlProblems, type HtmlProblem } from './check-html.js';
import { isUnknownElement } from './html-elements.js';
import { htmlTags, type RawHtml, type TooDeep } from './nesting-depth.js';
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
export function unknownElements(rawHtml: readonly RawHtml[]): HtmlProblem[] {
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
export function forEachElement(tree: HastRoot | Element, fn: (node: Element) => void): void {
  for (const child of tree.children) {
    if (child.type !== 'element') continue;
    fn(child);
    forEachElement(child, fn);
  }
}

/** A Markdown link also becomes an <a> in hast: report each place once. */
export function unique(problems: HtmlProblem[]): HtmlProblem[] {
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
export function addHeadingId(node: Element, slugger: GithubSlugger, anchors: string[]): void {
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
export function markLocalRefs(node: Element, refs: LocalRef[]): void {
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
