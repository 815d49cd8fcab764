/**
 * Errors of the school client. All are CoursesyncErrors (stable code, hint, no stack trace in
 * the CLI), and none ever holds the token: messages are built from the endpoint, the status and
 * the server's `error` string, and that string is scrubbed of the token in case a server echoes
 * it (see redactToken).
 */
import { CoursesyncError } from '../diagnostics/errors.js';
import { errorParts, type ErrorCode, type FailureOptions } from '../diagnostics/error-codes/index.js';
import type { ConnectionProblem } from './connection-problems.js';

/** Replace every occurrence of `token` in `text` with `***`. */
export function redactToken(text: string, token: string | undefined): string {
  if (!token) return text;
  return text.split(token).join('***');
}

/** The school answered with an error status (4xx/5xx). */
export class SchoolApiError extends CoursesyncError {
  /** HTTP status. */
  readonly status: number;
  /** The server's `error` string (docs/school-api.md#errors), or null when the body had none. */
  readonly serverError: string | null;
  /** `METHOD /path`, relative to the base URL, e.g. `PATCH /lessons/les_1`. */
  readonly endpoint: string;

  constructor(args: { status: number; serverError: string | null; endpoint: string; hint?: string }) {
    super(...errorParts('school/api-error', args));
    this.name = 'SchoolApiError';
    this.status = args.status;
    this.serverError = args.serverError;
    this.endpoint = args.endpoint;
  }
}


/** Message and options of a SchoolConnectionError: its problem's entry, else `school/unreachable`. */
function connectionParts(args: { endpoint: string; reason: string; cause?: unknown; hint?: string; problem?: ConnectionProblem | null }): [string, { code: ErrorCode; hint?: string } & FailureOptions] {
  const options = { cause: args.cause };
  const p = args.problem;
  if (p?.code === 'school/not-tls') return errorParts(p.code, p.args, options);
  if (p?.code === 'school/untrusted-certificate') return errorParts(p.code, p.args, options);
  return errorParts('school/unreachable', args, options);
}

/**
 * The school could not be reached, or did not answer in time, after every allowed try; or a
 * failure no retry mends (`problem`: plain http behind https://, an untrusted certificate).
 */
export class SchoolConnectionError extends CoursesyncError {
  readonly endpoint: string;

  constructor(args: { endpoint: string; reason: string; cause?: unknown; hint?: string; problem?: ConnectionProblem | null }) {
    super(...connectionParts(args));
    this.name = 'SchoolConnectionError';
    this.endpoint = args.endpoint;
  }
}

/** The school answered 2xx with a body that does not match the school's API. */
export class SchoolResponseError extends CoursesyncError {
  readonly endpoint: string;
  /** JSON pointer of the first mismatching field (`` for the whole body). */
  readonly field: string;

  constructor(args: { endpoint: string; field: string; problem: string }) {
    super(...errorParts('school/bad-response', args));
    this.name = 'SchoolResponseError';
    this.endpoint = args.endpoint;
    this.field = args.field;
  }
}

/** A request body the client refused to send: it breaks the API's own validation rules. */
export class SchoolRequestError extends CoursesyncError {
  readonly endpoint: string;

  constructor(args: { endpoint: string; message: string }) {
    super(...errorParts('school/invalid-request', { endpoint: args.endpoint, problem: args.message }));
    this.name = 'SchoolRequestError';
    this.endpoint = args.endpoint;
  }
}

/** What a lesson create was about, so an uncertain create can be reported by name and section. */
export interface PendingLesson {
  name: string;
  section_id: string;
}

/**
 * A non-idempotent request (POST /lessons, POST /webhooks, a duplication without a key) may
 * have reached the school, but no usable answer came back. It was not re-sent, because a second
 * copy could be created. Callers record the outcome as uncertain (apply: the `uncertain` action).
 */
export class OutcomeUnknownError extends CoursesyncError {
  readonly endpoint: string;
  /** Why the outcome is unknown: `timeout after 30000 ms`, `HTTP 503`, `connection reset`. */
  readonly reason: string;
  /** For POST /lessons: the lesson that may or may not exist now. */
  readonly lesson: PendingLesson | undefined;

  constructor(args: { endpoint: string; reason: string; lesson?: PendingLesson; cause?: unknown }) {
    super(...errorParts('school/outcome-unknown', args, { cause: args.cause }));
    this.name = 'OutcomeUnknownError';
    this.endpoint = args.endpoint;
    this.reason = args.reason;
    this.lesson = args.lesson;
  }
}

/** A background operation ended in `failed`. */
export class OperationFailedError extends CoursesyncError {
  readonly operationId: string;

  constructor(args: { operationId: string; operation: string; error: string | null }) {
    super(...errorParts('school/operation-failed', args));
    this.name = 'OperationFailedError';
    this.operationId = args.operationId;
  }
}

/** A background operation was still pending when the wait ran out. */
export class OperationTimeoutError extends CoursesyncError {
  readonly operationId: string;

  constructor(args: { operationId: string; operation: string; timeoutMs: number }) {
    super(...errorParts('school/operation-timeout', args));
    this.name = 'OperationTimeoutError';
    this.operationId = args.operationId;
  }
}
