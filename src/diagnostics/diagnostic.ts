/**
 * A message about a file: where (path:line:column), what (a stable code and a message) and what
 * to do about it (a hint). Every user-facing problem with the repo is one of these.
 */
export type Severity = 'error' | 'warning';

export interface Diagnostic {
  /** Repo-relative path with `/` separators (or an absolute path outside a repo). */
  file: string;
  /** 1-based line, when the problem has a place in the file. */
  line?: number;
  /** 1-based column, when the problem has a place in the file. */
  column?: number;
  /** Stable identifier, e.g. `lesson/unknown-key`. Tests and docs refer to it. */
  code: string;
  severity: Severity;
  /** What happened, in one sentence; no "Error:" prefix. */
  message: string;
  /** What to do next. */
  hint?: string;
  /** The offending source line with a caret under the place (`12 | name: a: b`), when it helps. */
  excerpt?: string;
}

/** What tells one problem from another: the same problem found twice (a partial two lessons include) is reported once. */
export function problemKey(d: Pick<Diagnostic, 'file' | 'line' | 'column' | 'code' | 'message'>): string {
  return JSON.stringify([d.file, d.line, d.column, d.code, d.message]);
}

/** `path:line:col` (line and column when known). */
export function placeOf(d: Pick<Diagnostic, 'file' | 'line' | 'column'>): string {
  if (d.line === undefined) return d.file;
  return `${d.file}:${d.line}:${d.column ?? 1}`;
}

/**
 * Order diagnostics by file, then line, then column, then code: stable output for people and
 * tests. coursesync.yaml comes first: every other file is read with its settings (and with the
 * defaults while it has errors), so its problems explain the others and are fixed first.
 */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      Number(a.file !== CONFIG_FILE) - Number(b.file !== CONFIG_FILE) ||
      a.file.localeCompare(b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      a.code.localeCompare(b.code),
  );
}

/** The repo's settings file, as diagnostics name it. */
const CONFIG_FILE = 'coursesync.yaml';

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error');
}

/**
 * Characters never printed as they are: C0 and C1 controls (a newline could start a line of
 * its own, e.g. a GitHub workflow command such as `::error::`; an escape drives the terminal)
 * and the bidirectional controls that reorder how a line reads (U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069: "Trojan Source"). The one list every output escapes with escapeControl.
 */
export const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Does `s` hold a character escapeControl would escape? */
export const hasUnsafeChar = (s: string): boolean => UNSAFE_CHAR.test(s);
const UNSAFE_CHAR = new RegExp(UNSAFE_CHARS.source);

/**
 * Every unsafe character written as an escape: `\n`, `\r`, `\t`, else `\u001b`, `\u202e`
 * (as JSON writes them), so a file name, lesson name or message prints on one line, in order.
 */
export function escapeControl(s: string): string {
  return s.replace(UNSAFE_CHARS, (ch) => (ch === '\n' ? '\\n' : ch === '\r' ? '\\r' : ch === '\t' ? '\\t' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** A value as JSON text, safe to print: quoted, with every unsafe character escaped. */
export function quoted(v: unknown): string {
  return escapeControl(JSON.stringify(v) ?? String(v));
}

/**
 * JSON text with the unsafe characters JSON.stringify leaves raw (C1 and bidirectional
 * controls; it escapes C0 itself) written as `\uXXXX`: the same value, safe on a terminal.
 */
export function printableJson(json: string): string {
  return json.replace(/[\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, escapeControl);
}

/** The plain-text form: `path:line:col error message [code]`, the excerpt and the hint, indented. */
export function formatDiagnostic(d: Diagnostic): string {
  const lines = [escapeControl(`${placeOf(d)} ${d.severity} ${d.message} [${d.code}]`)];
  if (d.excerpt) lines.push(...d.excerpt.split('\n').map((l) => `    ${escapeControl(l)}`));
  if (d.hint) lines.push(`  hint: ${escapeControl(d.hint)}`);
  return lines.join('\n');
}
