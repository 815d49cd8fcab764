/**
 * The built CLI, killed (SIGKILL) in the middle of `duplicate section` and run again: the re-run
 * resumes the journalled job with the same idempotency keys, so the school holds exactly one
 * copy of each lesson, in order, and the next plan is empty.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyCourse } from '../../src/apply/apply-course.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { CLI, runCli } from '../cli/plan-helpers.js';
import { SECRET, SEED } from '../cli/school-helpers.js';
import { lessonMd, makeRepo, planOf, removeRepos } from './helpers.js';

let emu: RunningEmulator;
beforeAll(async () => {
  // Slow operations, so the command is certainly mid-way when it is killed.
  emu = await startEmulator({ port: 0, seed: SEED, operationDelayMs: 700 });
});
afterAll(() => emu.close());
afterEach(removeRepos);

async function journalItems(dir: string): Promise<Array<{ done: boolean }> | undefined> {
  const text = await readFile(join(dir, '.coursesync/duplications.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const jobs = Object.values((JSON.parse(text) as { jobs: Record<string, { items: Array<{ done: boolean }> }> }).jobs);
  return jobs[0]?.items;
}

describe('duplicate section, killed and re-run', () => {
  it('makes no extra copy', async () => {
    const env = { COURSESYNC_BASE_URL: emu.url, COURSESYNC_TOKEN: SECRET };
    const files: Record<string, string> = { 'p/program.yaml': 'id: prog_intro\n', 'p/a/section.yaml': 'id: sec_start\n', 'p/b/section.yaml': 'id: sec_types\n' };
    for (let i = 1; i <= 6; i++) files[`p/a/0${i}-lesson-${i}.md`] = lessonMd(`Lesson ${i}`, `Body ${i}.\n`);
    const dir = await makeRepo(files);
    await applyCourse(dir, { env });

    const args = [CLI, 'duplicate', 'section', join(dir, 'p/a'), '--to', join(dir, 'p/b'), '--dir', dir, '--concurrency', '2', '--yes'];
    const child: ChildProcess = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    // Kill it once some copies are in and others are not.
    let items: Array<{ done: boolean }> | undefined;
    for (;;) {
      items = await journalItems(dir);
      if (items?.some((i) => i.done)) break;
      await sleep(20);
    }
    child.kill('SIGKILL');
    await exited;
    items = await journalItems(dir);
    expect(items?.some((i) => !i.done)).toBe(true);

    const rerun = await runCli(['duplicate', 'section', join(dir, 'p/a'), '--to', join(dir, 'p/b'), '--dir', dir, '--yes'], env);
    // The killed run could not release the state lock: the re-run takes it over and says so.
    expect(rerun.stderr).toMatch(/^coursesync: taking over the state lock held by pid \d+ .*\(that process is gone\)\n$/);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain('Resumed an interrupted duplication');

    type School = { operations: unknown[]; programs: Array<{ id: string; sections: Array<{ id: string; lessons: Array<{ name: string }> }> }> };
    const state = (await (await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/state'), { headers: { authorization: `Bearer ${SECRET}` } })).json()) as School;
    const copies = state.programs.find((p) => p.id === 'prog_intro')!.sections.find((s) => s.id === 'sec_types')!.lessons;
    expect(copies.map((l) => l.name)).toEqual(['Lesson 1', 'Lesson 2', 'Lesson 3', 'Lesson 4', 'Lesson 5', 'Lesson 6']);
    // One operation per lesson: the re-run asked for the same operations, never for new ones.
    expect(state.operations).toHaveLength(6);
    expect(await journalItems(dir)).toBeUndefined();
    expect((await planOf(dir, env)).summary).toMatchObject({ create: 0, update: 0, move: 0, uncertain: 0, unchanged: 12 });
  });
});
