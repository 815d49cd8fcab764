/**
 * Errors the user can act on. The CLI's single catch prints `message` and `hint` (never a stack
 * trace) and exits with `exitCode`. Anything that is not a CoursesyncError is a bug in the tool.
 */
import type { Diagnostic } from './diagnostic.js';

export interface CoursesyncErrorOptions {
  /** Stable code, e.g. `state/locked`. */
  code: string;
  /** What to do next. */
  hint?: string;
  /** Problems with files, when the error is about the repo. */
  diagnostics?: Diagnostic[];
  /** Process exit code; defaults to 1. */
  exitCode?: number;
  cause?: unknown;
}

export class CoursesyncError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly diagnostics: Diagnostic[];
  readonly exitCode: number;

  constructor(message: string, options: CoursesyncErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CoursesyncError';
    this.code = options.code;
    this.hint = options.hint;
    this.diagnostics = options.diagnostics ?? [];
    this.exitCode = options.exitCode ?? 1;
  }
}

export function isCoursesyncError(e: unknown): e is CoursesyncError {
  return e instanceof CoursesyncError;
}
