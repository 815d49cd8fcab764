/**
 * A lesson's title in its body (PURE): a file without `name:` is named by its first heading, and
 * a body that opens with a heading equal to the lesson's name loses it, since the school prints
 * the name above the body (docs/course-repo.md#front-matter-is-optional).
 */
import { fromHtml } from '../vendor/html-stack.js';
import type { Nodes } from 'hast';
import { REF_MARKER } from './rendered-html.js';

const HEADING = /<h([1-6])(?:\s[^>]*)?>([\s\S]*?)<\/h\1>/i;
/** A level-1 heading right at the start of what follows a heading (spaces before it allowed). */
const NEXT_H1 = /^\s*(<h1(?:\s[^>]*)?>([\s\S]*?)<\/h1>)/i;

/** A heading in rendered HTML: where it starts and ends, and its inner HTML. */
interface Heading {
  start: number;
  end: number;
  inner: string;
  /** Only invisible HTML before it (see invisible). */
  leading: boolean;
}

/**
 * The heading that titles rendered HTML: its first one, or, when the page opens with two
 * level-1 headings in a row, the second: the first is then a running head, the book's title
 * over each of its chapters (You Don't Know JS opens `ch1.md` with the book's title, then
 * `# Chapter 1: …`).
 */
function titleHeading(html: string, first = firstOf(html)): Heading | undefined {
  if (!first || !first.h1 || !first.leading) return first;
  const next = NEXT_H1.exec(html.slice(first.end));
  if (!next || plainText(next[2]!) === '') return first;
  const start = first.end + next[0].length - next[1]!.length;
  return { start, end: first.end + next[0].length, inner: next[2]!, leading: true };
}

/** The first heading of rendered HTML. */
function firstOf(html: string): (Heading & { h1: boolean }) | undefined {
  const m = HEADING.exec(html);
  return m ? { start: m.index, end: m.index + m[0].length, inner: m[2]!, leading: invisible(html.slice(0, m.index)), h1: m[1] === '1' } : undefined;
}

/** The heading that titles rendered HTML (titleHeading), as plain text (markup dropped, entities decoded); undefined when none has text. */
export function firstHeading(html: string): { text: string } | undefined {
  const h = titleHeading(html);
  if (!h) return undefined;
  const text = plainText(h.inner);
  return text === '' ? undefined : { text };
}

/**
 * The HTML without its leading heading when that heading's text is `name` (spaces collapsed),
 * or else without the title heading under a running head (titleHeading), the running head
 * staying. A heading holding a local link or image is kept: its reference markers are numbered
 * in the body.
 */
export function withoutLeadingTitle(html: string, name: string): string {
  const title = collapse(name);
  const first = firstOf(html);
  const h = [first, titleHeading(html, first)].find((c) => c?.leading && plainText(c.inner) === title);
  if (!h || new RegExp(REF_MARKER.source).test(html.slice(h.start, h.end))) return html;
  // What came before stays: old anchors (`<a id="old-heading"></a>`) keep their links working.
  return html.slice(0, h.start) + html.slice(h.end).replace(/^\n/, '');
}

/**
 * HTML that does not stop the heading after it from being the page's title: what a reader does
 * not see (comments, empty anchors: mdBook books keep old headings' ids so), the opening tags
 * of blocks that wrap a page's banner (GitHub courses open with `<div align="center"><h1>…</h1>`
 * and badges: the heading goes, the badges stay), and a page's navigation (navigation).
 */
function invisible(html: string): boolean {
  const rest = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(a|span)\b[^>]*>\s*<\/\1>/gi, '')
    .replace(/<p>\s*<\/p>/g, '')
    .replace(/<(div|center|header|section)\b[^>]*>/gi, '');
  // Navigation is a line or two: a longer text is something to read (and its paragraphs are not scanned).
  return (rest.length > MAX_NAVIGATION ? rest : rest.replace(/<p>([\s\S]*?)<\/p>/g, (p, inner: string) => (navigation(inner) ? '' : p))).trim() === '';
}

const MAX_NAVIGATION = 4096;

/**
 * A paragraph of links alone, with separators between: the navigation a course writes above
 * its pages' titles for readers on GitHub (Practical Python Programming: `[Contents](…) \|
 * [Previous (1.1 Python)](…) \| [Next (1.3 Numbers)](…)`). It stays; the title under it goes.
 */
function navigation(inner: string): boolean {
  return /<a\b/i.test(inner) && /^[\s|·•»«›‹/\\-]*$/.test(inner.replace(/<a\b[^>]*>[\s\S]*?<\/a>/gi, ''));
}

function plainText(inner: string): string {
  return collapse(textOf(fromHtml(inner, { fragment: true })));
}

function textOf(node: Nodes): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return node.children.map(textOf).join('');
  return '';
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
