/**
 * Round-trip fidelity (PURE): does Markdown re-rendered with the project's renderer give the
 * same HTML as the school holds? Compared as parsed HTML, not as text: both sides are parsed
 * into hast, whitespace-only text between elements (outside <pre>, <code>, <textarea>) is
 * dropped, other runs of whitespace there count as one space, and both are serialised the same
 * way. So `<p>a</p>` and `<p>a</p>\n`, or a line break and a space inside a paragraph, are equal
 * (a browser shows them the same), while any change to text, elements or attributes is not,
 * except the ids of headings: the renderer derives them from the heading's text.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { fromHtml, toHtml } from '../vendor/html-stack.js';

const KEEP_WHITESPACE = new Set(['pre', 'code', 'textarea']);
const HEADING = /^h[1-6]$/;

function strip<T extends Root | Element>(node: T, keep: boolean): T {
  const children: Array<RootContent | ElementContent> = [];
  for (const child of node.children) {
    if (child.type === 'text' && !keep && child.value.trim() === '') continue;
    // Outside pre/code a browser shows any run of whitespace as one space.
    if (child.type === 'text' && !keep) {
      children.push({ ...child, value: child.value.replace(/\s+/g, ' ') });
      continue;
    }
    if (child.type === 'comment') continue;
    if (child.type === 'element') {
      const stripped = strip(child, keep || KEEP_WHITESPACE.has(child.tagName));
      if (HEADING.test(child.tagName) && 'id' in stripped.properties) {
        const { id: _id, ...rest } = stripped.properties;
        stripped.properties = rest;
      }
      children.push(stripped);
    }
    else children.push(child);
  }
  return { ...node, children } as T;
}

/** The canonical form of an HTML fragment used for comparisons. */
export function canonicalHtml(html: string): string {
  return toHtml(strip(fromHtml(html, { fragment: true }), false));
}

/** Whether two HTML fragments show the same content (see the file header). */
export function sameHtml(a: string, b: string): boolean {
  return a === b || canonicalHtml(a) === canonicalHtml(b);
}
