/**
 * Each changed file is read once during a plan, and an unchanged one not at all once the stat
 * index and the state are warm (the state answers for it; the stat index gives its digest
 * without reading it). Every read of a file goes through node:fs (open, readFile, a read
 * stream), wrapped here to count reads per repo path. The state comes from a real apply
 * against the emulator.
 */
import { execFileSync } from 'node:child_process';
import { utimes, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';

const counting = { on: false, root: '', reads: new Map<string, number>() };
function counted(path: unknown): void {
  if (!counting.on || typeof path !== 'string' || !path.startsWith(counting.root)) return;
  const rel = relative(counting.root, path).split('\\').join('/');
  counting.reads.set(rel, (counting.reads.get(rel) ?? 0) + 1);
}
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const wrapped = {
    ...fs,
    openSync: ((path: unknown, ...rest: unknown[]) => (counted(path), (fs.openSync as (...a: unknown[]) => number)(path, ...rest))) as typeof fs.openSync,
    readFileSync: ((path: unknown, ...rest: unknown[]) => (counted(path), (fs.readFileSync as (...a: unknown[]) => unknown)(path, ...rest))) as typeof fs.readFileSync,
    createReadStream: ((path: unknown, ...rest: unknown[]) => (counted(path), (fs.createReadStream as (...a: unknown[]) => unknown)(path, ...rest))) as typeof fs.createReadStream,
  };
  return { ...wrapped, default: wrapped };
});
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  const wrapped = {
    ...fs,
    readFile: ((path: unknown, ...rest: unknown[]) => (counted(path), (fs.readFile as (...a: unknown[]) => unknown)(path, ...rest))) as typeof fs.readFile,
    open: ((path: unknown, ...rest: unknown[]) => (counted(path), (fs.open as (...a: unknown[]) => unknown)(path, ...rest))) as typeof fs.open,
  };
  return { ...wrapped, default: wrapped };
});

const { applyCourse } = await import('../../src/apply/apply-course.js');
const { applyProgress } = await import('../../src/cli/apply-progress.js');
const { stopOnSignals } = await import('../../src/cli/apply-signals.js');
const { buildPlan } = await import('../../src/sync/build-plan.js');
const { readPlanSources } = await import('../../src/sync/plan-sources.js');
const { isCall } = await import('../../src/plan/plan-steps.js');
const { gitBlobId } = await import('../../src/source/blob-id.js');
const { SECRET, useTestSchool } = await import('../apply/helpers.js');
const { lesson, writeRepo } = await import('../e2e/helpers.js');

const LESSONS = {
  'intro/01-start/01-welcome.md': lesson('name: Welcome\nlesson_type: text', '# Welcome\n\nWhat the course covers:\n\n- types\n- narrowing\n- generics\n\nThe map of the course is in map.png, next to this lesson.\n'),
  'intro/01-start/02-setup.md': lesson('name: Setup\nlesson_type: text', '# Setup\n\n```sh\nnpm install --save-dev typescript\nnpx tsc --init\n```\n\n| file | what |\n|---|---|\n| tsconfig.json | compiler options |\n'),
  'intro/02-types/01-narrowing.md': lesson('name: Narrowing\nlesson_type: text', '# Narrowing\n\n> The compiler follows control flow.\n\nSee [the handbook](https://www.typescriptlang.org/docs/handbook/2/narrowing.html).\n'),
};
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc000000301010018dd8db00000000049454e44ae426082', 'hex');

let emu: { url: string };
useTestSchool((school) => (emu = school));

/** Build the plan of `dir` and the sources `coursesync plan` shows, counting every read of its files; reads by repo path. */
async function countedPlan(dir: string, env: NodeJS.ProcessEnv) {
  counting.root = dir;
  counting.reads = new Map();
  counting.on = true;
  try {
    const built = await buildPlan(dir, { env });
    const sources = await readPlanSources(dir, built.plan, built.verbatimText);
    return { built, sources, reads: counting.reads };
  } finally {
    counting.on = false;
  }
}

describe('each changed file is read once during a plan', () => {
  it('an unchanged lesson is not read with the stat index and the state warm; an edited one once', async () => {
    const dir = await writeRepo({
      'coursesync.yaml': `school:\n  base_url: ${emu.url}\n`,
      'intro/program.yaml': 'id: prog_intro\n',
      'intro/01-start/section.yaml': 'id: sec_start\n',
      'intro/02-types/section.yaml': 'id: sec_types\n',
      ...LESSONS,
    });
    await writeFile(join(dir, 'intro/01-start/map.png'), PNG);
    // Files changed within the stat index's clock margin are read again (racily clean): age them.
    const old = new Date('2024-01-01T00:00:00Z');
    for (const path of [...Object.keys(LESSONS), 'intro/01-start/map.png']) await utimes(join(dir, path), old, old);
    await sleep(150);
    const env = { COURSESYNC_TOKEN: SECRET, COURSESYNC_RENDER_THREADS: '1' };
    const applied = await applyCourse(dir, { env });
    expect(applied.result?.outcomes.map((o) => o.status)).toEqual(['done', 'done', 'done']);
    // A git repo, as a course is: the printed plan shows the Markdown that changed.
    for (const args of [['init', '-q'], ['add', '-A'], ['-c', 'user.name=Author', '-c', 'user.email=author@example.com', 'commit', '-qm', 'course']]) execFileSync('git', args, { cwd: dir });

    const unchanged = await countedPlan(dir, env);
    expect(unchanged.built.plan.changes.filter(isCall)).toEqual([]);
    for (const path of Object.keys(LESSONS)) expect(unchanged.reads.get(path) ?? 0, path).toBe(0);
    expect(unchanged.reads.get('intro/01-start/map.png') ?? 0).toBe(0);

    const edited = 'intro/01-start/02-setup.md';
    const text = `${LESSONS[edited]}\nThen run \`npx tsc\` in the project folder.\n`;
    await writeFile(join(dir, edited), text);
    const after = await countedPlan(dir, env);
    const calls = after.built.plan.changes.filter(isCall);
    expect(calls.map((c) => [c.action, c.path])).toEqual([['update', edited]]);
    // The step names the file's version as git would, without a second read.
    expect(calls[0]!.source?.after).toBe(gitBlobId(Buffer.from(text)));
    // And the plan shows the file as it is now, from the same read.
    expect(after.sources.get(calls[0]!.call_id)?.after).toBe(text);
    expect(after.reads.get(edited)).toBe(1);
    for (const path of Object.keys(LESSONS)) if (path !== edited) expect(after.reads.get(path) ?? 0, path).toBe(0);

    // Applying it as `apply --yes` does reads it once too: the printed plan and the build
    // record take the text and the blob id from the plan's read.
    let printed = '';
    const out = { write: (chunk: string) => (printed += chunk) };
    const signals = stopOnSignals(out);
    const progress = applyProgress({ dir, out, color: false, interactive: false, yes: true, htmlDiff: false, signals });
    counting.reads = new Map();
    counting.on = true;
    try {
      const applied = await applyCourse(dir, { env, confirm: progress.confirm, onEvent: progress.onEvent });
      expect(applied.result?.outcomes.map((o) => o.status)).toEqual(['done']);
    } finally {
      counting.on = false;
      signals.release();
    }
    expect(printed).toContain('+Then run `npx tsc` in the project folder.');
    expect(counting.reads.get(edited)).toBe(1);
    for (const path of Object.keys(LESSONS)) if (path !== edited) expect(counting.reads.get(path) ?? 0, path).toBe(0);
    expect((await countedPlan(dir, env)).built.plan.changes.filter(isCall)).toEqual([]);
  });
});
