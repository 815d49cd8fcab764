/**
 * The school's forbidden-markup rule for lesson bodies (docs/school-api.md#lesson-input-fields `body`): scripts, iframes,
 * object and embed tags and signed attachment markup (`<action-text-attachment sgid=…>`) are
 * rejected. The one place this rule lives: the emulator applies it to request HTML, and the
 * course validator (compile/) applies the element predicate to its hast trees before any
 * request. HTML is parsed with a real HTML5 parser (hast-util-from-html), never matched with
 * regexes, so `<SCRIPT>`, `<script/x>` or comments cannot slip past or give false alarms.
 */
import type { Element, Root, RootContent } from 'hast';
import { fromHtml } from '../vendor/html-stack.js';

/** Tags that are rejected wherever they appear. */
export const FORBIDDEN_TAGS: ReadonlySet<string> = new Set(['script', 'iframe', 'object', 'embed']);

/** The signed-attachment element; forbidden when it carries an `sgid` attribute. */
export const SIGNED_ATTACHMENT_TAG = 'action-text-attachment';

/** A forbidden element found in HTML, with its place when the parser knows it. */
export interface ForbiddenMarkup {
  tagName: string;
  /** What to tell a user, e.g. `a <script> tag`, `an <iframe> tag` or `signed attachment markup (…)`. */
  description: string;
  /** 1-based line and column in the parsed HTML (or in the source the hast tree came from). */
  line?: number;
  column?: number;
}

/** Does this hast element break the rule? */
export function isForbiddenElement(node: Element): boolean {
  const tag = node.tagName.toLowerCase();
  if (FORBIDDEN_TAGS.has(tag)) return true;
  return tag === SIGNED_ATTACHMENT_TAG && node.properties?.sgid !== undefined && node.properties.sgid !== null;
}

/** How to name a forbidden element in a message. */
export function describeForbiddenElement(node: Element): string {
  const tag = node.tagName.toLowerCase();
  if (tag === SIGNED_ATTACHMENT_TAG) return 'signed attachment markup (<action-text-attachment sgid=…>)';
  return `${/^[aeiou]/.test(tag) ? 'an' : 'a'} <${tag}> tag`;
}

/** Every forbidden element of a hast tree, in document order (including inside <template>). */
export function findForbiddenElements(tree: Root | Element): ForbiddenMarkup[] {
  const found: ForbiddenMarkup[] = [];
  const walk = (node: Root | RootContent): void => {
    if (node.type === 'element') {
      if (isForbiddenElement(node)) {
        const start = node.position?.start;
        found.push({
          tagName: node.tagName.toLowerCase(),
          description: describeForbiddenElement(node),
          ...(start ? { line: start.line, column: start.column } : {}),
        });
      }
      if (node.content) walk(node.content);
    }
    if ('children' in node) for (const child of node.children) walk(child);
  };
  walk(tree);
  return found;
}

/** Parse an HTML fragment and return its forbidden elements (empty when the body is allowed). */
export function findForbiddenMarkup(html: string): ForbiddenMarkup[] {
  return findForbiddenElements(fromHtml(html, { fragment: true }));
}

/** Does this HTML break the rule? */
export function hasForbiddenMarkup(html: string): boolean {
  return findForbiddenMarkup(html).length > 0;
}
