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
import { chosenEnvironment, environmentNames } from '../model/environments.js';

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
export function resolveBaseUrl(args: ConnectionArgs): string {
  const env = args.env ?? process.env;
  const candidates: Array<[string | undefined, string]> = [
    [args.flags.baseUrl, '--base-url'],
    [env.COURSESYNC_BASE_URL, 'COURSESYNC_BASE_URL'],
    [args.config?.school?.base_url, args.environment === undefined ? 'coursesync.yaml school.base_url' : 'coursesync.yaml'],
  ];
  for (const [value, source] of candidates) {
    if (value === undefined || value.trim() === '') continue;
    const url = checkBaseUrl(value, source);
    if (args.environment !== undefined && args.config) checkEnvironmentAddress(args.config, args.environment, url, source);
    return url;
  }
  throw failure('connection/no-base-url', {});
}

/** What resolves a connection: the flags, coursesync.yaml (as the chosen environment sees it), the process environment. */
export interface ConnectionArgs {
  flags: ConnectionFlags;
  config?: CourseConfig | undefined;
  env?: NodeJS.ProcessEnv;
  /** The environment chosen with --env, in a repo with environments. */
  environment?: string | undefined;
}

const sameAddress = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * An address given for the environment `name` that belongs elsewhere is refused before any
 * request: one that overrides the address the environment declares, or one that another
 * environment declares as its own.
 */
function checkEnvironmentAddress(config: CourseConfig, name: string, url: string, from: string): void {
  const declared = config.environments?.[name]?.school?.base_url;
  if (declared !== undefined && !sameAddress(declared, url)) throw failure('environment/address-mismatch', { environment: name, address: url, from, declared });
  const own = config.school?.base_url ?? declared;
  if (own !== undefined && sameAddress(own, url)) return;
  for (const other of environmentNames(config)) {
    const theirs = config.environments?.[other]?.school?.base_url;
    if (other !== name && theirs !== undefined && sameAddress(theirs, url)) throw failure('environment/address-mismatch', { environment: name, address: url, from, other });
  }
}

/** The variable the token is read from: the environment's `token_env`, else COURSESYNC_TOKEN. */
export function tokenVariable(config: CourseConfig | undefined, environment: string | undefined): string {
  return environment === undefined || !config ? 'COURSESYNC_TOKEN' : chosenEnvironment(config, environment).token_env;
}

/**
 * The token, from --token-file (its content, trimmed) or else COURSESYNC_TOKEN.
 * @throws CoursesyncError `connection/no-token`, `connection/token-file`
 */
export function resolveToken(args: ConnectionArgs): string {
  const token = readToken(args);
  if (args.environment !== undefined && args.config) checkEnvironmentToken(args.config, args.environment, token, args.env ?? process.env);
  return token;
}

/**
 * A token that is another environment's (its variable holds the same value) is refused before
 * any request: the school could take it and the apply would write to the wrong school.
 */
function checkEnvironmentToken(config: CourseConfig, name: string, token: string, env: NodeJS.ProcessEnv): void {
  const variable = tokenVariable(config, name);
  for (const other of environmentNames(config)) {
    const otherVariable = tokenVariable(config, other);
    if (other !== name && otherVariable !== variable && env[otherVariable]?.trim() === token) {
      throw failure('environment/token-mismatch', { environment: name, variable, other, otherVariable });
    }
  }
}

function readToken(args: ConnectionArgs): string {
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
  const variable = tokenVariable(args.config, args.environment);
  const token = env[variable]?.trim();
  if (!token) {
    // Set but empty is its own case: in CI it is a secret that is missing.
    const problem = env[variable] === undefined ? 'unset' : 'empty';
    if (args.environment !== undefined) throw failure('environment/no-token', { environment: args.environment, variable, problem });
    throw failure('connection/no-token', { problem });
  }
  return token;
}

/**
 * Base URL and token for a command that talks to the school. The base URL is resolved first,
 * so a refused address is reported even without a token.
 */
export function resolveConnection(args: ConnectionArgs): Connection {
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
