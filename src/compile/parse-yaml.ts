/**
 * Strict YAML for coursesync files (PURE): the core schema, unique keys, a small alias cap,
 * and every YAML error and warning as a diagnostic with its line and column.
 */
import { LineCounter, isMap, isPair, isScalar, isSeq, parseDocument, visit, type Alias, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag, type Place } from './codes.js';
import { excerptAt, explainUnresolvedAlias, explainYamlProblem, type Explained } from './explain-yaml.js';

/** More aliases than this in one file is an alias bomb, not a course. */
const MAX_ALIAS_COUNT = 50;

export interface ParsedYaml {
  /** The plain value; undefined when the YAML had errors. */
  value: unknown;
  /** Find the place of a value (or of the key naming it) by its path. */
  placeOf(path: ReadonlyArray<PropertyKey>, which?: 'value' | 'key'): Place | undefined;
  /** The place where the YAML starts. */
  start: Place;
}

/**
 * Parse `text` (which starts on `firstLine` of `file`) and push its problems onto `out`.
 * Returns the value only when there were none.
 */
export function parseYaml(text: string, file: string, out: Diagnostic[], firstLine = 1): ParsedYaml {
  const lineCounter = new LineCounter();
  // logLevel 'error': the library would otherwise print Node warnings (a collection used as a key) on stderr.
  // Unique keys checked here (duplicateKeys), not by the library: its check compares each key with every one before it.
  const doc = parseDocument(text, { schema: 'core', uniqueKeys: false, lineCounter, prettyErrors: true, version: '1.2', logLevel: 'error' });
  const shift = firstLine - 1;
  const at = (offset: number): Place => {
    const p = lineCounter.linePos(offset);
    return { line: p.line + shift, column: p.col };
  };
  const start: Place = { line: firstLine, column: 1 };
  const pairs = new WeakMap<YAMLMap, Map<string, Pair>>(); // each mapping's pairs by key, made on its first lookup
  const placeOf = (path: ReadonlyArray<PropertyKey>, which: 'value' | 'key' = 'value') => nodePlace(doc, path, which, at, pairs);

  const lines = text.split(/\r?\n/);
  const lineText = (fileLine: number) => lines[fileLine - firstLine];
  const report = (e: Explained, place: Place) => {
    const d = diag(e.code, file, place, e.message, e.hint);
    const excerpt = excerptAt(place.line, lineText(place.line), place.column);
    if (excerpt !== undefined) d.excerpt = excerpt;
    out.push(d);
  };

  const problems = [...doc.errors, ...doc.warnings];
  for (const problem of problems) {
    const place = problem.linePos ? { line: problem.linePos[0].line + shift, column: problem.linePos[0].col } : start;
    report(explainYamlProblem({ code: problem.code, message: firstSentence(problem.message), place }, lineText), place);
  }
  const duplicates = duplicateKeys(doc);
  for (const key of duplicates) {
    const place = rangePlace(key, at) ?? start;
    report(explainYamlProblem({ code: 'DUPLICATE_KEY', message: 'Map keys must be unique', place }, lineText), place);
  }
  if (problems.length > 0 || duplicates.length > 0) return { value: undefined, placeOf, start };

  const unresolved = unresolvedAliases(doc);
  for (const alias of unresolved) {
    const place = rangePlace(alias, at) ?? start;
    report(explainUnresolvedAlias(alias.source, lineText(place.line) ?? ''), place);
  }
  if (unresolved.length > 0) return { value: undefined, placeOf, start };
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), placeOf, start };
  } catch (e) {
    // With every alias resolved, what toJS still refuses is the expansion of too many aliases.
    const message = e instanceof Error ? e.message : String(e);
    out.push(/excessive alias count/i.test(message)
      ? diag('yaml/alias-limit', file, start, `too many aliases (more than ${MAX_ALIAS_COUNT}): this looks like an alias bomb`)
      : diag('yaml/syntax', file, start, message));
    return { value: undefined, placeOf, start };
  }
}

/**
 * The keys of a mapping equal to a key before them, as the library's own check finds them
 * (scalars by value: `1` and `"1"` differ), in one pass a mapping: a file of 40,000 keys took
 * 16 s with the library's check, which compares each key with every one before it.
 */
function duplicateKeys(doc: Document): Node[] {
  const found: Node[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const value = pair.key.value;
        if (seen.has(value) && !Number.isNaN(value)) found.push(pair.key);
        seen.add(value);
      }
    },
  });
  // In the file's order, as the library reports (a mapping is visited before those inside it).
  return found.sort((a, b) => (a.range?.[0] ?? 0) - (b.range?.[0] ?? 0));
}

/** Aliases whose anchor is not defined before them (`name: *important*` is one). */
function unresolvedAliases(doc: Document): Alias[] {
  const found: Alias[] = [];
  visit(doc, {
    Alias(_, node) {
      if (node.resolve(doc) === undefined) found.push(node);
    },
  });
  return found;
}

/** yaml's pretty errors append a code excerpt after the first line; keep the sentence. */
function firstSentence(message: string): string {
  const line = message.split('\n')[0] ?? message;
  return line.replace(/ at line \d+, column \d+:?$/, '').trim();
}

/**
 * The place of the node at `path`; falls back to the closest ancestor that exists. A mapping's
 * pairs are indexed once (`pairs`), so placing a problem at each of many keys stays linear.
 */
function nodePlace(doc: Document, path: ReadonlyArray<PropertyKey>, which: 'value' | 'key', at: (offset: number) => Place, pairs: WeakMap<YAMLMap, Map<string, Pair>>): Place | undefined {
  let node: unknown = doc.contents;
  let keyNode: Node | undefined;
  let last: Place | undefined = rangePlace(node, at);
  for (const segment of path) {
    keyNode = undefined;
    if (isMap(node)) {
      let byKey = pairs.get(node);
      if (!byKey) {
        byKey = new Map();
        for (const p of node.items) if (isPair(p) && isScalar(p.key) && !byKey.has(String(p.key.value))) byKey.set(String(p.key.value), p);
        pairs.set(node, byKey);
      }
      const pair = byKey.get(String(segment));
      if (!pair) return last;
      keyNode = pair.key as Node;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
    } else {
      return last;
    }
    const keyPlace = keyNode ? rangePlace(keyNode, at) : undefined;
    last = (which === 'key' ? keyPlace : undefined) ?? rangePlace(node, at) ?? keyPlace ?? last;
  }
  return last;
}

function rangePlace(node: unknown, at: (offset: number) => Place): Place | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? at(range[0]) : undefined;
}
