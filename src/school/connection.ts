/**
 * Connection settings of commands that talk to the school (docs/cli.md): where the school is and
 * which token to use, and the translation of auth/lookup failures into messages that say what
 * to check. The token comes only from COURSESYNC_TOKEN or --token-file, never from a flag that
 * holds it (it would end up in shell history and process lists).
 */
import { readFileSync } from 'node:fs';
import type { CourseConfig } from '../model/config.js';
import { checkBaseUrl } from './base-url.js';
import { SchoolApiError } from './errors.js';
import { failure } from '../diagnostics/error-codes/index.js';

export interface ConnectionFlags {
  baseUrl?: string | undefined;
  tokenFile?: string | undefined;
}

export interface Connection {
  baseUrl: string;
  token: string;
  /** coursesync.yaml `school.timeout_ms`, when set: the timeout of one request. */
  timeoutMs?: number;
}

/**
 * The base URL, with precedence --base-url > COURSESYNC_BASE_URL > coursesync.yaml
 * `school.base_url`, checked (https, or http to loopback only).
 * @throws CoursesyncError `connection/no-base-url`, `connection/insecure-url`, `connection/invalid-url`
 */
export function resolveBaseUrl(args: { flags: ConnectionFlags; config?: CourseConfig | undefined; env?: NodeJS.ProcessEnv }): string {
  const env = args.env ?? process.env;
  const candidates: Array<[string | undefined, string]> = [
    [args.flags.baseUrl, '--base-url'],
    [env.COURSESYNC_BASE_URL, 'COURSESYNC_BASE_URL'],
    [args.config?.school?.base_url, 'coursesync.yaml school.base_url'],
  ];
  for (const [value, source] of candidates) {
    if (value !== undefined && value.trim() !== '') return checkBaseUrl(value, source);
  }
  throw failure('connection/no-base-url', {});
}

/**
 * The token, from --token-file (its content, trimmed) or else COURSESYNC_TOKEN.
 * @throws CoursesyncError `connection/no-token`, `connection/token-file`
 */
export function resolveToken(args: { flags: ConnectionFlags; env?: NodeJS.ProcessEnv }): string {
  const env = args.env ?? process.env;
  if (args.flags.tokenFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(args.flags.tokenFile, 'utf8');
    } catch (e) {
      throw failure('connection/token-file', { file: args.flags.tokenFile, reason: (e as NodeJS.ErrnoException).code ?? 'unreadable' });
    }
    const token = text.trim();
    if (token === '' || /[\r\n]/.test(token)) {
      throw failure('connection/no-token', { problem: token === '' ? 'empty-file' : 'multi-line-file', file: args.flags.tokenFile });
    }
    return token;
  }
  const token = env.COURSESYNC_TOKEN?.trim();
  if (!token) {
    // Set but empty is its own case: in CI it is a secret that is missing.
    throw failure('connection/no-token', { problem: env.COURSESYNC_TOKEN === undefined ? 'unset' : 'empty' });
  }
  return token;
}

/**
 * Base URL and token for a command that talks to the school. The base URL is resolved first,
 * so a refused address is reported even without a token.
 */
export function resolveConnection(args: { flags: ConnectionFlags; config?: CourseConfig | undefined; env?: NodeJS.ProcessEnv }): Connection {
  const baseUrl = resolveBaseUrl(args);
  const token = resolveToken(args);
  const timeoutMs = args.config?.school?.timeout_ms;
  return timeoutMs === undefined ? { baseUrl, token } : { baseUrl, token, timeoutMs };
}

/**
 * Turn a 401, 403 or 404 from the school into an error that says what to check. Other errors
 * are returned unchanged. `subject` names what was looked up for a 404 (e.g. `lesson les_1`).
 */
export function explainSchoolError(e: unknown, subject?: string): unknown {
  if (!(e instanceof SchoolApiError)) return e;
  const answer = `${e.endpoint} answered ${e.status}${e.serverError ? `: ${e.serverError}` : ''}`;
  if (e.status === 401) {
    return failure('connection/unauthorized', { answer }, { cause: e });
  }
  if (e.status === 403) {
    return failure('connection/forbidden', { answer }, { cause: e });
  }
  if (e.status === 404) {
    return failure('connection/not-found', { answer, subject }, { cause: e });
  }
  return e;
}
