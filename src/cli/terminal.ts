/**
 * Terminal concerns in one place (shared by the commands): is this an interactive session,
 * colours that honour NO_COLOR, a y/N confirmation that refuses off a TTY without --yes,
 * readable tables, and stable JSON. Commands write results to stdout and chatter to stderr.
 */
import { createInterface } from 'node:readline/promises';
import pc from 'picocolors';
import { failure } from '../diagnostics/error-codes/index.js';

export type Colors = ReturnType<typeof pc.createColors>;

/** Somewhere to write text: process.stdout/stderr, or a test's collector. */
export interface Out {
  write(chunk: string): unknown;
  isTTY?: boolean | undefined;
}

/** True when both stdin and stdout are terminals: a person can answer a question. */
export function isInteractive(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/** Colours for `stream`: on only when it is a TTY and NO_COLOR is unset (https://no-color.org). */
export function colors(stream: Out = process.stdout, env: NodeJS.ProcessEnv = process.env): Colors {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  return pc.createColors(stream.isTTY === true && !noColor);
}

/**
 * Ask `question` (y/N, default no) before a change. With `yes` the answer is yes without asking.
 * Off a TTY there is nobody to ask, so without `yes` it refuses (GitHub CLI behaviour).
 * @throws CoursesyncError `cli/needs-yes` off a TTY without `yes`
 */
export async function confirm(question: string, options: { yes?: boolean | undefined }): Promise<boolean> {
  if (options.yes) return true;
  if (!isInteractive()) {
    throw failure('cli/needs-yes', { question });
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // readline turns Ctrl-C into its own 'SIGINT' event and, with no listener, only pauses: the
  // prompt would hang. Ctrl-C (or Ctrl-D) at the prompt answers no.
  const abort = new AbortController();
  rl.on('SIGINT', () => abort.abort());
  rl.on('close', () => abort.abort());
  try {
    const answer = await rl.question(`${question} [y/N] `, { signal: abort.signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch (e) {
    if (abort.signal.aborted) {
      process.stderr.write('\n');
      return false;
    }
    throw e;
  } finally {
    rl.close();
  }
}

/** One column of a table: its heading and how to show a row's value. */
export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
}

/**
 * Print rows to `out`. On a TTY: a heading line and padded columns; off a TTY: one
 * tab-separated line per row without heading, for `cut`, `awk` and scripts (as `gh` does).
 */
export function printTable<Row>(rows: readonly Row[], columns: ReadonlyArray<Column<Row>>, out: Out = process.stdout): void {
  const cells = rows.map((r) => columns.map((c) => oneLine(c.value(r))));
  if (out.isTTY !== true) {
    for (const line of cells) out.write(line.join('\t') + '\n');
    return;
  }
  const c = colors(out);
  const widths = columns.map((col, i) => Math.max(col.header.length, ...cells.map((line) => line[i]!.length)));
  const pad = (line: string[]) => line.map((s, i) => (i === line.length - 1 ? s : s.padEnd(widths[i]!))).join('  ');
  out.write(c.bold(pad(columns.map((col) => col.header.toUpperCase()))) + '\n');
  for (const line of cells) out.write(pad(line) + '\n');
}

/** Print one record as `field  value` lines (a two-column table). */
export function printRecord(record: Record<string, unknown>, out: Out = process.stdout): void {
  const rows = Object.entries(record).map(([k, v]) => ({ k, v: typeof v === 'string' ? v : JSON.stringify(v) ?? '' }));
  printTable(rows, [{ header: 'field', value: (r) => r.k }, { header: 'value', value: (r) => r.v }], out);
}

/** Print `value` as stable JSON: 2-space indentation, a final newline. */
export function printJson(value: unknown, out: Out = process.stdout): void {
  out.write(JSON.stringify(value, null, 2) + '\n');
}

/** Tabs and newlines would break both table forms. */
function oneLine(s: string): string {
  return s.replace(/[\t\r\n]+/g, ' ');
}
