/**
 * The shipped GitHub workflows (examples/ci/github/) run step by step in tests: their `run:`
 * steps are read from the YAML and run with bash as GitHub runs them (`bash -eo pipefail`),
 * with `${{ … }}` expressions of `env:` filled from a context. The `uses:` steps are the
 * caller's business (checkout, node, caches, Pages).
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { installGhShim } from './gh-shim.js';
import { CLI, EXAMPLES, writeRepo } from './helpers.js';

const run = promisify(execFile);

export interface WorkflowStep {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number>;
}

/** The steps of `job` in the shipped workflow `file` (e.g. coursesync-apply.yml). */
export async function workflowSteps(file: string, job: string): Promise<WorkflowStep[]> {
  const doc = parse(await readFile(join(EXAMPLES, 'ci/github', file), 'utf8')) as { jobs: Record<string, { steps: WorkflowStep[] }> };
  return doc.jobs[job]!.steps;
}

/** `${{ github.x }}` and `${{ secrets.X }}` in a workflow value. */
export function expand(value: string, context: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_m, name: string) => context[name] ?? '');
}

/** Run one `run:` step in `cwd` with `env` plus the step's own `env:` (expanded). */
export async function runShellStep(step: WorkflowStep & { run: string }, cwd: string, env: Record<string, string>, context: Record<string, string>): Promise<{ ok: boolean; output: string }> {
  const stepEnv = { ...env };
  for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = expand(v, context);
  try {
    const r = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], { cwd, env: stepEnv, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, output: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { stdout: string; stderr: string };
    return { ok: false, output: err.stdout + err.stderr };
  }
}

/**
 * A bare origin under `root` whose main holds `files`, pushed from a teammate's clone (returned
 * too); `git(cwd, ...args)` runs git as the test's teammate.
 */
export async function pushedOrigin(root: string, files: Record<string, string>, git: (cwd: string, ...args: string[]) => Promise<string>): Promise<{ origin: string; team: string }> {
  const id = Math.random().toString(36).slice(2);
  const origin = join(root, `origin-${id}.git`);
  await git(root, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  const team = await writeRepo(files, join(root, `team-${id}`));
  await git(team, 'init', '--quiet', '--initial-branch=main');
  await git(team, 'add', '.');
  await git(team, 'commit', '--quiet', '-m', 'The course');
  await git(team, 'remote', 'add', 'origin', origin);
  await git(team, 'push', '--quiet', 'origin', 'main');
  return { origin, team };
}

/**
 * `npm` and `npx` for the workflows' steps, in `bin`: `npm ci` installs the pinned copy (here the
 * built CLI is that copy, so it has nothing to do) and `npx --no coursesync …` runs it. Any
 * other invocation fails, as a fetch at run time would.
 */
export async function installPinnedCoursesync(bin: string): Promise<void> {
  await writeFile(join(bin, 'npm'), '#!/bin/sh\n[ "$*" = "ci" ] || exit 127\n');
  await writeFile(join(bin, 'npx'), `#!/bin/sh\n[ "$1" = "--no" ] || exit 127\nshift\n[ "$1" = "coursesync" ] || exit 127\nshift\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  for (const f of ['npm', 'npx']) await chmod(join(bin, f), 0o755);
}

/** Whom the workflow tests' git commits as; no system config, and HOME is the test's own root. */
export const TEAMMATE_GIT_ENV = { GIT_AUTHOR_NAME: 'Teammate', GIT_AUTHOR_EMAIL: 'team@example.com', GIT_COMMITTER_NAME: 'Teammate', GIT_COMMITTER_EMAIL: 'team@example.com', GIT_CONFIG_NOSYSTEM: '1' };

/** `git(cwd, ...args)` as the teammate, HOME at `root()` (read at each call: it is made in beforeAll); its trimmed stdout. */
export function teammateGit(root: () => string): (cwd: string, ...args: string[]) => Promise<string> {
  return async (cwd, ...args) => (await run('git', args, { cwd, env: { ...process.env, ...TEAMMATE_GIT_ENV, HOME: root() } })).stdout.trim();
}

/**
 * The machine a workflow test runs on: a temp `root` (HOME of its git and steps; remove it after
 * the file) and in it `bin`, first on the steps' PATH, with the pinned-coursesync shims and,
 * with `gh`, the `gh api` shim.
 */
export async function workflowMachine(prefix: string, options: { gh?: boolean } = {}): Promise<{ root: string; bin: string }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const bin = join(root, 'bin');
  await mkdir(bin);
  await installPinnedCoursesync(bin);
  if (options.gh) await installGhShim(bin);
  return { root, bin };
}
