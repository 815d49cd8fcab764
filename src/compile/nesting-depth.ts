/**
 * Linear checks of nesting depth (PURE). The parser (micromark → mdast → hast) recurses once
 * per level and slows down superlinearly with depth: about 2,000 nested block quotes, list
 * items or HTML elements overflow the stack, and a few hundred nested lists take seconds. No
 * lesson needs such depth, so it is refused, at the place the limit is crossed, in one pass
 * that never recurses.
 *
 * Containers (block quotes, list items) are counted in the Markdown before it is parsed: the
 * check is deliberately coarse, it may count a container the parser would not, never one less.
 * HTML elements are counted in the raw HTML the Markdown parser found (`findDeepHtml`, called
 * by render.ts between mdast, where HTML is flat text, and hast, where it nests): exactly what
 * would nest, so `Vec<T>` in a code block or in inline code is never counted. The limits are
 * far above what any real lesson holds.
 */

/** Block quotes and list items nested in one another (counted together: both are containers). */
export const MAX_CONTAINER_DEPTH = 32;
/** HTML elements open at once (elements whose end tag may be left out are not counted). */
export const MAX_HTML_DEPTH = 100;

export interface TooDeep {
  /** What is nested too deep, for the message: "block quotes and list items", "HTML elements". */
  construct: string;
  limit: number;
  /** 1-based place in the text where the limit is crossed. */
  line: number;
  column: number;
}

/** End tags the HTML parser closes by itself (li, p, td…) or never has (void elements). */
const NOT_NESTING = new Set(
  'area base br col embed hr img input link meta source track wbr param keygen li p dt dd tr td th option optgroup thead tbody tfoot colgroup caption rt rp html head body'.split(' '),
);

/** The message of a diagnostic for `found`. */
export function tooDeepMessage(found: TooDeep, what: string): string {
  return `${found.construct} are nested more than ${found.limit} deep in the ${what}; it was not rendered (flatten the nesting)`;
}

/** The first place where the containers of `markdown` nest too deep, or undefined (HTML: findDeepHtml). */
export function findTooDeep(markdown: string): TooDeep | undefined {
  return findDeepContainers(markdown);
}

/** A piece of raw HTML and the 1-based place in the Markdown text where it starts. */
export interface RawHtml {
  value: string;
  line: number;
  column: number;
}

/** A start or end tag: `/` for an end tag, its name, `/` when self-closing. */
export const HTML_TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*?(\/?)>/g;

/** Each tag of `pieces`, in order, with its place (a line after the first of a piece starts at column 1). */
export function* htmlTags(pieces: Iterable<RawHtml>): Generator<{ end: boolean; name: string; selfClosing: boolean; text: string; line: number; column: number }> {
  for (const piece of pieces) {
    const tag = new RegExp(HTML_TAG.source, 'g');
    let line = piece.line;
    let lineStart = 0;
    let lineColumn = piece.column;
    let seen = 0;
    for (let m = tag.exec(piece.value); m; m = tag.exec(piece.value)) {
      for (let nl = piece.value.indexOf('\n', seen); nl !== -1 && nl < m.index; nl = piece.value.indexOf('\n', nl + 1)) {
        line++;
        lineStart = nl + 1;
        lineColumn = 1;
      }
      seen = m.index;
      yield { end: m[1] === '/', name: m[2]!.toLowerCase(), selfClosing: m[3] === '/', text: m[0], line, column: lineColumn + m.index - lineStart };
    }
  }
}


const isSpace = (c: number) => c === 0x20 || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * Containers on each line: the `>` and list markers that open it, plus the list items it sits
 * in by indentation (a stack of their content columns, as the parser keeps).
 */
function findDeepContainers(text: string): TooDeep | undefined {
  const open: number[] = []; // content columns of list items opened on earlier lines
  let line = 1;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    let i = start;
    let column = 0; // visual column, tabs to the next multiple of 4
    let markers = 0;
    let first = true;
    for (;;) {
      while (i < end && isSpace(text.charCodeAt(i))) column = text.charCodeAt(i++) === 0x09 ? column + 4 - (column % 4) : column + 1;
      if (i >= end) break;
      const c = text.charCodeAt(i);
      let width = 0;
      if (c === 0x3e /* > */) width = 1;
      else if (c === 0x2d || c === 0x2a || c === 0x2b /* - * + */) width = 1;
      else if (isDigit(c)) {
        let j = i;
        while (j < end && j - i < 9 && isDigit(text.charCodeAt(j))) j++;
        const d = text.charCodeAt(j);
        if (d === 0x2e || d === 0x29 /* . ) */) width = j - i + 1;
      }
      if (width === 0) break;
      const after = i + width;
      // A list marker needs a space (or the line's end) after it; `>` does not.
      if (c !== 0x3e && after < end && !isSpace(text.charCodeAt(after))) break;
      if (first && c !== 0x3e) {
        // A list item: it closes the items it is not indented into, then opens one.
        while (open.length > 0 && open[open.length - 1]! > column) open.pop();
        open.push(column + width + 1);
      } else markers++;
      first = false;
      if (open.length + markers > MAX_CONTAINER_DEPTH) return { construct: 'block quotes and list items', limit: MAX_CONTAINER_DEPTH, line, column: i - start + 1 };
      column += width;
      i = after;
    }
    if (first && i < end) {
      // Text: it sits in the items it is indented into.
      while (open.length > 0 && open[open.length - 1]! > column) open.pop();
    }
    start = end + 1;
    line++;
  }
  return undefined;
}

/** HTML elements open at once in the raw HTML of a text, counting start and end tags in one pass. */
export function findDeepHtml(pieces: Iterable<RawHtml>): TooDeep | undefined {
  let depth = 0;
  for (const tag of htmlTags(pieces)) {
    if (NOT_NESTING.has(tag.name) || tag.selfClosing) continue;
    if (tag.end) depth = Math.max(0, depth - 1);
    else if (++depth > MAX_HTML_DEPTH) return { construct: 'HTML elements', limit: MAX_HTML_DEPTH, line: tag.line, column: tag.column };
  }
  return undefined;
}
