/**
 * `{{#include path}}` and `{{#rustdoc_include path}}` in lesson bodies (PURE), with mdBook's
 * rules: the path is relative to the file holding the directive; `path:N` takes line N,
 * `path:N:M` lines N to M, `path::M` lines 1 to M, `path:N:` line N to the end, `path:name` the
 * lines between `ANCHOR: name` and `ANCHOR_END: name`; lines holding an anchor are left out of
 * every include; included text is expanded in turn (relative to where it lies); `\{{#` keeps a
 * directive as text. `rustdoc_include` gives learners the part it selects (mdBook shows the rest
 * only behind a toggle). Any other `{{#name …}}` is left as written, with a warning.
 *
 * The template tags of GitBook and Jekyll outside code (code-ranges.ts: GitBook leaves code as written):
 * `{% include "path" %}` takes the whole file (relative to the file holding it, `/…` from the
 * lesson's program folder, the book's root); `{% raw %}` … `{% endraw %}` keeps what lies
 * between as written and the tags go; `{% comment %}` … `{% endcomment %}` (Liquid: Jekyll
 * sites hide exercise solutions so) goes whole; any other tag is left as written, with a warning.
 *
 * The expanded text keeps, per line, where it came from: a line of the lesson keeps its own
 * place; an included line is placed at the directive that brought it in and names the file it
 * was written in, so its links and images resolve from there.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { privateReason } from '../model/assets.js';
import type { LineOrigin } from '../model/source-tree.js';
import { diag, type Place } from './codes.js';
import { codeRanges, inCode, type CodeRanges } from './code-ranges.js';
import { dirOf, normalizePath } from './repo-paths.js';
import { suggest } from './suggest.js';

/** The repo files an include can read. */
export interface IncludeFiles {
  /** The text of the repo file at `path` (repo-relative), or undefined when the repo has none. */
  textOf(path: string): string | undefined;
  /** Every readable path, for did-you-mean hints. */
  paths(): readonly string[];
}


export interface Expanded {
  text: string;
  /** One per line of `text`. */
  origins: LineOrigin[];
  /** Repo paths of the files included, directly or not, sorted, once each. */
  includes: string[];
}

/**
 * A directive as mdBook finds one: the start of an escaped `\{{#…}}` (its end, the line's last
 * `}}`, is found by escapedEnd), or `{{#name args}}` with no brace in its arguments; or a
 * template tag `{% name args %}` (`{%-` and `-%}` too) with no `%` in its arguments. Written so
 * that no input makes the search backtrack over more than one line's or one tag's text: a body
 * of many unclosed `\{{#`, `{{#a b` or `{% a` costs a pass, not a pass per opening.
 */
const DIRECTIVE = /\\\{\{#|\{\{\s*#([A-Za-z0-9_]+)(?![A-Za-z0-9_])\s+([^{}]+)\}\}|\{%-?\s*([A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])([^%]*)%\}/g;
const ESCAPED = '\\{{#';
/** A template include's quoted path. */
const QUOTED = /^\s*(["'])([^"']*)\1/;
/** Tags that close or continue a block whose opening tag was reported already. */
const CONTINUES = /^(end[a-z_]*|else|elif|elseif)$/;
const ANCHOR_START = /ANCHOR:\s*([\w-]+)/;
const ANCHOR_END = /ANCHOR_END:\s*([\w-]+)/;
/** mdBook stops nesting here too; it bounds the work a few files can ask for. */
const MAX_DEPTH = 10;
/** Past this much text, expansion stops: the body-length check then reports the lesson. */
const MAX_EXPANDED = 10 * 1024 * 1024;
/** Past this many includes in one lesson (files including each other many times over), expansion stops with an error. */
const MAX_INCLUDES = 10_000;

/** A text and the line, in its file, of each of its lines. */
interface Lines {
  file: string;
  text: string;
  lineOf: (index: number) => number;
}

/**
 * Expand the includes of `text`, the part of the lesson file `file` that starts at line
 * `firstLine`. Problems go to `out` at their place in the file holding the directive.
 * `templateRoot` is the folder a template include's `/…` starts from (the repo's root when '').
 */
export function expandIncludes(file: string, text: string, firstLine: number, files: IncludeFiles, out: Diagnostic[], templateRoot = ''): Expanded {
  const parts: string[] = [];
  const origins: LineOrigin[] = [];
  const includes = new Set<string>();
  let length = 0;
  let count = 0;
  // A line's origin is taken from the text that starts it: included text starting a line stands at its directive.
  let lineStart = true;

  /** Append `chunk`; `originAt(i)` places the line that starts at chunk offset i. */
  const emit = (chunk: string, originAt: (offset: number) => LineOrigin) => {
    if (chunk === '') return;
    if (lineStart) origins.push(originAt(0));
    for (let i = chunk.indexOf('\n'); i !== -1 && i + 1 < chunk.length; i = chunk.indexOf('\n', i + 1)) origins.push(originAt(i + 1));
    lineStart = chunk.endsWith('\n');
    parts.push(chunk);
    length += chunk.length;
  };

  /** `asCode`: the text stands in code of the file that included it (a listing in a fence): its template tags are code too. */
  const expand = (source: Lines, stack: readonly string[], placeAt: ((offset: number) => LineOrigin) | undefined, asCode = false) => {
    const starts = lineStarts(source.text);
    const placeIn = (offset: number): Place => {
      const index = lineIndex(starts, offset);
      return { line: source.lineOf(index), column: offset - starts[index]! + 1 };
    };
    const originAt = placeAt ?? ((offset: number) => ({ line: placeIn(offset).line }));
    // Found at the first template tag or include: most texts have neither.
    let code: CodeRanges | undefined;
    // Inside `{% raw %}`: every directive stays as written until `{% endraw %}`.
    let raw = false;
    // Inside `{% comment %}`: how deep (Liquid nests them); the text, tags and includes go until the last `{% endcomment %}`.
    let comment = 0;
    let last = 0;
    // One search per text: a nested expand has its own.
    const search = new RegExp(DIRECTIVE);
    const escapedEnd = escapedEnds(source.text);
    for (let m = search.exec(source.text); m !== null; m = search.exec(source.text)) {
      if (length > MAX_EXPANDED) return;
      const at = m.index;
      if (comment > 0) {
        if (m[3] === 'comment') comment++;
        else if (m[3] === 'endcomment' && --comment === 0) last = at + m[0].length;
        continue;
      }
      const escapedTo = m[0] === ESCAPED ? escapedEnd(at) : undefined;
      // `\{{#` with no `}}` after it on its line is text, as mdBook reads it.
      if (m[0] === ESCAPED && escapedTo === undefined) {
        search.lastIndex = at + 1;
        continue;
      }
      emit(source.text.slice(last, at), (o) => originAt(last + o));
      const whole = escapedTo === undefined ? m[0] : source.text.slice(at, escapedTo);
      last = search.lastIndex = at + whole.length;
      const asWritten = () => emit(whole, (o) => originAt(at + o));
      const tag = m[3];
      if (tag !== undefined && (asCode || inCode((code ??= codeRanges(source.text)), at))) {
        asWritten();
        continue;
      }
      if (raw) {
        if (tag === 'endraw') raw = false;
        else asWritten();
        continue;
      }
      // The tags go; a stray `{% endraw %}` has nothing to end.
      if (tag === 'raw' || tag === 'endraw') {
        raw = tag === 'raw';
        continue;
      }
      // What lies from here to its `{% endcomment %}` goes (learners never saw it on the site); kept from here should it never close.
      if (tag === 'comment') {
        comment = 1;
        last = at;
        continue;
      }
      if (whole.startsWith('\\')) {
        emit(whole.slice(1), (o) => originAt(at + 1 + o));
        continue;
      }
      const place = placeIn(at);
      const quoted = tag === 'include' ? QUOTED.exec(m[4]!) : undefined;
      if (tag !== undefined && !quoted) {
        if (!CONTINUES.test(tag)) out.push(diag('include/unsupported', source.file, place, `{% ${tag} %} is a template tag coursesync does not run (it runs {% include "path" %}, {% raw %} and {% comment %}): learners would see it as written`));
        asWritten();
        continue;
      }
      const name = m[1];
      if (name !== undefined && name !== 'include' && name !== 'rustdoc_include') {
        out.push(diag('include/unsupported', source.file, place, `{{#${name}}} is not expanded (coursesync expands {{#include}} and {{#rustdoc_include}}): learners would see it as written`));
        asWritten();
        continue;
      }
      if (++count > MAX_INCLUDES) {
        if (count === MAX_INCLUDES + 1) out.push(diag('include/too-many', file, { line: firstLine, column: 1 }, `the lesson's includes bring in more than ${MAX_INCLUDES} files (counting each time a file is included)`));
        asWritten();
        continue;
      }
      const included = quoted
        ? include(source.file, `{% include "${quoted[2]!}" %}`, quoted[2]!, templateRoot, undefined, place, stack)
        : mdBookInclude(source.file, name!, m[2]!.trim(), place, stack);
      if (!included) {
        asWritten();
        continue;
      }
      includes.add(included.file);
      // Included text stands at the directive (the outermost one, for nested includes).
      const directive = placeAt ? placeAt(at) : { line: place.line, column: place.column };
      const origin: LineOrigin = { line: directive.line, column: directive.column ?? place.column, base: included.file };
      if (stack.length >= MAX_DEPTH) {
        emit(included.text, () => origin);
        continue;
      }
      // A file brought into code (mdBook includes listings into fences) is code: GitBook would not run its tags.
      const intoCode = asCode || inCode((code ??= codeRanges(source.text)), at);
      expand(included, [...stack, included.file], () => origin, intoCode);
    }
    // A comment never closed hides nothing: it stays as written, with what follows it (its includes and tags too).
    if (comment > 0) out.push(diag('include/unsupported', source.file, placeIn(last), '{% comment %} is never closed by {% endcomment %}: learners would see it, and the text after it, as written', 'close it where the hidden text ends'));
    emit(source.text.slice(last), (o) => originAt(last + o));
  };

  /** What mdBook's `{{#name path[:selector] …}}` selects: `/…` from the repo's root. */
  const mdBookInclude = (from: string, name: string, args: string, place: Place, stack: readonly string[]): Lines | undefined => {
    const arg = args.split(/\s+/)[0] ?? '';
    const colon = arg.indexOf(':');
    return include(from, `{{#${name} ${args}}}`, colon === -1 ? arg : arg.slice(0, colon), '', colon === -1 ? undefined : arg.slice(colon + 1), place, stack);
  };

  /** The part of a file a directive in `from` selects, or undefined (reported) when it cannot be had; `/…` starts at `root`. */
  const include = (from: string, directive: string, written: string, root: string, selector: string | undefined, place: Place, stack: readonly string[]): Lines | undefined => {
    const target = normalizePath(written.startsWith('/') ? `${root}${written}` : `${dirOf(from)}/${written}`);
    if (target === undefined || written === '') {
      out.push(diag('include/outside-repo', from, place, `${directive}: ${JSON.stringify(written)} points outside the repo`));
      return undefined;
    }
    if (stack.includes(target)) {
      out.push(diag('include/cycle', from, place, `${directive} makes a cycle: ${[...stack.slice(stack.indexOf(target)), target].join(' → ')}`));
      return undefined;
    }
    const text = files.textOf(target);
    const unread = text === undefined ? privateReason(target) : undefined;
    if (unread !== undefined) {
      out.push(diag('include/missing-file', from, place, `${directive}: ${unread}`, 'include a copy of what learners should see, kept outside it'));
      return undefined;
    }
    if (text === undefined) {
      const ext = target.includes('.') ? target.slice(target.lastIndexOf('.')) : '';
      const near = suggest(target, files.paths().filter((p) => p.endsWith(ext)));
      out.push(diag('include/missing-file', from, place, `${directive}: no file ${target} in the repo`, near ? `did you mean ${near}?` : undefined));
      return undefined;
    }
    const selected = select(text, selector);
    if ('problem' in selected) {
      out.push(diag(selected.code, from, place, `${directive}: ${selected.problem}`, selected.hint));
      return undefined;
    }
    return { file: target, text: selected.lines.map((l) => l.text).join('\n'), lineOf: (i) => selected.lines[i]?.line ?? 1 };
  };

  const lines = text.split('\n');
  expand({ file, text, lineOf: (i) => firstLine + Math.min(i, lines.length - 1) }, [file], undefined);
  // The empty line after a last line ending stands where that line does.
  if (lineStart) origins.push(origins.at(-1) ?? { line: firstLine });
  return { text: parts.join(''), origins, includes: [...includes].sort() };
}

/**
 * Where an escaped directive starting at an offset of `text` ends: after its line's last `}}`,
 * or undefined when the line has none after it. Each line is scanned once, however many
 * escapes it holds.
 */
function escapedEnds(text: string): (at: number) => number | undefined {
  let line: { end: number; close: number } | undefined;
  return (at) => {
    if (!line || at > line.end) {
      const newline = text.indexOf('\n', at);
      const end = newline === -1 ? text.length : newline;
      let close = -1;
      for (let i = at; i + 1 < end; i++) if (text.charCodeAt(i) === 125 && text.charCodeAt(i + 1) === 125) close = i;
      line = { end, close };
    }
    return line.close >= at + ESCAPED.length ? line.close + 2 : undefined;
  };
}

type Selection = { lines: Array<{ text: string; line: number }> } | { problem: string; code: 'include/missing-anchor' | 'include/missing-lines'; hint?: string };

/** The lines `selector` (after the path's `:`) takes from `text`, anchor lines left out. */
export function select(text: string, selector: string | undefined): Selection {
  // As Rust's lines(): a last line ending is not an empty line.
  const all = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n').map((t, i) => ({ text: t, line: i + 1 }));
  const notAnchor = (l: { text: string }) => !ANCHOR_START.test(l.text) && !ANCHOR_END.test(l.text);
  const range = parseSelector(selector);
  if ('anchor' in range) {
    const start = all.findIndex((l) => ANCHOR_START.exec(l.text)?.[1] === range.anchor);
    if (start === -1) {
      const names = [...new Set(all.flatMap((l) => ANCHOR_START.exec(l.text)?.[1] ?? []))];
      const near = suggest(range.anchor, names);
      const hint = near ? `did you mean :${near}?` : names.length > 0 ? `anchors in that file: ${names.slice(0, 8).join(', ')}` : undefined;
      return { code: 'include/missing-anchor', problem: `no line \`ANCHOR: ${range.anchor}\` in the file`, hint };
    }
    const rest = all.slice(start + 1);
    const end = rest.findIndex((l) => ANCHOR_END.exec(l.text)?.[1] === range.anchor);
    return { lines: (end === -1 ? rest : rest.slice(0, end)).filter(notAnchor) };
  }
  const count = all.length;
  const { from, to } = range;
  if (from === 0 || to === 0) return { code: 'include/missing-lines', problem: 'lines count from 1' };
  if (from !== undefined && to !== undefined && to < from) return { code: 'include/missing-lines', problem: `the range ends (line ${to}) before it starts (line ${from})` };
  // A range that starts past the end selects nothing: surely a mistake. One that only ends past
  // it is cut at the end, as mdBook does (real books rely on it: `Cargo.toml:6:12` of 11 lines).
  if (from !== undefined && from > count) return { code: 'include/missing-lines', problem: `line ${from} is past the end of the file (it has ${count} lines)` };
  return { lines: all.slice((from ?? 1) - 1, Math.min(to ?? count, count)).filter(notAnchor) };
}

/** mdBook's reading of what follows the path: `N`, `N:M`, `:M`, `N:`, or an anchor name. */
function parseSelector(selector: string | undefined): { from?: number; to?: number } | { anchor: string } {
  if (selector === undefined || selector === '') return {};
  const [first = '', second] = selector.split(':', 3);
  const number = (s: string) => (/^\d+$/.test(s) ? Number(s) : undefined);
  const from = number(first);
  if (from === undefined && first !== '') return { anchor: first };
  // `N` alone is one line; `N:` or `N:x` (x not a number) runs to the end.
  if (second === undefined) return from === undefined ? {} : { from, to: from };
  const to = number(second);
  return to === undefined ? (from === undefined ? {} : { from }) : from === undefined ? { to } : { from, to };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

function lineIndex(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
