/**
 * `--env NAME` (or COURSESYNC_ENV): which environment of coursesync.yaml a command runs against
 * (docs/environments.md). In a repo with environments a command that talks to a school or reads
 * state must name one: there is no default, so a slip never reaches the wrong school.
 */
import type { Command } from 'commander';
import { failure } from '../diagnostics/error-codes/index.js';
import { environmentNames } from '../model/environments.js';
import { readConfig } from './read-config.js';

/** Add `--env <name>` to a command. */
export function addEnvOption(command: Command): Command {
  return command.option('--env <name>', 'the environment of coursesync.yaml to use (required in a repo with environments; default COURSESYNC_ENV)');
}

/** The repo found from `--dir` (or the current folder) and the environment a command runs against in it. */
export async function repoAndEnvironment(dir: string | undefined, flag: string | undefined, env: NodeJS.ProcessEnv): Promise<{ dir: string; environment: string | undefined }> {
  const { findRepoRoot } = await import('../source/repo-root.js');
  const root = await findRepoRoot(dir);
  return { dir: root, environment: await chooseEnvironment(root, flag, env) };
}

/**
 * The environment named by `--env` or COURSESYNC_ENV for the repo at `dir`: undefined in a repo
 * without environments (and none named).
 * @throws CoursesyncError a usage error listing the environments when none or an unknown one is named
 */
export async function chooseEnvironment(dir: string, flag: string | undefined, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const given = flag ?? (env.COURSESYNC_ENV?.trim() || undefined);
  const from = flag !== undefined ? '--env' : 'COURSESYNC_ENV';
  const config = await readConfig(dir);
  const names = config ? environmentNames(config) : [];
  if (names.length === 0) {
    if (given !== undefined) throw failure('environment/none-declared', { name: given, from });
    return undefined;
  }
  if (given === undefined) throw failure('environment/not-chosen', { names });
  if (!names.includes(given)) throw failure('environment/unknown', { name: given, names, from });
  return given;
}
