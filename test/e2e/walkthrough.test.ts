/**
 * The README's ten-minute walk-through, from an empty folder, as a course team runs it: every
 * `sh` block of README.md's "A course repo in ten minutes", read from the README and run as
 * written in one bash session (only the API key, the school's address and the GitHub remote are
 * the test's own: the emulator's, and a bare repo standing in for GitHub). Between the blocks,
 * what GitHub does: the plan workflow's steps on the pull request (comment through a `gh`
 * shim), the merge, and the apply workflow's steps on main, which push the state back.
 * coursesync is the package as a release ships it (`npm pack` of this checkout).
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
import { bashSession, fill, readmeBlocks } from './readme-shell.js';
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

describe('the README walk-through, from an empty folder', () => {
  // Five npm runs (pack, two installs, and `npm ci` in each workflow): minutes on a loaded machine.
  it('runs every README step as written: install → init with a token → first lesson → validate and plan → pull request → apply on main → no changes', { timeout: 300_000 }, async () => {
    const blocks = await readmeBlocks('A course repo in ten minutes');
    expect(blocks).toHaveLength(6);
    // The tarball `npm pack` makes, next to the folder the README creates (dist/ is built by
    // the global test setup, so --ignore-scripts).
    const version = (JSON.parse(await readFile(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    await ok(PACKAGE_ROOT, 'npm', ['pack', '--ignore-scripts', '--pack-destination', root]);
    const origin = join(root, 'origin.git');
    await ok(root, 'git', ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
    const logs = join(root, 'logs');
    await mkdir(logs);
    const shell = bashSession(root, env(), logs);
    const course = join(root, 'my-course');
    try {
      // 1. An empty folder becomes the course repo, on main, with coursesync pinned.
      expect(blocks[0]).toContain(`cp ../coursesync-${version}.tgz vendor/`);
      const install = await shell.run(blocks[0]!);
      expect(install.stderr).not.toMatch(/npm (ERR|error)/);
      expect((await ok(course, 'git', ['symbolic-ref', '--short', 'HEAD'])).stdout.trim()).toBe('main');
      expect(JSON.parse(await readFile(join(course, 'package.json'), 'utf8')).devDependencies).toEqual({ coursesync: `file:vendor/coursesync-${version}.tgz` });

      // 2. init with the school's key; the address lands in coursesync.yaml.
      const init = await shell.run(fill(blocks[1]!, [['COURSESYNC_TOKEN=…', `COURSESYNC_TOKEN=${SECRET}`], ['https://school.example.com/api/v1', emu.url]]));
      expect(init.stdout).toContain('+ prog-intro/01-getting-started/section.yaml  (written)');
      expect(init.stdout + init.stderr).not.toContain(SECRET);
      expect(await readFile(join(course, 'coursesync.yaml'), 'utf8')).toMatch(new RegExp(`^school:\n(?:  #.*\n)*  base_url: ${emu.url.replace(/[.]/g, '\\.')}\n`, 'm'));
      expect(await readFile(join(course, '.gitignore'), 'utf8')).toMatch(/^_site\/$/m);

      // 3. The first lesson, as the README writes it.
      await shell.run(blocks[2]!);
      const lessonPath = 'prog-intro/01-getting-started/01-welcome.md';
      expect(await readFile(join(course, lessonPath), 'utf8')).toMatch(/^---\nname: Welcome to the course\n/);

      // Lesson front-matter in the editor: the install command init printed, and the remark
      // config it wrote, flag a field the lesson type does not take (docs/editors.md).
      const editorInstall = /`(npm install --save-dev remark-[^`]+)`/.exec(init.stdout)![1]!;
      await shell.run(editorInstall);
      await frontMatterCheck(course, lessonPath);

      // 4. validate and plan, with what the README says they print.
      const checked = await shell.run(blocks[3]!);
      expect(checked.stdout).toContain('1 program, 3 sections, 1 lesson: valid\n');
      expect(checked.stdout).toMatch(/Welcome to the course/);
      expect(checked.stdout).toContain('Plan: 1 to create');

      // 5. The setup on main, the lesson on a branch, both pushed ("GitHub" is a bare repo).
      await shell.run(fill(blocks[4]!, [['git@github.com:OWNER/my-course.git', origin]]));
      expect((await ok(origin, 'git', ['ls-tree', '-r', '--name-only', 'main'])).stdout).not.toContain(lessonPath);
      expect((await ok(origin, 'git', ['ls-tree', '-r', '--name-only', 'main'])).stdout).toContain('coursesync.yaml');
      expect((await ok(origin, 'git', ['ls-tree', '-r', '--name-only', 'first-lesson'])).stdout).toContain(lessonPath);
      expect((await ok(course, 'git', ['status', '--porcelain'])).stdout).toBe('');

      // GitHub: the plan workflow on the pull request (a fresh checkout of the branch).
      const prRun = join(root, 'pr-run');
      await ok(root, 'git', ['clone', '--quiet', '--branch', 'first-lesson', origin, prRun]);
      const bin = join(root, 'bin');
      await mkdir(bin, { recursive: true });
      await installGhShim(bin);
      const store = join(root, 'pr-comments.json');
      const prContext = { 'github.token': 'ghs_walkthroughToken', ...GH_CONTEXT };
      const prLog = await runWorkflow('coursesync-plan.yml', 'plan', prRun, prContext, { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: join(root, 'pr-output'), GITHUB_STEP_SUMMARY: join(root, 'pr-summary'), PATH: `${bin}:${process.env.PATH}`, GH_SHIM_STORE: store });
      const posted = JSON.parse(await readFile(store, 'utf8')) as Array<{ body: string }>;
      expect(posted).toHaveLength(1);
      expect(posted[0]!.body).toContain('Welcome to the course');
      expect(await readFile(join(root, 'pr-output'), 'utf8')).toContain('exitcode=2');
      expect(prLog).not.toContain(SECRET);

      // GitHub: the pull request merged, and the apply workflow on a checkout of main's tip.
      const merge = join(root, 'merge');
      await ok(root, 'git', ['clone', '--quiet', '--branch', 'main', origin, merge]);
      await ok(merge, 'git', ['merge', '--quiet', '--no-ff', '-m', 'Merge pull request #1 from first-lesson', 'origin/first-lesson']);
      await ok(merge, 'git', ['push', '--quiet', 'origin', 'main']);
      const mainRun = join(root, 'main-run');
      await ok(root, 'git', ['clone', '--quiet', '--branch', 'main', origin, mainRun]);
      const applyLog = await runWorkflow('coursesync-apply.yml', 'apply', mainRun, { 'secrets.COURSESYNC_TOKEN': SECRET }, { GITHUB_ACTIONS: 'true', GITHUB_REF_NAME: 'main' });
      expect(applyLog).not.toContain(SECRET);
      expect([...(await schoolSections(emu)).get('sec_start')!].map((l) => l.name)).toContain('Welcome to the course');

      // 6. Back on main, pulled: the state the workflow pushed, and no changes.
      const done = await shell.run(blocks[5]!);
      expect((await ok(course, 'git', ['log', '-1', '--format=%s'])).stdout).toMatch(/^coursesync: state after apply/);
      expect(done.stdout).toMatch(/No changes\. 1 lesson unchanged\.\n$/);
    } finally {
      shell.close();
    }
  });
});

/** The lesson checked by the remark config init wrote: a wrong field flagged, the README's lesson clean. */
async function frontMatterCheck(course: string, lessonPath: string): Promise<void> {
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
  try {
    const readme = await readFile(join(course, lessonPath), 'utf8');
    expect((await ok(course, 'node', ['lint-front-matter.mjs', lessonPath])).stdout).toBe('');
    await writeFile(join(course, lessonPath), readme.replace('lesson_type: text', 'lesson_type: text\nembed_code: <div>quiz</div>'));
    expect((await ok(course, 'node', ['lint-front-matter.mjs', lessonPath])).stdout).toMatch(/constant.*embed/i);
    await writeFile(join(course, lessonPath), readme);
  } finally {
    await rm(join(course, 'lint-front-matter.mjs'));
  }
}
