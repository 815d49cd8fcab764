/**
 * Terminal concerns in one place (shared by the commands): is this an interactive session,
 * colours that honour NO_COLOR, FORCE_COLOR and --no-color, a y/N confirmation that refuses off a TTY without --yes,
 * readable tables, and stable JSON. Commands write results to stdout and chatter to stderr.
 */
import { escapeControl, printableJson } from '../diagnostics/diagnostic.js';
import { createInterface } from 'node:readline/promises';
import pc from 'picocolors';
import { formatDiagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { failure } from '../diagnostics/error-codes/index.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { COLOR_FLAGS } from './color-flags.js';

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

export { COLOR_FLAGS };

/** The last colour switch on the command line (before a `--`), if any. */
export function colorFlag(argv: readonly string[]): (typeof COLOR_FLAGS)[number] | undefined {
  const end = argv.indexOf('--');
  const args = end === -1 ? argv : argv.slice(0, end);
  return args.filter((a): a is (typeof COLOR_FLAGS)[number] => (COLOR_FLAGS as readonly string[]).includes(a)).at(-1);
}

/**
 * Colours for `stream`: NO_COLOR (https://no-color.org) or --no-color turn them off; else
 * --color, FORCE_COLOR or CLICOLOR_FORCE turn them on (FORCE_COLOR=0 off, as in Node); else a
 * TTY (not TERM=dumb). Decided here per stream and environment rather than read from
 * `pc.isColorSupported`, which is fixed at import for stdout only and also turns on for any
 * CI=…, which would write escape codes into files a CI job redirects output to.
 */
export function colors(stream: Out = process.stdout, env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = process.argv): Colors {
  return pc.createColors(colorOn(stream, env, argv));
}

function colorOn(stream: Out, env: NodeJS.ProcessEnv, argv: readonly string[]): boolean {
  const set = (v: string | undefined) => v !== undefined && v !== '';
  const off = (v: string | undefined) => v === '0' || v === 'false';
  const flag = colorFlag(argv);
  if (set(env.NO_COLOR) || flag === '--no-color') return false;
  if (flag === '--color') return true;
  // FORCE_COLOR=0 (or false) turns colour off, as in Node and most tools; any other value forces it.
  if (off(env.FORCE_COLOR)) return false;
  if (set(env.FORCE_COLOR) || (set(env.CLICOLOR_FORCE) && !off(env.CLICOLOR_FORCE))) return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/**
 * A diagnostic as `formatDiagnostic` writes it, with colour when `c` has it: the place in bold,
 * the severity in its colour (error red, warning yellow), the hint dimmed.
 */
export function paintDiagnostic(d: Diagnostic, c: Colors): string {
  const text = formatDiagnostic(d);
  if (!c.isColorSupported) return text;
  const paint = d.severity === 'error' ? c.red : c.yellow;
  const [first = '', ...rest] = text.split('\n');
  const word = first.startsWith(`${d.severity} `) ? 0 : first.indexOf(` ${d.severity} `) + 1;
  const head = word > 0 ? `${c.bold(first.slice(0, word - 1))} ` : '';
  const line = `${head}${c.bold(paint(d.severity))}${first.slice(word + d.severity.length)}`;
  return [line, ...rest.map((l) => (l.startsWith('  hint: ') ? c.dim(l) : l))].join('\n');
}

/**
 * Ask `question` (y/N, default no) before a change. With `yes` the answer is yes without asking.
 * Off a TTY there is nobody to ask, so without `yes` it refuses (GitHub CLI behaviour).
 * Ctrl-D answers no (the caller exits with ExitCode.Cancelled); Ctrl-C or SIGTERM stops the command.
 * @throws CoursesyncError `cli/needs-yes` off a TTY without `yes`; `cli/interrupted` on Ctrl-C (exit 130) or SIGTERM (143)
 */
export async function confirm(question: string, options: { yes?: boolean | undefined }): Promise<boolean> {
  if (options.yes) return true;
  if (!isInteractive()) {
    throw failure('cli/needs-yes', { question });
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  // readline turns Ctrl-C into its own 'SIGINT' event and, with no listener, only pauses: the
  // prompt would hang. A kill -INT or -TERM while the prompt waits stops it the same way.
  const abort = new AbortController();
  let interrupted: NodeJS.Signals | undefined;
  const onInterrupt = (signal: NodeJS.Signals = 'SIGINT') => {
    interrupted = signal;
    abort.abort();
  };
  rl.on('SIGINT', () => onInterrupt('SIGINT'));
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  rl.on('close', () => abort.abort());
  try {
    const answer = await rl.question(`${question} [y/N] `, { signal: abort.signal });
    return /^y(es)?$/i.test(answer.trim());
  } catch (e) {
    if (!abort.signal.aborted) throw e;
    process.stderr.write('\n');
    if (interrupted) throw failure('cli/interrupted', { question }, interrupted === 'SIGTERM' ? { exitCode: ExitCode.Terminated } : {});
    return false;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
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
  out.write(printableJson(JSON.stringify(value, null, 2)) + '\n');
}

/**
 * Version of every JSON document a command prints with --json, except plans (`plan`, `webhooks
 * plan`), which carry their own format version. Raised when a field changes meaning or goes away
 * (docs/cli.md#json-output).
 */
export const JSON_FORMAT_VERSION = 1;

/** Print a --json document: `format_version` first, then `body`'s fields. */
export function printDocument(body: Record<string, unknown>, out: Out = process.stdout): void {
  printJson({ format_version: JSON_FORMAT_VERSION, ...body }, out);
}

/** Tabs and newlines would break both table forms; other controls are escaped as everywhere. */
function oneLine(s: string): string {
  return escapeControl(s.replace(/[\t\r\n]+/g, ' '));
}
