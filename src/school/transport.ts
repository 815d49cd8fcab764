/**
 * One HTTP exchange with the school, with the retry policy applied: node:http(s) over one
 * keep-alive agent, a timeout per try, the bearer header, redirects refused, the response parsed
 * with zod, typed errors. (Not fetch: in the fresh process a CLI run is, a fetch call cost
 * several times the CPU of the same request through node:http, most of apply's own cost per
 * call; test/bench/README.md.)
 *
 * Which failures are retried depends on whether the request is idempotent:
 * - idempotent (GET, PATCH, DELETE, duplications with an idempotency key, and POSTs the API
 *   defines as idempotent): retried on 429, 5xx, timeouts and network errors;
 * - non-idempotent (POST /lessons, POST /webhooks): retried only when the school certainly did
 *   not act: a 429 (the request was refused, nothing processed) or a connection that was never
 *   established. A 5xx, a timeout or a dropped connection after sending → OutcomeUnknownError.
 *   A 503 on create is *not* retried although the emulator promises a failed create is not
 *   saved: a real server or proxy answering 503 gives no such guarantee, and a duplicate lesson
 *   is worse than asking the user to check.
 *
 * Written as a small loop rather than with p-retry: p-retry derives every wait from its own
 * exponential formula (randomize multiplies by 1–2, not full jitter) and has no per-attempt
 * delay override, so honouring Retry-After would mean sleeping in onFailedAttempt *and* its
 * backoff; and the decision to re-send depends on the phase the failure happened in.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { setTimeout as sleepFor } from 'node:timers/promises';
import type { z } from 'zod';
import { ErrorBodySchema, jsonPathOf } from '../school-api/wire/errors.js';
import { backoffDelay, parseRetryAfter, usesTry, type RetryPolicy } from '../school-api/retry-policy.js';
import { missingApiPath, tlsProblem } from './connection-problems.js';
import { failure } from '../diagnostics/error-codes/index.js';
import {
  OutcomeUnknownError,
  SchoolApiError,
  SchoolConnectionError,
  SchoolResponseError,
  redactToken,
  type PendingLesson,
} from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Told before each wait, so a CLI can say it is waiting and why. Never contains the token. */
export interface RetryEvent {
  /** `METHOD /path`. */
  endpoint: string;
  /** The try that just failed (1 for the first). */
  attempt: number;
  /** How long the client waits before the next try. */
  delayMs: number;
  /** `HTTP 429`, `HTTP 503`, `timeout after 30000 ms`, `ECONNRESET`, … */
  reason: string;
}

/** A successful answer, for callers that need the school's clock (badges award: new or not). */
export interface ResponseEvent {
  endpoint: string;
  status: number;
  /** The HTTP `Date` header: when the school answered, to the second. */
  date: string | null;
}

export interface TransportOptions {
  /** Checked base URL, no trailing slash, e.g. `https://school.example.com/api/v1`. */
  baseUrl: string;
  token: string;
  timeoutMs: number;
  retry: RetryPolicy;
  onRetry?: ((event: RetryEvent) => void) | undefined;
  /** Told of each 2xx answer with its `Date` header (the school's clock; null when absent). */
  onResponse?: ((event: ResponseEvent) => void) | undefined;
  /** Source of jitter; Math.random by default. */
  random?: (() => number) | undefined;
  /** How to wait; node:timers/promises setTimeout by default. */
  sleep?: ((ms: number) => Promise<void>) | undefined;
}

export interface RequestSpec<T> {
  method: HttpMethod;
  /** Path below the base URL, starting with `/`; ids already encoded. */
  path: string;
  query?: Record<string, string | number | undefined> | undefined;
  body?: unknown;
  /** Schema of a 2xx body. */
  schema: z.ZodType<T>;
  /** May the request be re-sent after it may have reached the school? */
  idempotent: boolean;
  /** For POST /lessons: named in an OutcomeUnknownError. */
  lesson?: PendingLesson | undefined;
}

/** Sends requests; one per client. */
export interface Transport {
  send<T>(spec: RequestSpec<T>): Promise<T>;
}

type Attempt =
  | { kind: 'response'; status: number; retryAfter: string | null; date: string | null; text: string }
  | { kind: 'failure'; sent: boolean; reason: string; cause: unknown; redirect: boolean };

/** Error codes of a connection that never carried the request: re-sending is always safe. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Answers that point elsewhere: never followed. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** No answer of the API comes near this; a larger one is cut off rather than held in memory. */
const MAX_ANSWER_BYTES = 64 * 2 ** 20;

/**
 * Idle connections are closed after this long, before a server's own idle timeout (commonly
 * 5 s) can close one just as a request is written to it.
 */
const IDLE_SOCKET_MS = 4000;

/** Build the transport of a client. */
export function createTransport(options: TransportOptions): Transport {
  const { baseUrl, token, timeoutMs, retry } = options;
  const secure = baseUrl.startsWith('https:');
  const apiPathFix = missingApiPath(baseUrl);
  // One keep-alive agent per client: the connections are reused across calls, and idle ones do not keep the process alive.
  const agent = secure ? new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }) : new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS });
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => sleepFor(ms));

  async function attemptOnce(url: string, method: HttpMethod, body: string | undefined): Promise<Attempt> {
    const headers: Record<string, string | number> = {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'user-agent': 'coursesync',
    };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    return new Promise<Attempt>((resolve) => {
      let connected = false;
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const end = (attempt: Attempt) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(attempt);
      };
      const fail = (reason: string, cause: unknown, sent: boolean, redirect = false) => end({ kind: 'failure', sent, reason, cause, redirect });
      let req: ClientRequest;
      try {
        req = (secure ? httpsRequest : httpRequest)(url, { method, headers, agent }, answered);
      } catch (e) {
        return fail(reasonOf(e), e, false);
      }
      function answered(res: IncomingMessage): void {
        const status = res.statusCode ?? 0;
        // Never followed: the token must not go to another address.
        if (REDIRECT_STATUSES.has(status)) {
          res.destroy();
          return fail(`redirected (HTTP ${status})`, undefined, true, true);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            res.destroy();
            return fail(`an answer of more than ${MAX_ANSWER_BYTES / 2 ** 20} MiB`, undefined, true);
          }
          chunks.push(chunk);
        });
        res.on('error', (e) => fail(`the answer was cut off: ${reasonOf(e)}`, e, true));
        res.on('close', () => {
          if (!res.complete) fail('the answer was cut off', undefined, true);
        });
        res.on('end', () => {
          const header = (name: string) => {
            const v = res.headers[name];
            return typeof v === 'string' ? v : null;
          };
          end({ kind: 'response', status, retryAfter: header('retry-after'), date: header('date'), text: Buffer.concat(chunks).toString('utf8') });
        });
      }
      // A request whose connection never opened was certainly not sent; once it is open, it may have been.
      req.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once(secure ? 'secureConnect' : 'connect', () => (connected = true));
      });
      req.on('error', (e) => fail(reasonOf(e), e, connected && !NOT_SENT_CODES.has((e as NodeJS.ErrnoException).code ?? '')));
      timer = setTimeout(() => {
        fail(`no answer within ${timeoutMs} ms`, undefined, true);
        req.destroy();
      }, timeoutMs);
      req.end(body);
    });
  }

  async function send<T>(spec: RequestSpec<T>): Promise<T> {
    const endpoint = `${spec.method} ${spec.path}`;
    const url = baseUrl + spec.path + queryString(spec.query);
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    // Tries used up (a 429 honoured with its Retry-After uses none), and the waits spent on those 429s.
    let tries = 0;
    let rateLimitedMs = 0;
    for (let attempt = 1; ; attempt++) {
      const outcome = await attemptOnce(url, spec.method, body);
      let finalError: Error;
      let reason: string;
      let retryAfterMs: number | null = null;
      if (outcome.kind === 'response') {
        if (outcome.status >= 200 && outcome.status < 300) {
          const parsed = parseBody(endpoint, outcome.text, spec.schema);
          options.onResponse?.({ endpoint, status: outcome.status, date: outcome.date });
          return parsed;
        }
        const apiError = new SchoolApiError({
          status: outcome.status,
          serverError: serverErrorOf(outcome.text, token),
          endpoint,
        });
        reason = `HTTP ${outcome.status}`;
        // Everything under a base URL without /api/v1 is a 404: say that, not "no such record".
        if (outcome.status === 404 && apiPathFix !== null) throw failure('school/no-api-path', { endpoint, baseUrl, suggested: apiPathFix }, { cause: apiError });
        if (outcome.status !== 429 && outcome.status < 500) throw apiError;
        if (outcome.status !== 429 && !spec.idempotent) {
          throw new OutcomeUnknownError({ endpoint, reason: `the school answered ${outcome.status} (${apiError.serverError ?? 'no message'})`, lesson: spec.lesson, cause: apiError });
        }
        if (outcome.status === 429 || outcome.status === 503) retryAfterMs = parseRetryAfter(outcome.retryAfter, Date.now());
        finalError = apiError;
      } else {
        reason = outcome.reason;
        if (outcome.redirect) {
          throw new SchoolConnectionError({
            endpoint,
            reason: 'the school answered with a redirect, which is never followed (the token must not go elsewhere)',
            hint: 'check the base URL: give the final address of the API, including https:// and /api/v1',
          });
        }
        // Plain http behind https://, an untrusted certificate: no request went out, and no retry mends it.
        const problem = secure ? tlsProblem(outcome.cause, url, endpoint) : null;
        if (problem) throw new SchoolConnectionError({ endpoint, reason: outcome.reason, cause: outcome.cause, problem });
        if (outcome.sent && !spec.idempotent) {
          throw new OutcomeUnknownError({ endpoint, reason: outcome.reason, lesson: spec.lesson, cause: outcome.cause });
        }
        finalError = new SchoolConnectionError({ endpoint, reason: outcome.reason, cause: outcome.cause });
      }
      if (retryAfterMs !== null && retryAfterMs > retry.maxRetryAfterMs) throw finalError;
      if (usesTry(outcome.kind === 'response' ? outcome.status : undefined, retryAfterMs)) {
        tries++;
        if (tries >= retry.maxAttempts) throw finalError;
      } else {
        rateLimitedMs += retryAfterMs ?? 0;
        if (rateLimitedMs > retry.maxRateLimitWaitMs) throw finalError;
      }
      const delayMs = retryAfterMs ?? backoffDelay(tries - 1, retry, random);
      options.onRetry?.({ endpoint, attempt, delayMs, reason });
      await sleep(delayMs);
    }
  }

  return { send };
}

/** `?a=1&b=x` from the defined entries, or `` when there are none. */
function queryString(query: Record<string, string | number | undefined> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

/** The server's `error` string of an error body, scrubbed of the token; null when absent. */
function serverErrorOf(text: string, token: string): string | null {
  try {
    const parsed = ErrorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? redactToken(parsed.data.error, token) : null;
  } catch {
    return null;
  }
}

/** Parse a 2xx body; a mismatch names the endpoint and the first wrong field. */
function parseBody<T>(endpoint: string, text: string, schema: z.ZodType<T>): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SchoolResponseError({ endpoint, field: '', problem: 'is not JSON' });
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new SchoolResponseError({ endpoint, field: jsonPathOf(issue?.path ?? []), problem: issue?.message ?? 'does not match' });
}

/** `CODE (message)` of a network error, or its message. */
function reasonOf(e: unknown): string {
  const err = e as { code?: string; message?: string };
  const message = err.message ?? 'network error';
  return err.code ? `${err.code} (${message})` : message;
}
