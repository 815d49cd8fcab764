/**
 * Find what the school rejects (or what is likely a mistake) in lesson HTML (PURE): forbidden
 * elements by the school's own rule (school-api/body-rules.ts), and warnings for `on*` event
 * attributes and `javascript:` URLs. Works on hast trees, so casing and nesting cannot hide a tag.
 */
import type { Element, Root, RootContent } from 'hast';
import { fromHtml } from '../vendor/html-stack.js';
import { describeForbiddenElement, isForbiddenElement } from '../school-api/body-rules.js';

export type HtmlProblemKind = 'forbidden' | 'event-handler' | 'javascript-url' | 'unknown-element';

/** A problem in HTML, placed (1-based) in the text the tree was parsed from. */
export interface HtmlProblem {
  kind: HtmlProblemKind;
  message: string;
  line: number;
  column: number;
}

const URL_PROPERTIES = new Set(['href', 'src', 'action', 'formAction', 'xLinkHref', 'poster', 'cite', 'background', 'data']);

/** Is `url` a `javascript:` URL, as a browser would read it (case and whitespace ignored)? */
export function isJavascriptUrl(url: string): boolean {
  // Browsers strip ASCII whitespace and control characters inside the scheme.
  // eslint-disable-next-line no-control-regex
  return /^javascript:/i.test(url.replace(/[\u0000-\u0020]/g, ''));
}

/** Every problem of a hast tree, in document order. */
export function findHtmlProblems(tree: Root): HtmlProblem[] {
  const found: HtmlProblem[] = [];
  const walk = (node: Root | RootContent | Element, fallback: { line: number; column: number }): void => {
    const start = node.position?.start;
    const here = start ? { line: start.line, column: start.column } : fallback;
    if (node.type === 'element') {
      if (isForbiddenElement(node)) {
        found.push({ kind: 'forbidden', message: `${describeForbiddenElement(node)} is not allowed in a lesson`, ...here });
      }
      for (const [name, value] of Object.entries(node.properties ?? {})) {
        if (/^on./i.test(name)) {
          found.push({ kind: 'event-handler', message: `event attribute ${name.toLowerCase()} on <${node.tagName}> will not run in the school`, ...here });
        } else if (URL_PROPERTIES.has(name) && typeof value === 'string' && isJavascriptUrl(value)) {
          found.push({ kind: 'javascript-url', message: `javascript: URL in ${name} of <${node.tagName}>`, ...here });
        }
      }
      if (node.content) walk(node.content, here);
    }
    if ('children' in node) for (const child of node.children) walk(child, here);
  };
  walk(tree, { line: 1, column: 1 });
  return found;
}

/** Problems of an HTML body (`content_format: html`), placed in that HTML. */
export function checkHtml(html: string): HtmlProblem[] {
  return findHtmlProblems(fromHtml(html, { fragment: true }));
}
