/**
 * A lesson's title in its body (PURE): a file without `name:` is named by its first heading, and
 * a body that opens with a heading equal to the lesson's name loses it, since the school prints
 * the name above the body (docs/course-repo.md#front-matter-is-optional).
 */
import { fromHtml } from '../vendor/html-stack.js';
import type { Nodes } from 'hast';
import { REF_MARKER } from './rendered-html.js';

const HEADING = /<h([1-6])(?:\s[^>]*)?>([\s\S]*?)<\/h\1>/i;

/** The first heading of rendered HTML, as plain text (markup dropped, entities decoded); undefined when none has text. */
export function firstHeading(html: string): { text: string } | undefined {
  const m = HEADING.exec(html);
  if (!m) return undefined;
  const text = plainText(m[2]!);
  return text === '' ? undefined : { text };
}

/**
 * The HTML without its leading heading when that heading's text is `name` (spaces collapsed).
 * A heading holding a local link or image is kept: its reference markers are numbered in the body.
 */
export function withoutLeadingTitle(html: string, name: string): string {
  const m = HEADING.exec(html);
  if (!m || !invisible(html.slice(0, m.index)) || new RegExp(REF_MARKER.source).test(m[0])) return html;
  if (plainText(m[2]!) !== collapse(name)) return html;
  // What came before stays: old anchors (`<a id="old-heading"></a>`) keep their links working.
  return html.slice(0, m.index) + html.slice(m.index + m[0].length).replace(/^\n/, '');
}

/**
 * HTML a reader does not see: comments, empty anchors (mdBook books keep old headings' ids so),
 * and the opening tags of blocks that wrap a page's banner (GitHub courses open with
 * `<div align="center"><h1>…</h1>` and badges: the heading goes, the badges stay).
 */
function invisible(html: string): boolean {
  return (
    html
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<(a|span)\b[^>]*>\s*<\/\1>/gi, '')
      .replace(/<p>\s*<\/p>/g, '')
      .replace(/<(div|center|header|section)\b[^>]*>/gi, '')
      .trim() === ''
  );
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
