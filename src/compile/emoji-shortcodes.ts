/**
 * GitHub's emoji shortcodes (PURE): `:tada:` in a lesson's text is 🎉, as GitHub, MkDocs
 * (pymdownx.emoji) and Jekyll (jemoji) show it, so learners do not read the name between colons.
 * Only the names GitHub knows (gemoji, GitHub's own list) are taken: `12:30:45` and `:mm:` stay
 * as written, and so does every text in code (`<pre>`, `<code>`, `<tt>`), as on GitHub. Run on
 * the HTML tree after the heading ids are made: an id is made from the heading as written
 * (`## :rocket: Install` is `#rocket-install`, GitHub's id), not from the emoji.
 */
import type { Element, Root } from 'hast';
import { nameToEmoji } from '../vendor/html-stack.js';

/** What might be a shortcode: a lesson with none skips the walk. */
export const MAY_HOLD_SHORTCODE = /:[+\w-]+:/;
const SHORTCODE = /:([+\w-]+):/g;
/** Where GitHub leaves shortcodes as written. */
const VERBATIM = new Set(['pre', 'code', 'tt', 'script', 'style', 'textarea']);

/** Each shortcode GitHub knows in the text of `tree`, as its emoji (in place). */
export function replaceShortcodes(tree: Root | Element): void {
  for (const child of tree.children) {
    if (child.type === 'text') {
      if (child.value.includes(':')) child.value = child.value.replace(SHORTCODE, (code, name: string) => (Object.hasOwn(nameToEmoji, name) ? nameToEmoji[name]! : code));
    } else if (child.type === 'element' && !VERBATIM.has(child.tagName)) replaceShortcodes(child);
  }
}
