/**
 * Pandoc's attribute blocks on images and links (PURE), as the Carpentries and Quarto write
 * them: `![](fig/tree.svg){alt='A tree of folders' width="60%"}`. The block is syntax, not
 * text: it goes, and what HTML can hold of it goes on the element (an image's alt text, its
 * width and height, a title, classes). Anything else in it (a `style`, a renderer's own keys)
 * is left out: it was for that renderer. So is an `#id`: a link to it is checked against the
 * page's headings, which it is not among. Text that only starts with a brace, or whose braces
 * hold no attribute list, stays as written.
 */
import type { Nodes, PhrasingContent } from 'mdast';

/** What an image takes from the block besides its alt text, title and classes (a link takes those two). */
const SIZE = new Set(['width', 'height']);
/** One attribute: `#id`, `.class`, `key=value` (value bare, in double or single quotes). */
const ATTRIBUTE = /[ \t\n]*(?:#([\w:.-]+)|\.([\w-]+)|([A-Za-z][\w-]*)=(?:"([^"]*)"|'([^']*)'|([^\s"'{}]+)))/y;

/** Apply each attribute block that follows an image or a link among `children`, in place. */
export function applyAttributeBlocks(children: PhrasingContent[]): void {
  for (let i = 0; i + 1 < children.length; i++) {
    const element = children[i]!;
    const next = children[i + 1]!;
    if ((element.type !== 'image' && element.type !== 'link') || next.type !== 'text' || !next.value.startsWith('{')) continue;
    const block = readBlock(next.value);
    if (!block) continue;
    const properties: Record<string, string | string[]> = {};
    const classes: string[] = [];
    for (const [key, value] of block.attributes) {
      if (key === 'class') {
        properties.className = classes; // set at the first: attributes keep the block's order
        classes.push(value);
      } else if (key === 'title') element.title = value;
      else if (element.type === 'image' && key === 'alt') element.alt = value;
      else if (element.type === 'image' && SIZE.has(key)) properties[key] = value;
    }
    if (Object.keys(properties).length > 0) element.data = { ...element.data, hProperties: { ...element.data?.hProperties, ...properties } };
    next.value = next.value.slice(block.length);
    if (next.value === '') children.splice(i + 1, 1);
  }
}

/** The attributes of a block at the start of `text` and its length, or undefined when `text` does not open with one. */
function readBlock(text: string): { attributes: Array<[string, string]>; length: number } | undefined {
  const attributes: Array<[string, string]> = [];
  let at = 1;
  for (;;) {
    ATTRIBUTE.lastIndex = at;
    const m = ATTRIBUTE.exec(text);
    if (!m) break;
    at = ATTRIBUTE.lastIndex;
    if (m[1] !== undefined) attributes.push(['id', m[1]]);
    else if (m[2] !== undefined) attributes.push(['class', m[2]]);
    else attributes.push([m[3]!, m[4] ?? m[5] ?? m[6] ?? '']);
  }
  while (text[at] === ' ' || text[at] === '\t' || text[at] === '\n') at++;
  return text[at] === '}' && attributes.length > 0 ? { attributes, length: at + 1 } : undefined;
}

/** Whether `node` holds phrasing content an attribute block can follow an element in. */
export function holdsPhrasing(node: Nodes): node is Extract<Nodes, { children: PhrasingContent[] }> {
  return node.type === 'paragraph' || node.type === 'heading' || node.type === 'tableCell' || node.type === 'emphasis' || node.type === 'strong' || node.type === 'delete' || node.type === 'link';
}
