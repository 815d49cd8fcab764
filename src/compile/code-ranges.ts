/**
 * Where a Markdown text holds code (PURE): fenced code blocks and inline code spans, as offsets.
 * What template tags need to stay out of (GitBook leaves code as written), before the text is
 * parsed: close to CommonMark, in one linear pass, for any input.
 *
 * - A fence is a line of three or more backticks or tildes, after any indentation and block
 *   quote markers; it runs to a line of at least as many of the same character, or to the end.
 * - A code span runs from a run of backticks to the next run of exactly as many in the same
 *   paragraph (lines up to a blank line or a fence); a run with no such partner is text.
 */

/** Offsets `[start, end)` of code in a text, in order, not overlapping. */
export type CodeRanges = ReadonlyArray<readonly [number, number]>;

/** A backtick, written as an escape so no reader of this file takes it for a template string's start. */
const BACKTICK = '\x60';
const FENCE_OPEN = /^[ \t>]*(\x60{3,}|~{3,})/;

export function codeRanges(text: string): CodeRanges {
  const ranges: Array<[number, number]> = [];
  let fence: { char: string; length: number; start: number } | undefined;
  let paragraph = -1; // where the paragraph being read starts, or -1
  let at = 0;
  while (at <= text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(at, end);
    if (fence) {
      const close = FENCE_OPEN.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && line.slice(close[0].length).trim() === '') {
        ranges.push([fence.start, end]);
        fence = undefined;
      }
    } else {
      const open = FENCE_OPEN.exec(line);
      // A backtick fence's info string holds no backtick (else the line is a code span).
      if (open && !(open[1]![0] === BACKTICK && line.slice(open[0].length).includes(BACKTICK))) {
        if (paragraph !== -1) spansIn(text, paragraph, at, ranges);
        paragraph = -1;
        fence = { char: open[1]![0]!, length: open[1]!.length, start: at };
      } else if (line.trim() === '') {
        if (paragraph !== -1) spansIn(text, paragraph, at, ranges);
        paragraph = -1;
      } else if (paragraph === -1) paragraph = at;
    }
    if (nl === -1) break;
    at = nl + 1;
  }
  if (fence) ranges.push([fence.start, text.length]);
  else if (paragraph !== -1) spansIn(text, paragraph, text.length, ranges);
  return ranges.sort((a, b) => a[0] - b[0]);
}

/** The code spans of `text` between `from` and `to`: each run of backticks paired with the next run of its length. */
function spansIn(text: string, from: number, to: number, out: Array<[number, number]>): void {
  // Every run, then for each length the runs in order: a pairing walks each list once.
  const runs: Array<{ start: number; length: number }> = [];
  for (let i = text.indexOf(BACKTICK, from); i !== -1 && i < to; i = text.indexOf(BACKTICK, i)) {
    let j = i;
    while (j < to && text.charCodeAt(j) === 96) j++;
    runs.push({ start: i, length: j - i });
    i = j;
  }
  const byLength = new Map<number, number[]>();
  runs.forEach((r, index) => {
    const list = byLength.get(r.length);
    if (list) list.push(index);
    else byLength.set(r.length, [index]);
  });
  const next = new Map<number, number>(); // length → position in its list
  let after = -1; // runs up to this index are inside a span or paired
  for (let index = 0; index < runs.length; index++) {
    if (index <= after) continue;
    const run = runs[index]!;
    // A run after a backslash opens no span (its first backtick is escaped).
    if (run.start > 0 && text.charCodeAt(run.start - 1) === 92 /* \ */) continue;
    const list = byLength.get(run.length)!;
    let k = next.get(run.length) ?? 0;
    while (k < list.length && list[k]! <= index) k++;
    next.set(run.length, k);
    if (k === list.length) continue;
    const close = runs[list[k]!]!;
    out.push([run.start, close.start + close.length]);
    after = list[k]!;
  }
}

/** Whether `offset` lies in one of `ranges` (sorted): a binary search. */
export function inCode(ranges: CodeRanges, offset: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [start, end] = ranges[mid]!;
    if (offset < start) hi = mid - 1;
    else if (offset >= end) lo = mid + 1;
    else return true;
  }
  return false;
}
