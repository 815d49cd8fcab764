/**
 * Lessons known unchanged from the state's digests, on a checkout with no `.coursesync/cache`
 * (a fresh CI clone): apply records blob, digest, compiler and deps; the next compile takes
 * unchanged lessons from the state without rendering them (counted through the render hook
 * compile takes); an edit renders only the edited lesson (and a linked lesson whose anchors it
 * needs); a changed image or a linked lesson with a new id re-renders the lessons that depend
 * on it; the plan names the cause. Against the emulator and a static host for the images.
 */
import { createHash } from 'node:crypto';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { applyCourse } from '../../src/apply/apply-course.js';
import { buildPlan } from '../../src/sync/build-plan.js';
import { compileCourse, frameCourse } from '../../src/compile/compile-course.js';
import { renderMarkdown } from '../../src/compile/render.js';
import { parseDepRecord } from '../../src/compile/lesson-digest.js';
import { readSource } from '../../src/source/read-source.js';
import { loadCourse } from '../../src/load/load-course.js';
import { compilerId } from '../../src/load/compiler-id.js';
import { knownLessonsOf } from '../../src/compile/known-lessons.js';
import { readStateFile } from '../../src/state/state-file.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { lessonCalls, resetEmulator, SECRET, startTestEmulator } from '../apply/helpers.js';
import { runCli, writeRepo } from '../e2e/helpers.js';
import { odinWorkspace, type OdinWorkspace } from '../e2e/odin-workspace.js';
import type { StaticHost } from '../e2e/static-server.js';

const WELCOME = 'foundations/01-intro/01-welcome.md';
const SETUP = 'foundations/01-intro/02-setup.md';
const RECIPES = 'foundations/02-project/01-recipes.md';

let emu: RunningEmulator;
let workspace: OdinWorkspace;
let host: StaticHost;
let work: string;
let repo: string;
let published: string;
const env = () => ({ COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url, COURSESYNC_RENDER_THREADS: '1' });

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(async () => {
  await resetEmulator(emu);
  workspace = await odinWorkspace(emu, 'coursesync-unchanged-');
  ({ work, repo, published, host } = workspace);
});
afterEach(async () => {
  await workspace.close();
});

async function publishAndApply(dir = repo): Promise<void> {
  expect((await runCli(['assets', dir, '--out', published])).code).toBe(0);
  const result = await applyCourse(dir, { env: env() });
  expect(result.result?.outcomes.filter((o) => o.status !== 'done') ?? []).toEqual([]);
}

/** A checkout of the repo as CI has it: the files and the committed state, no cache. */
async function freshClone(): Promise<string> {
  const clone = path.join(work, `clone-${Math.random().toString(36).slice(2, 8)}`);
  await cp(repo, clone, { recursive: true, filter: (src) => path.basename(src) !== 'cache' && !src.endsWith('.lock') });
  return clone;
}

/** Compile `dir` with what its state knows, counting every Markdown rendering. */
async function compileCounting(dir: string) {
  const { state } = await readStateFile(dir);
  const rendered: string[] = [];
  const render = (markdown: string) => {
    rendered.push(markdown);
    return renderMarkdown(markdown);
  };
  const result = compileCourse(await readSource(dir), { render, known: knownLessonsOf(state, await compilerId()) });
  return { result, rendered };
}

/** The paths of a state's `deps` (each recorded with its short hash). */
const pathsOf = (deps: readonly string[] | undefined) => (deps ?? []).map((d) => parseDepRecord(d).path);

const gitBlob = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

describe('lessons known unchanged without rendering', () => {
  it('apply records blob, digest, compiler and deps; a fresh clone with no cache renders nothing and plans no change', async () => {
    await publishAndApply();
    const { state } = await readStateFile(repo);
    const welcome = state.lessons.welcome!;
    expect(welcome.blob).toBe(gitBlob(await readFile(path.join(repo, WELCOME))));
    expect(welcome.digest).toMatch(/^[0-9a-f]{32}$/);
    expect(welcome.compiler).toBe(await compilerId());
    // Each with 4 hex of its digest, so a plan can name the one that changed.
    expect(welcome.deps?.every((d) => /@[0-9a-f]{4}$/.test(d))).toBe(true);
    expect(pathsOf(welcome.deps)).toEqual(
      expect.arrayContaining(['foundations/01-intro/images/clone_repo.png', 'foundations/01-intro/images/logo.png', SETUP, RECIPES]),
    );
    expect(welcome.applied.body).toMatch(/^sha256:[0-9a-f]{24}$/);
    expect(pathsOf(state.lessons.setup!.deps)).toEqual([WELCOME]);

    const clone = await freshClone();
    const { result, rendered } = await compileCounting(clone);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.unchanged.sort()).toEqual([WELCOME, SETUP, RECIPES].sort());
    expect(rendered).toEqual([]);

    const before = lessonCalls(emu);
    const built = await buildPlan(clone, { env: env() });
    expect(built.plan.changes.filter(isCall)).toEqual([]);
    expect(built.plan.summary.unchanged).toBe(3);
    // Still compiled as what was applied: the fields are the state's fingerprints, never sent.
    const desiredWelcome = built.desired.programs[0]!.sections[0]!.lessons.find((l) => l.key === 'welcome')!;
    expect(desiredWelcome.unchanged).toBe(true);
    expect(desiredWelcome.fields.body).toBe(welcome.applied.body);
    // Its assets are still known, for `coursesync assets` and the apply check.
    expect(desiredWelcome.assets?.map((a) => a.path)).toEqual(expect.arrayContaining(['foundations/01-intro/images/clone_repo.png', 'foundations/01-intro/images/logo.png', 'foundations/01-intro/images/logo@2x.png']));
    expect(lessonCalls(emu)).toBe(before);
  });

  it('editing one lesson renders it and the lessons that reference it, and sends only what changed', async () => {
    await publishAndApply();
    const clone = await freshClone();
    const file = path.join(clone, RECIPES);
    await writeFile(file, (await readFile(file, 'utf8')).replace('Before you start', 'Before you begin'));
    const { result, rendered } = await compileCounting(clone);
    // welcome links to recipes, so it is compiled again; setup links only to welcome: unchanged,
    // compiled once only for the anchors welcome's links to it need.
    expect(result.unchanged).toEqual([SETUP]);
    expect(rendered.some((m) => m.includes('Before you begin'))).toBe(true);
    expect(rendered.filter((m) => m.includes('Install Git from your package manager'))).toHaveLength(1);

    const built = await buildPlan(clone, { env: env() });
    const steps = built.plan.changes.filter(isCall);
    // welcome compiled to the same HTML: no call.
    expect(steps.map((s) => [s.action, s.key, s.fields.map((f) => f.field), s.cause])).toEqual([['update', 'recipes', ['body'], 'file']]);
    const { state } = await readStateFile(clone);
    expect(steps[0]!.source).toEqual({ path: RECIPES, before: state.lessons.recipes!.blob, after: gitBlob(await readFile(file)) });
    expect(steps[0]!.request.body).toContain('Before you begin');

    const applied = await applyCourse(clone, { env: env() });
    expect(applied.result?.outcomes.map((o) => [o.step.key, o.status])).toEqual([['recipes', 'done']]);
    const after = await readStateFile(clone);
    expect(after.state.lessons.recipes!.blob).toBe(gitBlob(await readFile(file)));
    expect(after.state.lessons.recipes!.digest).not.toBe(state.lessons.recipes!.digest);
    expect((await compileCounting(await freshCloneOf(clone))).rendered).toEqual([]);
  });

  it('the first apply records every lesson, also those linking back to a lesson created earlier in the same run (their links filled when sent)', async () => {
    const files: Record<string, string> = {
      'coursesync.yaml': 'school:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\n',
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\n',
    };
    for (let i = 1; i <= 4; i++) {
      const back = i > 1 ? `\nBack to [part ${i - 1}](0${i - 1}-part-${i - 1}.md#part-${i - 1}).\n` : '';
      files[`p/s/0${i}-part-${i}.md`] = `---\nname: Part ${i}\n---\n# Part ${i}\n\n| step | time |\n|---|---|\n| ${i} | 5 min |\n${back}`;
    }
    const dir = await writeRepo(files);
    const applied = await applyCourse(dir, { env: env() });
    expect(applied.result?.outcomes.map((o) => o.status)).toEqual(['done', 'done', 'done', 'done']);
    const { state } = await readStateFile(dir);
    expect(Object.values(state.lessons).map((l) => [l.path, l.digest !== undefined, pathsOf(l.deps)])).toEqual([
      ['p/s/01-part-1.md', true, []],
      ['p/s/02-part-2.md', true, ['p/s/01-part-1.md']],
      ['p/s/03-part-3.md', true, ['p/s/02-part-2.md']],
      ['p/s/04-part-4.md', true, ['p/s/03-part-3.md']],
    ]);
    expect((await compileCounting(dir)).rendered).toEqual([]);
  });

  it('what load-course renders ahead is what compile compiles: nothing unchanged, no README, every lesson under a changed setting', async () => {
    await publishAndApply();
    const clone = await freshClone();
    const { state } = await readStateFile(clone);
    const known = knownLessonsOf(state, await compilerId());
    const ahead = async () => frameCourse(await readSource(clone), known).toCompile.map((l) => l.path).sort();
    // The repo's README.md and drafts/wip.md are Markdown, but not lessons.
    expect(await ahead()).toEqual([]);
    // A changed lesson default is a change of every lesson of the section, though no file of theirs changed.
    await writeFile(path.join(clone, 'foundations/01-intro/section.yaml'), 'id: sec_start\nlesson_defaults:\n  drip_delay: 2\n');
    expect(await ahead()).toEqual([WELCOME, SETUP].sort());
    const { result } = await compileCounting(clone);
    expect(result.unchanged).toEqual([RECIPES]);
  });

  it('a new lesson linking to a #fragment of an unchanged lesson compiles that lesson once for its anchors', async () => {
    await publishAndApply();
    const clone = await freshClone();
    const next = (fragment: string) => `---\nname: Next steps\n---\n# Next\n\nGo back to [installing Git](../01-intro/02-setup.md#${fragment}) if needed.\n`;
    await writeFile(path.join(clone, 'foundations/02-project/02-next.md'), next('installing-git'));
    const { result, rendered } = await compileCounting(clone);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.unchanged.sort()).toEqual([WELCOME, SETUP, RECIPES].sort());
    expect(rendered.filter((m) => m.includes('Install Git from your package manager'))).toHaveLength(1);
    expect(rendered.some((m) => m.includes('Cloning a repository'))).toBe(false);
    // loadCourse renders that lesson ahead with the new one (on every core), not on demand in this thread.
    const { state } = await readStateFile(clone);
    const onDemand: string[] = [];
    const loaded = await loadCourse(clone, { known: knownLessonsOf(state, await compilerId()), render: (m) => (onDemand.push(m), renderMarkdown(m)) });
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(loaded.unchanged.sort()).toEqual([WELCOME, SETUP, RECIPES].sort());
    expect(onDemand).toEqual([]);
    const built = await buildPlan(clone, { env: env() });
    expect(built.plan.changes.filter(isCall).map((s) => [s.action, s.key])).toEqual([['create', 'next']]);

    // A fragment the unchanged lesson does not have is still an error at its place.
    await writeFile(path.join(clone, 'foundations/02-project/02-next.md'), next('no-such-heading'));
    const broken = await compileCounting(clone);
    expect(broken.result.diagnostics.map((d) => [d.file, d.code])).toEqual([['foundations/02-project/02-next.md', 'lesson/missing-anchor']]);
  });

  it('a changed image re-renders exactly the lessons that show it, with cause references', async () => {
    await publishAndApply();
    const image = path.join(repo, 'foundations/01-intro/images/clone_repo.png');
    await writeFile(image, Buffer.concat([await readFile(image), Buffer.from([0])]));
    const clone = await freshClone();
    const { result } = await compileCounting(clone);
    expect(result.unchanged).toEqual([SETUP]);
    const built = await buildPlan(clone, { env: env() });
    const steps = built.plan.changes.filter(isCall);
    expect(steps.map((s) => [s.key, s.cause, s.source?.before === s.source?.after])).toEqual([
      ['welcome', 'references', true],
      ['recipes', 'references', true],
    ]);
  });

  it('a linked lesson with a new id in the school re-renders the lessons that link to it', async () => {
    await publishAndApply();
    const statePath = path.join(repo, '.coursesync/state.json');
    const { state } = await readStateFile(repo);
    const oldId = state.lessons.setup!.id!;
    // As after `apply --replace setup`: the school holds setup under another id.
    const text = await readFile(statePath, 'utf8');
    await writeFile(statePath, text.replace(`"id":"${oldId}"`, '"id":"les_999999"'));
    const { result } = await compileCounting(repo);
    expect(result.unchanged.sort()).toEqual([SETUP, RECIPES].sort());
    const built = await buildPlan(repo, { env: {} });
    const steps = built.plan.changes.filter(isCall);
    expect(steps.map((s) => [s.key, s.cause])).toEqual([['welcome', 'references']]);
    expect(steps[0]!.request.body).toContain('les_999999');
  });

  it('another compiler renders again: the same HTML is no change (apply records the new compiler, no call); other HTML is an update with cause renderer', async () => {
    await publishAndApply();
    const statePath = path.join(repo, '.coursesync/state.json');
    const { state } = await readStateFile(repo);
    const compiler = await compilerId();
    // As written by an older coursesync whose renderer gave setup another HTML.
    const older = (await readFile(statePath, 'utf8'))
      .replaceAll(new RegExp(`"compiler": ?"${compiler}"`, 'g'), '"compiler": "0123456789ab"')
      // state.json writes a fingerprint's hex digits alone.
      .replace(state.lessons.setup!.applied.body.slice('sha256:'.length), '0'.repeat(24));
    await writeFile(statePath, older);
    const { result } = await compileCounting(repo);
    expect(result.unchanged).toEqual([]);
    const built = await buildPlan(repo, { env: env() });
    const steps = built.plan.changes.filter(isCall);
    expect(steps.map((s) => [s.key, s.fields.map((f) => f.field), s.cause, s.source?.before === s.source?.after])).toEqual([['setup', ['body'], 'renderer', true]]);

    const before = lessonCalls(emu);
    await applyCourse(repo, { env: env() });
    expect(lessonCalls(emu) - before).toBe(1);
    const after = (await readStateFile(repo)).state;
    for (const key of ['welcome', 'setup', 'recipes']) expect(after.lessons[key]!.compiler, key).toBe(compiler);
    expect((await compileCounting(await freshClone())).rendered).toEqual([]);
  });

  it('an existing school without digests gets them on the next apply, with no call: a state-only write', async () => {
    await publishAndApply();
    const statePath = path.join(repo, '.coursesync/state.json');
    const stripped = (await readFile(statePath, 'utf8')).replace(/,"(blob|compiler|deps|digest)":("[^"]*"|\[[^\]]*\])/g, '');
    await writeFile(statePath, stripped);
    expect((await readStateFile(repo)).state.lessons.welcome!.digest).toBeUndefined();
    const before = lessonCalls(emu);
    const result = await applyCourse(repo, { env: env() });
    expect(result.result).toBeNull();
    expect(lessonCalls(emu)).toBe(before);
    const { state } = await readStateFile(repo);
    for (const key of ['welcome', 'setup', 'recipes']) expect(state.lessons[key]!.digest, key).toMatch(/^[0-9a-f]{32}$/);
    expect((await compileCounting(await freshClone())).rendered).toEqual([]);
    // Nothing more to record: the apply after writes nothing.
    const serial = state.serial;
    await applyCourse(repo, { env: env() });
    expect((await readStateFile(repo)).state.serial).toBe(serial);
  });
  it('when the state answers for all but a few lessons, plan leaves the lesson cache alone (neither read nor rewritten) and still sees the edit', async () => {
    // The built CLI throughout (its compiler digest is the one its state and cache record).
    expect((await runCli(['assets', repo, '--out', published])).code).toBe(0);
    const apply = await runCli(['apply', repo, '--yes'], env());
    expect(apply.code, apply.stderr).toBe(0); // it compiled everything: it wrote the lesson cache
    const cacheFile = path.join(repo, '.coursesync/cache/lessons.json');
    const cached = await readFile(cacheFile, 'utf8');
    expect(Object.keys(JSON.parse(cached) as object).length).toBeGreaterThan(0);
    const file = path.join(repo, RECIPES);
    await writeFile(file, (await readFile(file, 'utf8')).replace('Before you start', 'Before you begin'));
    // A lesson cache that cannot be parsed would be ignored and rewritten if it were read.
    await writeFile(cacheFile, cached.slice(0, 100));
    const plan = await runCli(['plan', repo, '--json'], env());
    expect(plan.code, plan.stderr).toBe(0);
    const calls = (JSON.parse(plan.stdout) as { changes: Array<{ action: string; path: string }> }).changes.filter((c) => c.action === 'update');
    expect(calls.map((c) => c.path)).toContain(RECIPES);
    expect(await readFile(cacheFile, 'utf8')).toBe(cached.slice(0, 100));
  });
});

async function freshCloneOf(dir: string): Promise<string> {
  const clone = `${dir}-again`;
  await cp(dir, clone, { recursive: true, filter: (src) => path.basename(src) !== 'cache' && !src.endsWith('.lock') });
  return clone;
}
