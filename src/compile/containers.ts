/**
 * `:::` containers (PURE), as Docusaurus, VitePress, Pandoc and Quarto write them (the
 * Carpentries' lessons too): a block between a fence line `:::name` and a line of colons,
 * shown as a box with a title instead of the fences as text.
 *
 *   :::tip            :::tip[Title]       ::: tip Title       ::::: challenge      ::: {.callout-note}
 *   Text.             Text.               Text.               Text.                Text.
 *   :::               :::                 :::                 :::::                :::
 *
 * Found before the Markdown is parsed (fences in code stay code), then each fence line is made a
 * thematic break of its length (every other line and column keeps its place), so the text
 * between parses as blocks of its own; after the parse, the breaks go and the blocks between
 * each pair are wrapped in the box.
 * A fence must start its line. A closing line closes the innermost open one, whatever its
 * length; an opening one never closed is text as written.
 */
import type { BlockContent, DefinitionContent, Root } from 'mdast';
import { codeRanges, inCode } from './code-ranges.js';

/** A container found: its fence lines (from 1), what it is, and those inside it. */
export interface Container {
  open: number;
  close: number;
  name: string;
  title: string;
  inner: Container[];
}

/** An opening fence: colons, then a name (`tip`, `{.callout-note}`), then a title (`[Title]` or the rest of the line). */
const OPENING = /^:{3,}[ \t]*(?:\{([^}\n]*)\}|([A-Za-z][\w-]*))[ \t]*(.*)$/;
const CLOSING = /^:{3,}[ \t]*$/;
/** Names shown folded, with their title as the summary (VitePress's `details`, the Carpentries' solutions). */
const FOLDED = new Set(['details', 'solution', 'spoiler', 'hint']);
/** Notes for whoever teaches the lesson (the Carpentries' `instructor`): left out, as their learner view leaves them out. */
const FOR_INSTRUCTORS = 'instructor';
/** How deep containers nest (a challenge holding a solution is 2): an opening fence deeper in is text. */
export const MAX_NESTING = 16;
/** Titles a name does not spell by itself (the Carpentries'). */
const TITLES: Readonly<Record<string, string>> = { keypoints: 'Key Points', prereq: 'Prerequisite', testimonial: 'Testimonial' };

/**
 * What a fence line becomes before the parse: a thematic break, of the line's length, which
 * ends whatever block is open (a list going on over a blank line, a lazy paragraph) and is
 * taken out again when the blocks are wrapped.
 */
const BREAK = '***';

/** The containers of `markdown` and the text with their fences made breaks; undefined when it has none. */
export function findContainers(markdown: string): { text: string; containers: Container[] } | undefined {
  if (!markdown.includes(':::')) return undefined;
  const code = codeRanges(markdown);
  const top: Container[] = [];
  const open: Array<Container & { from: number }> = [];
  const fences: Array<[number, number]> = [];
  let line = 0;
  for (let at = 0; at <= markdown.length; line++) {
    const nl = markdown.indexOf('\n', at);
    const end = nl === -1 ? markdown.length : nl;
    if (markdown.startsWith(':::', at) && !inCode(code, at)) {
      const text = markdown.slice(at, end).replace(/\r$/, '');
      const opening = CLOSING.test(text) ? undefined : OPENING.exec(text);
      if (opening && open.length < MAX_NESTING) open.push({ open: line + 1, close: 0, ...nameAndTitle(opening), inner: [], from: at });
      else if (CLOSING.test(text) && open.length > 0) {
        const { from, ...found } = open.pop()!;
        found.close = line + 1;
        (open.at(-1)?.inner ?? top).push(found);
        fences.push([from, markdown.indexOf('\n', from) === -1 ? markdown.length : markdown.indexOf('\n', from)], [at, end]);
      }
    }
    if (nl === -1) break;
    at = nl + 1;
  }
  if (fences.length === 0) return undefined;
  let text = '';
  let from = 0;
  for (const [start, end] of fences.sort((a, b) => a[0] - b[0])) {
    text += markdown.slice(from, start) + BREAK.padEnd(end - start, ' ');
    from = end;
  }
  return { text: text + markdown.slice(from), containers: top };
}

function nameAndTitle([, braces, word, rest = '']: RegExpExecArray): { name: string; title: string } {
  // `{.callout-note title="Heads up"}` (Pandoc, Quarto): the first class is its name.
  const name = (word ?? /(?:^|\s)\.([\w-]+)/.exec(braces ?? '')?.[1] ?? 'note').toLowerCase();
  // Attributes after the name (`:::note{title="…"}`), as Docusaurus's directives allow.
  const attributes = braces ?? /^\{([^}]*)\}/.exec(rest)?.[1] ?? '';
  const given = /^\[(.*)\]\s*$/.exec(rest)?.[1] ?? /title="([^"]*)"/.exec(attributes)?.[1] ?? (rest.startsWith('{') ? '' : rest);
  const words = name.replace(/^callout-/, '').replace(/[-_]+/g, ' ');
  return { name, title: given.trim() || TITLES[name] || words.charAt(0).toUpperCase() + words.slice(1) };
}

type Block = BlockContent | DefinitionContent;

/**
 * Wrap the blocks between each container's fences (the tree of the blanked text) in its box:
 * a block quote with the classes `admonition admonition-<name>` and its title in bold, or a
 * `<details>` with its title as summary; an instructor's note is left out. A container whose
 * fence falls inside a block (a list going on across it) is left unwrapped. One pass over each
 * level.
 */
export function wrapContainers(tree: Root, containers: readonly Container[]): void {
  const fences = new Set<number>();
  const add = (list: readonly Container[]): void => {
    for (const c of list) {
      fences.add(c.open).add(c.close);
      add(c.inner);
    }
  };
  add(containers);
  const blocks = (tree.children as Block[]).filter((b) => b.type !== 'thematicBreak' || !fences.has(b.position?.start.line ?? 0));
  tree.children = nest(blocks, containers);
}

function nest(blocks: Block[], containers: readonly Container[]): Block[] {
  const out: Block[] = [];
  let i = 0;
  const startOf = (b: Block) => b.position?.start.line ?? 0;
  const endOf = (b: Block) => b.position?.end.line ?? 0;
  for (const c of containers) {
    while (i < blocks.length && endOf(blocks[i]!) < c.open) out.push(blocks[i++]!);
    if (i < blocks.length && startOf(blocks[i]!) < c.open) continue;
    const inside: Block[] = [];
    while (i < blocks.length && endOf(blocks[i]!) < c.close) inside.push(blocks[i++]!);
    if (i < blocks.length && startOf(blocks[i]!) < c.close) {
      out.push(...inside);
      continue;
    }
    if (c.name !== FOR_INSTRUCTORS) out.push(box(c, nest(inside, c.inner)));
  }
  out.push(...blocks.slice(i));
  return out;
}

function box(c: Container, children: Block[]): Block {
  const position = { start: { line: c.open, column: 1 }, end: { line: c.close, column: 1 } };
  if (FOLDED.has(c.name)) {
    const summary: Block = { type: 'paragraph', data: { hName: 'summary' }, children: [{ type: 'text', value: c.title }] };
    return { type: 'blockquote', data: { hName: 'details', hProperties: { className: ['admonition', `admonition-${c.name}`] } }, position, children: [summary, ...children] };
  }
  const title: Block = { type: 'paragraph', data: { hProperties: { className: ['admonition-title'] } }, children: [{ type: 'strong', children: [{ type: 'text', value: c.title }] }] };
  return { type: 'blockquote', data: { hProperties: { className: ['admonition', `admonition-${c.name}`] } }, position, children: [title, ...children] };
}
