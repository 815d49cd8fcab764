/**
 * TOML front-matter (PURE), as Hugo and Zola pages open with it between `+++` lines: parsed by
 * smol-toml, a syntax error at its line and column, and a top-level key found by its line, so
 * the schema's errors point where they would in YAML front-matter (parse-yaml.ts).
 */
import { parse, TomlError } from 'smol-toml';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag, type Place } from './codes.js';
import { excerptAt } from './explain-yaml.js';
import type { ParsedYaml } from './parse-yaml.js';

/** A `key = value` line (or `key.sub = value`), the key bare or quoted: what a schema error about that key points at. */
const KEY_LINE = /^([ \t]*)(?:"([^"\\]*)"|'([^']*)'|([A-Za-z0-9_-]+))[ \t]*(?:\.|=[ \t]*)/;

/** A table header, `[video]` or `[[list]]` (or `[video.more]`), by the first part of its name. */
const TABLE_LINE = /^([ \t]*)\[\[?[ \t]*(?:"([^"\\]*)"|'([^']*)'|([A-Za-z0-9_-]+))/;

/** Parse `text` (which starts on `firstLine` of `file`) and push its problem onto `out`; the value only when there was none. */
export function parseToml(text: string, file: string, out: Diagnostic[], firstLine = 1): ParsedYaml {
  const start: Place = { line: firstLine, column: 1 };
  const lines = text.split('\n');
  const placeOf = (path: ReadonlyArray<PropertyKey>, which: 'value' | 'key' = 'value'): Place | undefined => {
    const key = path[0];
    if (typeof key !== 'string') return path.length === 0 ? start : undefined;
    // After the first table header, `key = …` lines are that table's: only headers name top-level keys.
    let inTable = false;
    for (let i = 0; i < lines.length; i++) {
      const header = TABLE_LINE.exec(lines[i]!);
      if (header) {
        if ((header[2] ?? header[3] ?? header[4]) === key) return { line: firstLine + i, column: header[1]!.length + 1 };
        inTable = true;
        continue;
      }
      const m = inTable ? null : KEY_LINE.exec(lines[i]!);
      if (!m || (m[2] ?? m[3] ?? m[4]) !== key) continue;
      return { line: firstLine + i, column: (which === 'key' ? m[1]!.length : m[0].length) + 1 };
    }
    return undefined;
  };
  try {
    return { value: parse(text), placeOf, start };
  } catch (e) {
    if (!(e instanceof TomlError)) throw e;
    const place = { line: firstLine + e.line - 1, column: e.column };
    const message = (e.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    const d = diag('toml/syntax', file, place, `the TOML front-matter is invalid: ${message}`);
    const excerpt = excerptAt(place.line, lines[e.line - 1], place.column);
    if (excerpt !== undefined) d.excerpt = excerpt;
    out.push(d);
    return { value: undefined, placeOf, start };
  }
}
