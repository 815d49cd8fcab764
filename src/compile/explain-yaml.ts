/**
 * YAML mistakes in the author's terms (PURE). The yaml library reports what its parser saw
 * ("Nested mappings are not allowed in compact mappings"); an author needs to know what they
 * wrote and how to write it instead (`name: "Quiz: part 1"`). Every explanation carries an
 * excerpt of the line with a caret under the place.
 */
import type { Code, Place } from './codes.js';

export interface YamlProblem {
  /** The yaml library's error code, e.g. BLOCK_AS_IMPLICIT_KEY. */
  code: string;
  /** The library's message (first sentence). */
  message: string;
  /** Where, in file coordinates. */
  place: Place;
}

export interface Explained {
  code: Code;
  message: string;
  hint?: string;
}

/**
 * Explain one problem. `lineText(n)` gives line `n` of the file (1-based), so the explanation
 * can quote what the author wrote.
 */
export function explainYamlProblem(problem: YamlProblem, lineText: (line: number) => string | undefined): Explained {
  const line = lineText(problem.place.line) ?? '';
  if (problem.code === 'DUPLICATE_KEY') return { code: 'yaml/duplicate-key', message: problem.message };
  if (problem.code === 'TAG_RESOLVE_FAILED') return { code: 'yaml/unknown-tag', message: problem.message };

  const pair = splitPair(line);
  if ((problem.code === 'BLOCK_AS_IMPLICIT_KEY' || problem.code === 'MULTILINE_IMPLICIT_KEY') && pair && /:\s/.test(pair.value)) {
    return {
      code: 'yaml/syntax',
      message: `the value of "${pair.key}" contains ": " (a colon and a space), which YAML reads as the start of another key`,
      hint: `quote the value: ${quoted(pair)}`,
    };
  }
  const glued = /^\s*([A-Za-z_][\w-]*):(\S.*)$/.exec(line);
  if (problem.code === 'MULTILINE_IMPLICIT_KEY' && glued) {
    return {
      code: 'yaml/syntax',
      message: `"${glued[1]}:${glued[2]}" has no space after the colon, so YAML reads it as text, not as a key`,
      hint: `write a space after the colon: ${glued[1]}: ${glued[2]}`,
    };
  }
  if (problem.code === 'BAD_SCALAR_START' && pair) {
    return {
      code: 'yaml/syntax',
      message: `the value of "${pair.key}" starts with "${pair.value[0] ?? ''}", which YAML reserves`,
      hint: `quote the value: ${quoted(pair)}`,
    };
  }
  if (problem.code === 'TAB_AS_INDENT') {
    return { code: 'yaml/syntax', message: 'a tab indents this line; YAML allows only spaces for indentation', hint: 'indent with spaces (two per level)' };
  }
  if (problem.code === 'MISSING_CHAR' && /quote/i.test(problem.message)) {
    return { code: 'yaml/syntax', message: 'a quoted value is never closed', hint: 'close the quote on the same line; to write a quote inside a value, quote it with the other kind (\'…"…\' or "…\'…")' };
  }
  return { code: 'yaml/syntax', message: problem.message };
}

/** An unresolved alias: `name: *important*` is read as a reference to an anchor "important*". */
export function explainUnresolvedAlias(source: string, line: string): Explained {
  const pair = splitPair(line);
  return {
    code: 'yaml/unresolved-alias',
    message: `"*${source}" is read as a YAML alias (a reference to an anchor "&${source}"), and there is no such anchor`,
    hint: pair ? `quote the value: ${quoted(pair)}` : `quote the value: "*${source}"`,
  };
}

/** A caret excerpt of `line` (numbered `n`) pointing at `column`. */
export function excerptAt(n: number, line: string | undefined, column: number): string | undefined {
  if (line === undefined) return undefined;
  const gutter = String(n);
  const shown = line.replace(/\t/g, ' ');
  return `${gutter} | ${shown}\n${' '.repeat(gutter.length)} | ${' '.repeat(Math.max(0, column - 1))}^`;
}

interface Pair {
  indent: string;
  key: string;
  value: string;
}

/** `  key: value` → its parts; undefined for a line that is not a simple pair. */
function splitPair(line: string): Pair | undefined {
  const m = /^(\s*(?:-\s+)?)([^\s:#"'][^:#]*?):\s+(.+?)\s*$/.exec(line);
  if (!m) return undefined;
  return { indent: m[1] ?? '', key: m[2] ?? '', value: m[3] ?? '' };
}

function quoted(pair: Pair): string {
  return `${pair.key}: ${JSON.stringify(pair.value)}`;
}
