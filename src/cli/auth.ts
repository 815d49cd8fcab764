/**
 * `coursesync auth status` (as `gh auth status`): which school, where the token comes from
 * (never the token), and whether the school accepts it, found with one cheap read
 * (GET /members with one member per page, docs/school-api.md#members). Exit 0 when accepted,
 * 1 when not (no token, refused, unreachable).
 */
import type { Command } from 'commander';
import type { ConnectionFlags } from '../school/connection.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { readConfig } from './read-config.js';
import { addSchoolOptions, processIo, type CommandIo, type SchoolFlags } from './school-command.js';

export interface AuthStatusOptions extends SchoolFlags {
  json?: boolean;
}

/** The answer of `auth status`, also its --json document (with format_version). */
export interface AuthStatus {
  school: string;
  /** The environment checked (`--env`), in a repo with environments. */
  environment?: string;
  /** Which setting gave the school address. */
  school_from: '--base-url' | 'COURSESYNC_BASE_URL' | 'coursesync.yaml';
  /** Where the token came from: the variable, or the file given to --token-file; null when none. */
  token_from: { env: string } | { file: string } | null;
  accepted: boolean;
  /** The request made and its answer (`GET /members answered 200`), or why none was made. */
  check: string;
  /** What is wrong and what to do, when not accepted (or accepted with a restriction). */
  problem: string | null;
  hint: string | null;
}

/** Add `auth status`. */
export function register(program: Command): void {
  const auth = program.command('auth').description('The API token: check it against the school');
  addSchoolOptions(
    auth
      .command('status')
      .description('Which school, where the token comes from (never the token), and whether the school accepts it; exit 1 when not')
      .option('--json', 'print the status as JSON'),
  ).action(async (options: AuthStatusOptions) => {
    process.exitCode = await runAuthStatus(options);
  });
}

/** Run `auth status`; returns the exit code. */
export async function runAuthStatus(options: AuthStatusOptions, io: CommandIo = processIo()): Promise<number> {
  const { resolveBaseUrl, resolveToken, explainSchoolError } = await import('../school/connection.js');
  const { isCoursesyncError } = await import('../diagnostics/errors.js');
  const { repoAndEnvironment } = await import('./environment.js');
  const { effectiveConfig } = await import('../model/environments.js');
  const { tokenVariable } = await import('../school/connection.js');
  const { dir, environment } = await repoAndEnvironment(options.dir, options.env, io.env);
  const declared = await readConfig(dir);
  const config = declared && effectiveConfig(declared, environment);
  const flags: ConnectionFlags = { baseUrl: options.baseUrl, tokenFile: options.tokenFile };
  // A school address that cannot be used is an error of its own (exit 1 with its hint).
  const school = resolveBaseUrl({ flags, config, env: io.env, environment });
  const variable = tokenVariable(config, environment);
  const status: AuthStatus = {
    school,
    ...(environment === undefined ? {} : { environment }),
    school_from: options.baseUrl !== undefined ? '--base-url' : io.env.COURSESYNC_BASE_URL ? 'COURSESYNC_BASE_URL' : 'coursesync.yaml',
    token_from: options.tokenFile !== undefined ? { file: options.tokenFile } : io.env[variable]?.trim() ? { env: variable } : null,
    accepted: false,
    check: 'no request made',
    problem: null,
    hint: null,
  };
  const reason = (e: unknown) => {
    if (!isCoursesyncError(e)) throw e;
    status.problem = e.message;
    status.hint = e.hint ?? null;
  };
  try {
    const token = resolveToken({ flags, config, env: io.env, environment });
    const { createSchoolClient } = await import('../school/client.js');
    const { SchoolApiError } = await import('../school/errors.js');
    const client = createSchoolClient({
      baseUrl: school,
      token,
      timeoutMs: config?.school?.timeout_ms,
      onRetry: (event) => io.stderr.write(`coursesync: ${event.endpoint} failed (${event.reason}); waiting ${(event.delayMs / 1000).toFixed(1)} s, then trying again.\n`),
    });
    try {
      await client.members.listPage({ per_page: 1 });
      status.accepted = true;
      status.check = 'GET /members answered 200';
    } catch (e) {
      // A 404 under a base URL without /api/v1 comes as its own error, the answer its cause.
      const answer = e instanceof SchoolApiError ? e : (e as { cause?: unknown } | null)?.cause;
      if (!(answer instanceof SchoolApiError)) {
        status.check = 'GET /members got no answer';
        throw e;
      }
      status.check = `GET /members answered ${answer.status}`;
      if (answer !== e) throw e;
      // 403: the school knows the key, which may not read members; every other status is a refusal or a fault.
      status.accepted = answer.status === 403;
      reason(explainSchoolError(answer));
    }
  } catch (e) {
    reason(e);
  }
  if (options.json) {
    const { printDocument } = await import('./terminal.js');
    printDocument({ ...status }, io.stdout);
  } else {
    const { colors } = await import('./terminal.js');
    const c = colors(io.stdout, io.env);
    const from = status.token_from === null ? `none (set ${variable} or pass --token-file)` : 'env' in status.token_from ? `the ${status.token_from.env} variable` : `the file ${status.token_from.file}`;
    const lines = [
      ...(environment === undefined ? [] : [`Environment: ${environment}`]),
      `School: ${status.school} (from ${status.school_from})`,
      `Token:  ${from}`,
      `Status: ${status.accepted ? c.green('✓ accepted') : c.red('✗ not accepted')} (${status.check})`,
    ];
    if (status.problem) lines.push(`  ${status.problem}`);
    if (status.hint) lines.push(`  hint: ${status.hint}`);
    io.stdout.write(lines.join('\n') + '\n');
  }
  return status.accepted ? ExitCode.Ok : ExitCode.Error;
}
