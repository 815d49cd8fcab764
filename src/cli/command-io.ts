/**
 * What every command takes from its process: its streams and environment, and the parsing of
 * the flags many commands share. Light on purpose (no schema, no client): a plan answered from
 * the memo loads this and little else.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import type { Out } from './terminal.js';

/** Where a command writes, and what environment it reads (process by default). */
export interface CommandIo {
  stdout: Out;
  stderr: Out;
  env: NodeJS.ProcessEnv;
  /** Whether a person can answer a question (stdin and stdout are terminals); false when unset. */
  interactive?: boolean;
}

/** The real process streams and environment. */
export function processIo(): CommandIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, interactive: process.stdin.isTTY === true && process.stdout.isTTY === true };
}

/** Parse a positive integer flag value. @throws CoursesyncError `cli/bad-number` */
export function positiveInt(flag: string, value: string | undefined, max = 10_000): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw failure('cli/bad-number', { flag, max, value });
  }
  return Number(value);
}

/**
 * The format asked for by `--json` or `--format` (text when neither); `--json` with another
 * `--format` is refused rather than one of them silently winning.
 * @throws CoursesyncError `cli/conflicting-options`
 */
export function jsonOrFormat(options: { json?: boolean | undefined; format?: string | undefined }): string {
  if (options.json && options.format !== undefined && options.format !== 'json') {
    throw failure('cli/conflicting-options', { options: `--json and --format ${options.format}`, hint: `give one: --json (the same as --format json), or --format ${options.format}` });
  }
  return options.json ? 'json' : (options.format ?? 'text');
}

/**
 * `--format`/`--json` → the output format of a plan.
 * @throws CoursesyncError `cli/bad-format`, `cli/conflicting-options`
 */
export function planFormat(options: { json?: boolean | undefined; format?: string | undefined }): 'text' | 'markdown' | 'json' {
  const format = jsonOrFormat(options);
  if (format !== 'text' && format !== 'markdown' && format !== 'json') {
    throw failure('cli/bad-format', { format });
  }
  return format;
}
