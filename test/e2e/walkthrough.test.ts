/**
 * The README's ten-minute walk-through, from an empty folder, as a course team runs it:
 * coursesync packed (`npm pack`) and installed into a fresh repo's package.json, then every
 * command through `npx --no coursesync` against the emulator: init with a token, a first
 * lesson (its front-matter checked by the remark config init wrote), validate, the plan
 * workflow's steps on a pull-request branch, the apply workflow's steps on main (a real bare
 * origin the state is pushed to), and a plan with no changes after it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SECRET, schoolSections, startTestEmulator } from '../apply/helpers.js';
import { GH_CONTEXT, installGhShim } from './gh-shim.js';
import { runShellStep, workflowSteps } from './workflow-steps.js';

const exec = promisify(execFile);
const PACKAGE_ROOT = join(import.meta.dirname, '../..');
const GIT_ENV = { GIT_AUTHOR_NAME: 'Author', GIT_AUTHOR_EMAIL: 'author@example.com', GIT_COMMITTER_NAME: 'Author', GIT_COMMITTER_EMAIL: 'author@example.com', GIT_CONFIG_NOSYSTEM: '1' };

let emu: RunningEmulator;
let root: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  root = await mkdtemp(join(tmpdir(), 'coursesync-walkthrough-'));
});
afterAll(async () => {
  await emu?.close();
  await rm(root, { recursive: true, force: true });
});

/**
 * The environment of a command: no npm_* settings inherited from the test runner, no token
 * unless given, git identity, and npm told to use its cache first (the packages are there).
 */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && !['NO_COLOR', 'FORCE_COLOR', 'COURSESYNC_TOKEN', 'COURSESYNC_BASE_URL', 'GITHUB_ACTIONS'].includes(k)) e[k] = v;
  return { ...e, ...GIT_ENV, HOME: root, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', ...extra };
}

async function sh(cwd: string, cmd: string, args: string[], extra: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await exec(cmd, args, { cwd, env: env(extra), maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const ok = async (cwd: string, cmd: string, args: string[], extra: Record<string, string> = {}) => {
  const r = await sh(cwd, cmd, args, extra);
  expect(r.code, `${cmd} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r;
};

/**
 * The `run:` steps of a shipped workflow in `workspace` (the checkout), in order; each must
 * pass. The `uses:` steps are the runner's (checkout, node, cache, Pages, the sticky comment).
 */
async function runWorkflow(file: string, job: string, workspace: string, context: Record<string, string>, extra: Record<string, string>) {
  const logs: string[] = [];
  for (const step of await workflowSteps(file, job)) {
    if (step.run === undefined) continue;
    const r = await runShellStep({ ...step, run: step.run }, workspace, env(extra) as Record<string, string>, context);
    logs.push(`## ${step.name ?? step.run}\n${r.output}`);
    expect(r.ok, logs.join('\n')).toBe(true);
  }
  return logs.join('\n');
}

const WELCOME = `---
name: Welcome to the course
lesson_type: text
description: What you will build, and how long it takes.
---

# Welcome

You will build a small command-line tool in **TypeScript**. Start with [the handbook](https://example.com/handbook).

| Week | Topic |
|------|-------|
| 1 | Types |
| 2 | Tooling |

\`\`\`sh
npm ci
\`\`\`
`;

describe('the README walk-through, from an empty folder', () => {
  // Five npm runs (pack, install, and `npm ci` in each workflow): minutes on a loaded machine.
  it('pack → install → init with a token → first lesson → validate → plan on a PR branch → apply on main → no changes', { timeout: 240_000 }, async () => {
    // 1. An empty folder becomes the course repo, with coursesync pinned in its lockfile: the
    //    package as a release would ship it (dist/ is built by the global test setup), packed
    //    into the repo's vendor/ folder.
    const origin = join(root, 'origin.git');
    await ok(root, 'git', ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
    const course = join(root, 'my-course');
    await mkdir(join(course, 'vendor'), { recursive: true });
    await ok(course, 'git', ['init', '--quiet', '--initial-branch=main']);
    await ok(course, 'npm', ['init', '--yes']);
    const packed = await ok(PACKAGE_ROOT, 'npm', ['pack', '--ignore-scripts', '--pack-destination', join(course, 'vendor')]);
    // With it, the two packages of the front-matter check in the editor (docs/editors.md): one
    // npm run for both saves this test several seconds.
    await ok(course, 'npm', ['install', '--save-dev', `./vendor/${packed.stdout.trim().split('\n').at(-1)!}`, 'remark-frontmatter', 'remark-lint-frontmatter-schema']);

    // 2. init with the school's key: config, ignore entries, workflows, editor settings and
    //    the program's section folders; then the address goes into coursesync.yaml.
    const school = { COURSESYNC_TOKEN: SECRET };
    const init = await ok(course, 'npx', ['--no', 'coursesync', 'init', '--program', 'prog_intro', '--base-url', emu.url], school);
    expect(init.stdout).toContain('+ prog-intro/01-getting-started/section.yaml  (written)');
    expect(init.stdout + init.stderr).not.toContain(SECRET);
    const config = await readFile(join(course, 'coursesync.yaml'), 'utf8');
    await writeFile(join(course, 'coursesync.yaml'), config.replace('# school:\n', 'school:\n').replace('#   base_url: https://school.example.com/api/v1', `  base_url: ${emu.url}`));

    // 3. Lesson front-matter in the editor: the remark packages init names, and its config.
    const lessonPath = 'prog-intro/01-getting-started/01-welcome.md';
    await writeFile(join(course, lessonPath), WELCOME.replace('lesson_type: text', 'lesson_type: text\nembed_code: <div>quiz</div>'));
    const lint = `import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import { VFile } from 'vfile';
import config from './.remarkrc.mjs';
const path = resolve(process.argv[2]);
const file = new VFile({ path, value: readFileSync(path, 'utf8') });
const processor = unified().use(remarkParse).use(config.plugins);
await processor.run(processor.parse(file), file);
for (const m of file.messages) console.log(m.reason);
`;
    await writeFile(join(course, 'lint-front-matter.mjs'), lint);
    const wrong = await ok(course, 'node', ['lint-front-matter.mjs', lessonPath]);
    expect(wrong.stdout).toMatch(/constant.*embed/i);
    await writeFile(join(course, lessonPath), WELCOME);
    expect((await ok(course, 'node', ['lint-front-matter.mjs', lessonPath])).stdout).toBe('');
    await rm(join(course, 'lint-front-matter.mjs'));

    // 4. validate and plan locally.
    const validate = await ok(course, 'npx', ['--no', 'coursesync', 'validate']);
    expect(validate.stdout).toBe('1 program, 3 sections, 1 lesson: valid\n');
    const plan = await sh(course, 'npx', ['--no', 'coursesync', 'plan', '--detailed-exitcode'], school);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('Welcome to the course');

    // 5. The first commit on main (setup only), pushed; the lesson on a branch: the pull request.
    await ok(course, 'git', ['add', '.gitignore', 'coursesync.yaml', 'package.json', 'package-lock.json', 'vendor', '.github', '.vscode', '.remarkrc.mjs', 'prog-intro/program.yaml', 'prog-intro/01-getting-started/section.yaml', 'prog-intro/02-types/section.yaml', 'prog-intro/03-tooling/section.yaml']);
    await ok(course, 'git', ['commit', '--quiet', '-m', 'Set up coursesync']);
    await ok(course, 'git', ['remote', 'add', 'origin', origin]);
    await ok(course, 'git', ['push', '--quiet', 'origin', 'main']);
    await ok(course, 'git', ['switch', '--quiet', '-c', 'first-lesson']);
    await ok(course, 'git', ['add', lessonPath]);
    await ok(course, 'git', ['commit', '--quiet', '-m', 'First lesson']);
    expect((await ok(course, 'git', ['status', '--porcelain'])).stdout).toBe('');

    // The plan workflow on the pull request: a fresh checkout of the branch, npm ci, plan.
    const prRun = join(root, 'pr-run');
    await ok(root, 'git', ['clone', '--quiet', '--branch', 'first-lesson', course, prRun]);
    const bin = join(root, 'bin');
    await mkdir(bin, { recursive: true });
    await installGhShim(bin);
    const store = join(root, 'pr-comments.json');
    const prContext = { 'github.token': 'ghs_walkthroughToken', ...GH_CONTEXT };
    const prLog = await runWorkflow('coursesync-plan.yml', 'plan', prRun, prContext, { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: join(root, 'pr-output'), GITHUB_STEP_SUMMARY: join(root, 'pr-summary'), PATH: `${bin}:${process.env.PATH}`, GH_SHIM_STORE: store });
    const comment = await readFile(join(prRun, 'plan.md'), 'utf8');
    expect(comment).toContain('Welcome to the course');
    // The comment on the pull request (through `gh api`) is that plan.
    const posted = JSON.parse(await readFile(store, 'utf8')) as Array<{ body: string }>;
    expect(posted).toHaveLength(1);
    expect(posted[0]!.body).toContain('Welcome to the course');
    expect(await readFile(join(root, 'pr-output'), 'utf8')).toContain('exitcode=2');
    expect(prLog).not.toContain(SECRET);

    // 6. Merged: main holds the lesson; the apply workflow runs on a checkout of the tip.
    await ok(course, 'git', ['switch', '--quiet', 'main']);
    await ok(course, 'git', ['merge', '--quiet', '--ff-only', 'first-lesson']);
    await ok(course, 'git', ['push', '--quiet', 'origin', 'main']);
    const mainRun = join(root, 'main-run');
    await ok(root, 'git', ['clone', '--quiet', '--branch', 'main', origin, mainRun]);
    const applyLog = await runWorkflow(
      'coursesync-apply.yml',
      'apply',
      mainRun,
      { 'secrets.COURSESYNC_TOKEN': SECRET },
      { GITHUB_ACTIONS: 'true', GITHUB_REF_NAME: 'main' },
    );
    expect(applyLog).not.toContain(SECRET);
    const lessons = [...(await schoolSections(emu)).get('sec_start')!].map((l) => l.name);
    expect(lessons).toContain('Welcome to the course');

    // 7. The state came back to main; a fresh pull plans no changes.
    await ok(course, 'git', ['pull', '--quiet', '--ff-only', 'origin', 'main']);
    expect((await ok(course, 'git', ['log', '-1', '--format=%s'])).stdout).toMatch(/^coursesync: state after apply/);
    const again = await sh(course, 'npx', ['--no', 'coursesync', 'plan', '--detailed-exitcode'], school);
    expect(again.stdout).toBe('No changes. 1 lesson unchanged.\n');
    expect(again.code).toBe(0);
  });
});
