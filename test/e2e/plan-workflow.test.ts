/**
 * The shipped plan workflow (examples/ci/github/coursesync-plan.yml) against real git: a bare
 * origin whose main was applied to the emulator, and a pull-request branch. The workflow's own
 * `run:` steps run with bash as GitHub runs them (`bash -eo pipefail`), its `if:` conditions
 * evaluated, actions/checkout emulated from its `with:` (fetch-depth), the built CLI behind
 * `npx --no coursesync`, and `gh api` answered by a shim that keeps the pull request's comments
 * in a file (two per page, so pagination is exercised). Real jq filters them.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SECRET, resetEmulator, startTestEmulator } from '../apply/helpers.js';
import { teammateGit, TEAMMATE_GIT_ENV, workflowMachine } from './workflow-steps.js';
import { EXAMPLES, lesson, runCli, writeRepo } from './helpers.js';

const run = promisify(execFile);
const WORKFLOW = join(EXAMPLES, 'ci/github/coursesync-plan.yml');
const GH_TOKEN = 'ghs_workflowTokenNeverPrinted';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number>;
}
interface Comment {
  id: number;
  body: string;
}


let emu: RunningEmulator;
let root: string;
let bin: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  ({ root, bin } = await workflowMachine('coursesync-plan-workflow-', { gh: true }));
});
afterAll(async () => {
  await emu?.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  await resetEmulator(emu);
});

const git = teammateGit(() => root);

/** `${{ a.b }}` in a workflow value, from `context`. */
function expand(value: string, context: Record<string, string>): string {
  return value.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_m, name: string) => context[name] ?? '');
}

/** The `if:` forms this workflow uses: `always()` and `a == b`, joined by `&&`. */
function condition(expr: string | undefined, failed: boolean, context: Record<string, string>): boolean {
  if (expr === undefined) return !failed;
  const terms = expr.split('&&').map((t) => t.trim());
  let always = false;
  for (const t of terms) {
    if (t === 'always()') always = true;
    else {
      const m = /^([\w.]+)\s*==\s*([\w.]+)$/.exec(t);
      if (!m) throw new Error(`unsupported if: ${expr}`);
      if ((context[m[1]!] ?? m[1]) !== (context[m[2]!] ?? m[2])) return false;
    }
  }
  return always || !failed;
}

const FILES: Record<string, string> = {
  'coursesync.yaml': 'removed_lessons: keep\n',
  'intro/program.yaml': 'id: prog_intro\n',
  'intro/a/section.yaml': 'id: sec_start\n',
  'intro/a/1-welcome.md': lesson('name: Welcome\nlesson_type: text', '# Welcome\n\n- read the setup\n- then the tables\n'),
  'intro/a/2-tables.md': lesson('name: Tables\nlesson_type: text', '| key | meaning |\n|---|---|\n| `name` | shown |\n\n```yaml\nname: Intro\n```\n'),
};

/** A bare origin whose main is applied (state committed), and a teammate's clone on a pull-request branch. */
async function origin(): Promise<{ origin: string; team: string }> {
  const id = Math.random().toString(36).slice(2);
  const origin = join(root, `origin-${id}.git`);
  await git(root, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  const team = await writeRepo(FILES, join(root, `team-${id}`));
  await git(team, 'init', '--quiet', '--initial-branch=main');
  const applied = await runCli(['apply', team, '-y'], { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url });
  expect(applied.code, applied.stderr).toBe(0);
  await git(team, 'add', '.');
  await git(team, 'commit', '--quiet', '-m', 'The course, applied');
  await git(team, 'remote', 'add', 'origin', origin);
  await git(team, 'push', '--quiet', 'origin', 'main');
  await git(team, 'checkout', '--quiet', '-b', 'more-tables');
  return { origin, team };
}

async function push(team: string, files: Record<string, string>, message: string): Promise<string> {
  await writeRepo(files, team);
  await git(team, 'add', '.');
  await git(team, 'commit', '--quiet', '-m', message);
  await git(team, 'push', '--quiet', 'origin', 'more-tables');
  return git(team, 'rev-parse', 'HEAD');
}

/** One run of the workflow for a push of `sha` to the pull request; `fork` when it comes from a fork. */
async function workflowRun(originDir: string, sha: string, store: string, options: { fork?: boolean; edit?: (workflow: string) => string } = {}) {
  const text = await readFile(WORKFLOW, 'utf8');
  const doc = parse(options.edit ? options.edit(text) : text) as { jobs: { plan: { steps: Step[] } } };
  const workspace = await mkdtemp(join(root, 'run-'));
  const outputs = join(workspace, '..', `${workspace.split('/').at(-1)}.out`);
  await writeFile(outputs, '');
  const context: Record<string, string> = {
    'github.token': GH_TOKEN,
    'github.repository': 'acme/course',
    'github.event.pull_request.number': '7',
    'github.event.pull_request.head.repo.full_name': options.fork ? 'someone/course' : 'acme/course',
  };
  let failed = false;
  const log: string[] = [];
  for (const step of doc.jobs.plan.steps) {
    if (!condition(step.if, failed, context)) continue;
    if (step.uses?.startsWith('actions/checkout')) {
      const depth = Number(step.with?.['fetch-depth'] ?? 1);
      await git(root, 'clone', '--quiet', ...(depth > 0 ? ['--depth', String(depth)] : []), '--branch', 'more-tables', `file://${originDir}`, workspace);
      await git(workspace, 'checkout', '--quiet', sha);
    } else if (step.run !== undefined) {
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        ...TEAMMATE_GIT_ENV,
        HOME: root,
        PATH: `${bin}:${process.env.PATH}`,
        GITHUB_ACTIONS: 'true',
        GITHUB_OUTPUT: outputs,
        GITHUB_STEP_SUMMARY: join(root, 'summary.md'),
        COURSESYNC_BASE_URL: emu.url,
        GH_SHIM_STORE: store,
      };
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = expand(v, context);
      try {
        const r = await run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.run], { cwd: workspace, env });
        log.push(r.stdout, r.stderr);
      } catch (e) {
        const err = e as { stdout: string; stderr: string };
        log.push(err.stdout, err.stderr);
        failed = true;
      }
      if (step.id) for (const line of (await readFile(outputs, 'utf8')).split('\n')) if (line.includes('=')) context[`steps.${step.id}.outputs.${line.split('=')[0]}`] = line.slice(line.indexOf('=') + 1);
    }
  }
  return { failed, log: log.join(''), workspace };
}

async function comments(store: string): Promise<Comment[]> {
  return JSON.parse(await readFile(store, 'utf8')) as Comment[];
}

describe('the shipped plan workflow', () => {
  it('posts one comment naming folder and school with the warnings, replaces it on the next push, and when plan fails', async () => {
    const { origin: o, team } = await origin();
    const store = join(root, `comments-${Math.random().toString(36).slice(2)}.json`);
    // Someone else's comment on the pull request stays as it is.
    await writeFile(store, JSON.stringify([{ id: 1, body: 'Looks good to me' }]));

    const sha1 = await push(team, { 'intro/a/2-tables.md': FILES['intro/a/2-tables.md']!.replace('| `name` | shown |\n', '| `name` | shown |\n| `video` | a host |\n'), 'intro/notes.md': '# Notes\n' }, 'More tables');
    const first = await workflowRun(o, sha1, store);
    expect(first.failed, first.log).toBe(false);
    let list = await comments(store);
    expect(list).toHaveLength(2);
    const host = new URL(emu.url).host;
    const folder = first.workspace.split('/').at(-1);
    expect(list[1]!.body.startsWith(`<!-- coursesync-plan -->\n### coursesync plan for \`${folder}\` on ${host}\n\n**Plan: 1 to update, 1 unchanged.**`)).toBe(true);
    expect(list[1]!.body).toMatch(/<details open><summary>⚠ 1 warning<\/summary>\n\n- intro\/notes\.md: .*\[repo\/stray-markdown\]/);
    expect(list[1]!.body).toContain('**intro/a/2-tables.md**');
    // With the file as applied recorded in state, the lesson's Markdown diff (full history checked out).
    if ((await readFile(join(team, '.coursesync/state.json'), 'utf8')).includes('"blob"')) expect(list[1]!.body).toContain('\n  +| `video` | a host |\n');
    expect(list[1]!.body).not.toMatch(/<td>/);

    // The next push: the same comment, replaced.
    const sha2 = await push(team, { 'intro/a/1-welcome.md': FILES['intro/a/1-welcome.md']!.replace('- then the tables\n', '- then the tables\n- and the quiz\n') }, 'A quiz');
    const second = await workflowRun(o, sha2, store);
    expect(second.failed, second.log).toBe(false);
    list = await comments(store);
    expect(list.map((c) => c.id)).toEqual([1, 1001]);
    expect(list[1]!.body).toContain('**Plan: 2 to update, 0 unchanged.**');

    // A push that breaks a lesson: the job fails, and the comment says why instead of the old plan.
    const sha3 = await push(team, { 'intro/a/1-welcome.md': '---\nname: Quiz: part 1\n---\nBody\n' }, 'Broken');
    const third = await workflowRun(o, sha3, store);
    expect(third.failed).toBe(true);
    list = await comments(store);
    expect(list.map((c) => c.id)).toEqual([1, 1001]);
    expect(list[0]!.body).toBe('Looks good to me');
    expect(list[1]!.body).toMatch(/^<!-- coursesync-plan -->\n### coursesync plan for `[^`]+` on [^\n]+\n\n\*\*✖ The plan failed:\*\* /);
    expect(list[1]!.body).toContain('intro/a/1-welcome.md:2:');
    expect(list[1]!.body).not.toContain('Plan: 2 to update');
    const everything = JSON.stringify(list) + first.log + second.log + third.log;
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(GH_TOKEN);
    expect(await readFile(store + '.log', 'utf8')).toBe(
      ['GET repos/acme/course/issues/7/comments', 'POST repos/acme/course/issues/7/comments', 'GET repos/acme/course/issues/7/comments', 'PATCH repos/acme/course/issues/comments/1001', 'GET repos/acme/course/issues/7/comments', 'PATCH repos/acme/course/issues/comments/1001', ''].join('\n'),
    );
  });

  it('coursesync not even started: the comment says the plan did not run', async () => {
    const { origin: o, team } = await origin();
    const store = join(root, `comments-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(store, '[]');
    // A course repo whose lockfile install fails: npm ci is the step that breaks.
    const sha = await push(team, { 'package-lock.json': '{' }, 'Broken lockfile');
    const saved = join(bin, 'npm');
    await writeFile(saved, '#!/bin/sh\necho "npm ERR! invalid package-lock.json" >&2\nexit 1\n');
    try {
      const r = await workflowRun(o, sha, store);
      expect(r.failed).toBe(true);
    } finally {
      await writeFile(saved, '#!/bin/sh\n[ "$*" = "ci" ] || exit 127\n');
    }
    const list = await comments(store);
    expect(list).toHaveLength(1);
    expect(list[0]!.body).toBe('<!-- coursesync-plan -->\n### coursesync plan\n\n**✖ The plan did not run** (exit code none): see the job log.\n');
  });

  it('a mistyped flag in the plan step (a usage error, exit 64) fails the job instead of passing as "changes present"', async () => {
    const { origin: o, team } = await origin();
    const store = join(root, `comments-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(store, '[]');
    const sha = await push(team, { 'intro/a/1-welcome.md': FILES['intro/a/1-welcome.md']!.replace('# Welcome', '# Welcome!') }, 'Typo in CI');
    const r = await workflowRun(o, sha, store, { edit: (w) => w.replace('--detailed-exitcode', '--detailed-exitcodes') });
    expect(r.log).toContain("unknown option '--detailed-exitcodes'");
    expect(r.failed, r.log).toBe(true);
    expect((await comments(store))[0]!.body).toContain('**✖ The plan did not run** (exit code 64)');
  });

  it('a pull request from a fork gets no comment (no write token), and the plan still runs', async () => {
    const { origin: o, team } = await origin();
    const store = join(root, `comments-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(store, '[]');
    const sha = await push(team, { 'intro/a/1-welcome.md': FILES['intro/a/1-welcome.md']!.replace('# Welcome', '# Welcome!') }, 'Fork edit');
    const r = await workflowRun(o, sha, store, { fork: true });
    expect(r.failed, r.log).toBe(false);
    expect(await comments(store)).toEqual([]);
    expect(await readFile(join(r.workspace, 'plan.md'), 'utf8')).toContain('**Plan: 1 to update, 1 unchanged.**');
  });
});
