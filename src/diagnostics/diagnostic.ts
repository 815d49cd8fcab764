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

/** `path:line:col` (line and column when known). */
export function placeOf(d: Pick<Diagnostic, 'file' | 'line' | 'column'>): string {
  if (d.line === undefined) return d.file;
  return `${d.file}:${d.line}:${d.column ?? 1}`;
}

/** Order diagnostics by file, then line, then column, then code: stable output for people and tests. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      a.file.localeCompare(b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      a.code.localeCompare(b.code),
  );
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === 'error');
}

/**
 * Control characters (newlines, carriage returns, escapes) written as `\n`, `\r`, `\u001b`: a
 * file name or message is printed on one line, so it can neither start a line of its own (a
 * GitHub workflow command such as `::error::`) nor drive the terminal.
 */
export function escapeControl(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, (ch) => JSON.stringify(ch).slice(1, -1));
}

/** The plain-text form: `path:line:col error message [code]`, the excerpt and the hint, indented. */
export function formatDiagnostic(d: Diagnostic): string {
  const lines = [escapeControl(`${placeOf(d)} ${d.severity} ${d.message} [${d.code}]`)];
  if (d.excerpt) lines.push(...d.excerpt.split('\n').map((l) => `    ${escapeControl(l)}`));
  if (d.hint) lines.push(`  hint: ${escapeControl(d.hint)}`);
  return lines.join('\n');
}
