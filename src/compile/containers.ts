/**
 * Containers (PURE): a block of Markdown shown as a box with a title, as other tools write it,
 * instead of its markers as text. Two forms, and a third fenced like the first:
 *
 * - `:::` fences, as Docusaurus, VitePress, Pandoc and Quarto (and the Carpentries) write them:
 *
 *     :::tip            :::tip[Title]       ::: tip Title       ::::: challenge      ::: {.callout-note}
 *     Text.             Text.               Text.               Text.                Text.
 *     :::               :::                 :::                 :::::                :::
 *
 *   A closing line closes the innermost open one, whatever its length; an opening one never
 *   closed is text as written. pymdownx's blocks are fenced the same way with slashes:
 *   `/// tip | Title` … `///`, options on indented lines right under the opening.
 * - `!!!` admonitions, as Python-Markdown and MkDocs write them (`???` folded, `???+` folded
 *   open): a marker line `!!! note "Title"`, then the lines indented by four spaces (or a tab)
 *   under it, which are its text.
 *
 * Found before the Markdown is parsed (markers in code stay code; a marker starts its line),
 * each marker or fence line is made a thematic break of its length, so the text inside parses
 * as blocks of its own (and an admonition's lines lose their indent: their columns are put back
 * after the parse); after the parse the breaks go and the blocks inside each container are
 * wrapped in its box. Every line keeps its number.
 */
import type { BlockContent, DefinitionContent, Nodes, Root } from 'mdast';
import { codeRanges, inCode } from './code-ranges.js';

/** A container found: where it is (lines from 1), what it is, and those inside it. */
export interface Container {
  /** Its opening fence's or marker's line. */
  open: number;
  /** The line it ends before: its closing fence's, or the one after an admonition's last indented line. */
  close: number;
  name: string;
  /** Its title ('' for none: `!!! note ""`). */
  title: string;
  /** Shown as `<details>`: closed, or open (`???+`). */
  folded?: 'closed' | 'open';
  inner: Container[];
}

/** What findContainers found: the text to parse, the containers as a tree, and how to read the parse back. */
export interface FoundContainers {
  text: string;
  containers: Container[];
  /** The lines made thematic breaks. */
  breaks: Set<number>;
  /** By line, the columns an admonition's indent took off it. */
  shifts: Map<number, number>;
}

/** An opening fence: colons, then a name (`tip`, `{.callout-note}`), then a title (`[Title]` or the rest of the line). */
const OPENING = /^:{3,}[ \t]*(?:\{([^}\n]*)\}|([A-Za-z][\w-]*))[ \t]*(.*)$/;
const CLOSING = /^:{3,}[ \t]*$/;
/** A pymdownx block's fences (`/// tip | Title`, `///`) and an option line under its opening (`    type: warning`). */
const SLASH_OPENING = /^\/{3,}[ \t]*([A-Za-z][\w-]*)[ \t]*(?:\|[ \t]*(.*?))?[ \t]*$/;
const SLASH_CLOSING = /^\/{3,}[ \t]*$/;
const OPTION = /^[ \t]+([A-Za-z][\w-]*):[ \t]*(.*?)[ \t]*$/;
/** An admonition's marker: `!!!`, `???` or `???+`, its classes (the first is its name), an optional quoted title. */
const MARKER = /^(!!!|\?\?\?\+?)[ \t]+([A-Za-z][\w-]*)(?:[ \t]+[A-Za-z][\w-]*)*(?:[ \t]+"([^"\n]*)")?[ \t]*\r?$/;
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

/** The containers of `markdown`, and the text to parse in its place; undefined when it has none. */
export function findContainers(markdown: string): FoundContainers | undefined {
  const found: Container[] = [];
  const breaks = new Set<number>();
  const shifts = new Map<number, number>();
  let text = markdown;
  if (text.includes('!!!') || text.includes('???')) text = admonitions(text, found, breaks, shifts);
  if (text.includes(':::') || text.includes('///')) text = fences(text, found, breaks);
  return found.length === 0 ? undefined : { text, containers: asTree(found), breaks, shifts };
}

/**
 * The fenced containers of `text` into `found` (`:::`, and `///` as pymdownx's blocks write
 * them: `/// tip | Title` … `///`, options such as `type: warning` on indented lines right
 * under the opening), and the text with their fences made breaks, their options blank.
 */
function fences(text: string, found: Container[], breaks: Set<number>): string {
  const code = codeRanges(text);
  type Open = Container & { from: number; options: Array<[number, number]> };
  const open: Record<string, Open[]> = { ':': [], '/': [] };
  const lines: Array<[number, number]> = [];
  const blanks: Array<[number, number]> = [];
  let options: Open | undefined; // the `///` block just opened, whose option lines may follow
  let line = 0;
  for (let at = 0; at <= text.length; line++) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    const char = text[at] === ':' || text[at] === '/' ? text[at]! : '';
    const fence = char !== '' && text.startsWith(char.repeat(3), at);
    const written = fence || options ? text.slice(at, end).replace(/\r$/, '') : '';
    const option = options && OPTION.exec(written);
    if (options && option) {
      setOption(options, option[1]!, option[2]!);
      options.options.push([at, end]);
    } else {
      options = undefined;
      if (fence && !inCode(code, at)) {
        const stack = open[char]!;
        const closing = (char === ':' ? CLOSING : SLASH_CLOSING).test(written);
        const opening = closing ? undefined : (char === ':' ? OPENING : SLASH_OPENING).exec(written);
        if (opening && stack.length < MAX_NESTING) {
          const entry: Open = { open: line + 1, close: 0, ...(char === ':' ? nameAndTitle(opening) : { name: opening[1]!.toLowerCase(), title: opening[2] || capitalized(opening[1]!.toLowerCase()) }), inner: [], from: at, options: [] };
          stack.push(entry);
          if (char === '/') options = entry;
        } else if (closing && stack.length > 0) {
          const { from, options: optionLines, ...container } = stack.pop()!;
          container.close = line + 1;
          found.push(container);
          breaks.add(container.open).add(container.close);
          lines.push([from, lineEnd(text, from)], [at, end]);
          blanks.push(...optionLines);
        }
      }
    }
    if (nl === -1) break;
    at = nl + 1;
  }
  return asBreaks(text, lines, blanks);
}

/** A `///` block's option: `type:` names its box, `open:` unfolds a `details`; others are its renderer's. */
function setOption(block: Container, key: string, value: string): void {
  if (key === 'type' && /^[\w-]+$/.test(value)) {
    if (block.title === capitalized(block.name)) block.title = capitalized(value.toLowerCase());
    block.name = value.toLowerCase();
  } else if (key === 'open' && block.name === 'details') block.folded = /^(true|yes|on)$/i.test(value) ? 'open' : 'closed';
}

/**
 * The `!!!` admonitions of `text` into `found`, and the text with their markers made breaks and
 * their lines' indent taken off (`shifts`). One pass a level: an admonition inside another is
 * found once its outer one's lines lost their indent.
 */
function admonitions(text: string, found: Container[], breaks: Set<number>, shifts: Map<number, number>): string {
  for (let level = 0; level < MAX_NESTING; level++) {
    const code = codeRanges(text);
    const lines = text.split('\n');
    const starts: number[] = [];
    for (let i = 0, at = 0; i < lines.length; at += lines[i]!.length + 1, i++) starts.push(at);
    let changed = false;
    for (let i = 0; i < lines.length; i++) {
      const marker = MARKER.exec(lines[i]!);
      if (!marker || inCode(code, starts[i]!)) continue;
      let last = i;
      for (let j = i + 1; j < lines.length && (lines[j]!.trim() === '' || indent(lines[j]!) > 0); j++) if (lines[j]!.trim() !== '') last = j;
      const [, kind, name, title] = marker;
      found.push({ open: i + 1, close: last + 2, name: name!.toLowerCase(), title: title ?? capitalized(name!.toLowerCase()), ...(kind !== '!!!' && { folded: kind === '???+' ? 'open' : 'closed' }), inner: [] });
      breaks.add(i + 1);
      lines[i] = BREAK.padEnd(lines[i]!.length, ' ');
      // Its lines, their indent off (one inside it is found on the next pass).
      for (let k = i + 1; k <= last; k++) {
        const cut = lines[k]!.trim() === '' ? 0 : indent(lines[k]!);
        if (cut === 0) continue;
        shifts.set(k + 1, (shifts.get(k + 1) ?? 0) + cut);
        lines[k] = lines[k]!.slice(cut);
      }
      i = last;
      changed = true;
    }
    if (!changed) break;
    text = lines.join('\n');
  }
  return text;
}

/** The columns of indent that make a line part of an admonition: four spaces or a tab (0 when it is not). */
function indent(line: string): number {
  return line.startsWith('\t') ? 1 : line.startsWith('    ') ? 4 : 0;
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf('\n', from);
  return nl === -1 ? text.length : nl;
}

/** `text` with each of `lines` (offsets, in any order) made a thematic break of its length, and each of `blanks` spaces. */
function asBreaks(text: string, lines: Array<[number, number]>, blanks: Array<[number, number]> = []): string {
  const blank = new Set(blanks.map(([start]) => start));
  let out = '';
  let from = 0;
  for (const [start, end] of [...lines, ...blanks].sort((a, b) => a[0] - b[0])) {
    out += text.slice(from, start) + (blank.has(start) ? '' : BREAK).padEnd(end - start, ' ');
    from = end;
  }
  return out + text.slice(from);
}

/** The containers found, as a tree: each inside the one around it, in order. One that overlaps another without being inside it is dropped (its markers stay breaks). */
function asTree(found: Container[]): Container[] {
  const top: Container[] = [];
  const stack: Container[] = [];
  for (const c of found.sort((a, b) => a.open - b.open || b.close - a.close)) {
    while (stack.length > 0 && stack.at(-1)!.close <= c.open) stack.pop();
    const around = stack.at(-1);
    if (around && c.close > around.close) continue;
    (around?.inner ?? top).push(c);
    stack.push(c);
  }
  return top;
}

const capitalized = (name: string) => {
  const words = name.replace(/^callout-/, '').replace(/[-_]+/g, ' ');
  return TITLES[name] ?? words.charAt(0).toUpperCase() + words.slice(1);
};

function nameAndTitle([, braces, word, rest = '']: RegExpExecArray): { name: string; title: string } {
  // `{.callout-note title="Heads up"}` (Pandoc, Quarto): the first class is its name.
  const name = (word ?? /(?:^|\s)\.([\w-]+)/.exec(braces ?? '')?.[1] ?? 'note').toLowerCase();
  // Attributes after the name (`:::note{title="…"}`), as Docusaurus's directives allow.
  const attributes = braces ?? /^\{([^}]*)\}/.exec(rest)?.[1] ?? '';
  const given = /^\[(.*)\]\s*$/.exec(rest)?.[1] ?? /title="([^"]*)"/.exec(attributes)?.[1] ?? (rest.startsWith('{') ? '' : rest);
  return { name, title: given.trim() || capitalized(name) };
}

type Block = BlockContent | DefinitionContent;

/**
 * Wrap the blocks inside each container (the tree of `found.text`) in its box: a block quote
 * with the classes `admonition admonition-<name>` and its title in bold, or a `<details>` with
 * its title as summary; an instructor's note is left out. The breaks made of markers go, and an
 * admonition's lines get their columns back. A container whose marker falls inside a block
 * that goes on across it is left unwrapped. One pass over each level.
 */
export function wrapContainers(tree: Root, found: FoundContainers): void {
  if (found.shifts.size > 0) shiftColumns(tree, found.shifts);
  const blocks = (tree.children as Block[]).filter((b) => b.type !== 'thematicBreak' || !found.breaks.has(b.position?.start.line ?? 0));
  tree.children = nest(blocks, found.containers);
}

/** Each node's columns as written, on the lines whose indent an admonition took off. */
function shiftColumns(node: Nodes, shifts: ReadonlyMap<number, number>): void {
  const { start, end } = node.position ?? {};
  if (start) start.column += shifts.get(start.line) ?? 0;
  if (end) end.column += shifts.get(end.line) ?? 0;
  if ('children' in node) for (const child of node.children) shiftColumns(child, shifts);
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
  const className = ['admonition', `admonition-${c.name}`];
  const folded = c.folded ?? (FOLDED.has(c.name) ? 'closed' : undefined);
  if (folded) {
    const summary: Block = { type: 'paragraph', data: { hName: 'summary' }, children: [{ type: 'text', value: c.title || capitalized(c.name) }] };
    return { type: 'blockquote', data: { hName: 'details', hProperties: { className, ...(folded === 'open' && { open: true }) } }, children: [summary, ...children] };
  }
  const title: Block[] = c.title === '' ? [] : [{ type: 'paragraph', data: { hProperties: { className: ['admonition-title'] } }, children: [{ type: 'strong', children: [{ type: 'text', value: c.title }] }] }];
  return { type: 'blockquote', data: { hProperties: { className } }, children: [...title, ...children] };
}
