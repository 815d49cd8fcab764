/**
 * Plumbing shared by the commands that talk to the school (webhooks, members, offers, badges,
 * custom-code, sections): the connection flags, coursesync.yaml from `--dir`, a client whose
 * retries are told on stderr, the 401/403/404 explanations, and the output streams (so tests
 * can run a command in-process).
 */
import type { Command } from 'commander';
import { failure } from '../diagnostics/error-codes/index.js';
import { createSchoolClient, type SchoolClient, type SchoolClientOptions } from '../school/client.js';
import { explainSchoolError, resolveConnection, type ConnectionFlags } from '../school/connection.js';
import type { CommandIo } from './command-io.js';
import { readConfig } from './read-config.js';

export { jsonOrFormat, planFormat, positiveInt, processIo, type CommandIo } from './command-io.js';

export interface SchoolFlags extends ConnectionFlags {
  /** Folder holding coursesync.yaml (default: the current folder). */
  dir?: string | undefined;
  /** `--env`: the environment of coursesync.yaml (required in a repo with environments). */
  env?: string | undefined;
}

/** Add --base-url, --token-file, --env and (unless the command takes a repo folder) --dir. */
export function addSchoolOptions(command: Command, options: { dir?: boolean } = {}): Command {
  if (options.dir !== false) command.option('--dir <dir>', 'folder holding coursesync.yaml (default: found from the current folder upward)');
  return command
    .option('--base-url <url>', 'school API address (overrides COURSESYNC_BASE_URL and coursesync.yaml)')
    .option('--token-file <file>', 'read the API token from this file instead of COURSESYNC_TOKEN')
    .option('--env <name>', 'the environment of coursesync.yaml to talk to (required in a repo with environments; default COURSESYNC_ENV)');
}

/**
 * A client of the school for `flags` (base URL and token resolved as for every command), whose
 * waits between retries (429, 503, network errors) are told on stderr.
 */
export async function openSchool(flags: SchoolFlags, io: CommandIo, extra: Pick<SchoolClientOptions, 'onResponse'> = {}): Promise<SchoolClient> {
  const { repoAndEnvironment } = await import('./environment.js');
  const { effectiveConfig } = await import('../model/environments.js');
  const { dir, environment } = await repoAndEnvironment(flags.dir, flags.env, io.env);
  const declared = await readConfig(dir);
  const config = declared && effectiveConfig(declared, environment);
  const { baseUrl, token } = resolveConnection({ flags, config, env: io.env, environment });
  return createSchoolClient({
    baseUrl,
    token,
    timeoutMs: config?.school?.timeout_ms,
    ...extra,
    onRetry: (event) => {
      io.stderr.write(`coursesync: ${event.endpoint} failed (${event.reason}); waiting ${(event.delayMs / 1000).toFixed(1)} s, then trying again (try ${event.attempt + 1}).\n`);
    },
  });
}

/**
 * Await a school call; a 401, 403 or 404 becomes an error that says what to check
 * (`subject` names what a 404 did not find, e.g. `member mem_9`).
 */
export async function explained<T>(call: Promise<T>, subject?: string): Promise<T> {
  try {
    return await call;
  } catch (e) {
    throw explainSchoolError(e, subject);
  }
}
