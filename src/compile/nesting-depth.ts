/**
 * A linear pre-check of nesting depth in Markdown, run before it is parsed (PURE). The parser
 * (micromark → mdast → hast) recurses once per level and slows down superlinearly with depth:
 * about 2,000 nested block quotes, list items or HTML elements overflow the stack, and a few
 * hundred nested lists take seconds. No lesson needs such depth, so it is refused here, at the
 * place the limit is crossed, in one pass over the text that never recurses.
 *
 * The check is deliberately coarse (it does not skip code blocks, for instance): it may count
 * a construct the parser would not, never one less than the parser nests. The limits are far
 * above what any real lesson holds.
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

/** The first place where `markdown` nests too deep, or undefined. */
export function findTooDeep(markdown: string): TooDeep | undefined {
  return findDeepContainers(markdown) ?? findDeepHtml(markdown);
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

/** HTML elements open at once, counting start and end tags in one pass. */
function findDeepHtml(text: string): TooDeep | undefined {
  const tag = /<(\/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*?(\/?)>|\n/g;
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  for (let m = tag.exec(text); m; m = tag.exec(text)) {
    if (m[0] === '\n') {
      line++;
      lineStart = m.index + 1;
      continue;
    }
    const place = { line, column: m.index - lineStart + 1 };
    for (let nl = m[0].indexOf('\n'); nl !== -1; nl = m[0].indexOf('\n', nl + 1)) {
      line++;
      lineStart = m.index + nl + 1;
    }
    const name = m[2]!.toLowerCase();
    if (NOT_NESTING.has(name) || m[3] === '/') continue;
    if (m[1] === '/') depth = Math.max(0, depth - 1);
    else if (++depth > MAX_HTML_DEPTH) return { construct: 'HTML elements', limit: MAX_HTML_DEPTH, ...place };
  }
  return undefined;
}
