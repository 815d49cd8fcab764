/**
 * Errors of the school client. All are CoursesyncErrors (stable code, hint, no stack trace in
 * the CLI), and none ever holds the token: messages are built from the endpoint, the status and
 * the server's `error` string, and that string is scrubbed of the token in case a server echoes
 * it (see redactToken).
 */
import { CoursesyncError } from '../diagnostics/errors.js';

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
    const what = args.serverError ?? 'no error message';
    super(`${args.endpoint} answered ${args.status}: ${what}`, {
      code: 'school/api-error',
      hint: args.hint ?? hintForStatus(args.status),
    });
    this.name = 'SchoolApiError';
    this.status = args.status;
    this.serverError = args.serverError;
    this.endpoint = args.endpoint;
  }
}

function hintForStatus(status: number): string | undefined {
  if (status === 401) return 'Check that COURSESYNC_TOKEN (or --token-file) holds a valid API key for this school.';
  if (status === 403) return 'The API key lacks edit access to a program involved (moves and duplications need both programs).';
  if (status === 404) return 'Check the id: the school has no such record, or the base URL points to another school.';
  if (status === 429) return 'The school is rate limiting; wait a moment and run the command again, or lower --concurrency.';
  if (status >= 500) return 'The school failed; run the command again later. Calls that may have been saved are reported separately.';
  return undefined;
}

/** The school could not be reached, or did not answer in time, after every allowed try. */
export class SchoolConnectionError extends CoursesyncError {
  readonly endpoint: string;

  constructor(args: { endpoint: string; reason: string; cause?: unknown; hint?: string }) {
    super(`${args.endpoint} failed: ${args.reason}`, {
      code: 'school/unreachable',
      hint: args.hint ?? 'Check the base URL and the network, then run the command again.',
      cause: args.cause,
    });
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
    super(`${args.endpoint} answered with an unexpected body: ${args.field || '(body)'} ${args.problem}`, {
      code: 'school/bad-response',
      hint: 'The base URL may point to something that is not the school API v1 (it must end in /api/v1).',
    });
    this.name = 'SchoolResponseError';
    this.endpoint = args.endpoint;
    this.field = args.field;
  }
}

/** A request body the client refused to send: it breaks the API's own validation rules. */
export class SchoolRequestError extends CoursesyncError {
  readonly endpoint: string;

  constructor(args: { endpoint: string; message: string }) {
    super(`${args.endpoint} not sent: ${args.message}`, { code: 'school/invalid-request' });
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
    const subject = args.lesson
      ? `lesson "${args.lesson.name}" in section ${args.lesson.section_id} may or may not have been created`
      : 'the change may or may not have been saved';
    super(`${args.endpoint}: ${args.reason}; ${subject}. It was not re-sent, to avoid a duplicate.`, {
      code: 'school/outcome-unknown',
      hint: args.lesson
        ? 'Check the section in the school. Then `coursesync import` the lesson by id, or re-run apply with --recreate.'
        : 'Check the school before running the command again.',
      cause: args.cause,
    });
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
    super(`Operation ${args.operationId} (${args.operation}) failed: ${args.error ?? 'no reason given'}`, {
      code: 'school/operation-failed',
      hint: 'Fix the cause and start the duplication again with a new idempotency key.',
    });
    this.name = 'OperationFailedError';
    this.operationId = args.operationId;
  }
}

/** A background operation was still pending when the wait ran out. */
export class OperationTimeoutError extends CoursesyncError {
  readonly operationId: string;

  constructor(args: { operationId: string; operation: string; timeoutMs: number }) {
    super(`Operation ${args.operationId} (${args.operation}) was still pending after ${args.timeoutMs} ms.`, {
      code: 'school/operation-timeout',
      hint: 'Run the same command again with the same idempotency key: it picks up the same operation instead of starting a new copy.',
    });
    this.name = 'OperationTimeoutError';
    this.operationId = args.operationId;
  }
}
