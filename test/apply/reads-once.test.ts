/**
 * An apply reads nothing twice: the repo is compiled once and the plan built once (after the
 * pending records are resolved and the --recreate/--replace keys settled), and with --refresh
 * each tracked lesson is read from the school once. Requests are counted by the emulator (a
 * live read is `PATCH /lessons/{id}` with `{}`); compiles and plans by wrapping the real
 * compileRepo and buildPlan (what reads the lesson files and what reads the school).
 */
import { describe, expect, it, vi } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { applyCourse, type ApplyCourseResult } from '../../src/apply/apply-course.js';
import { StateStore } from '../../src/state/state-store.js';
import { uncertainCreateEntry } from '../../src/plan/uncertain-create.js';
import { writeRepo, lesson } from '../e2e/helpers.js';
import { BASE_REPO } from './course-files.js';
import { deleteInSchool, useTestSchool } from './helpers.js';

const calls = vi.hoisted(() => ({ compileRepo: 0, buildPlan: 0 }));
vi.mock('../../src/sync/build-plan.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/sync/build-plan.js')>();
  return {
    ...real,
    compileRepo: (...args: Parameters<typeof real.compileRepo>) => {
      calls.compileRepo++;
      return real.compileRepo(...args);
    },
    buildPlan: (...args: Parameters<typeof real.buildPlan>) => {
      calls.buildPlan++;
      return real.buildPlan(...args);
    },
  };
});

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

/** PATCH requests (live reads and updates) and creates the school received. */
const patches = () => emu.stats().byRoute['PATCH /lessons/:id'] ?? 0;
const creates = () => emu.stats().byRoute['POST /lessons'] ?? 0;
/** PATCH calls a run sent (not reads): updates, moves and unpublishes. */
const patchCalls = (r: ApplyCourseResult) => (r.result?.outcomes ?? []).filter((o) => o.status !== 'skipped' && o.step.action !== 'create').length;
/** Reads a run made: every PATCH but its calls. */
const readsOf = (r: ApplyCourseResult, before: number) => patches() - before - patchCalls(r);

async function applied(): Promise<string> {
  const dir = await writeRepo(BASE_REPO);
  const first = await applyCourse(dir, { env });
  expect(first.result?.outcomes.every((o) => o.status === 'done')).toBe(true);
  return dir;
}

/** Count from here: compiles, plans and requests of the next apply only. */
function countFromHere() {
  calls.compileRepo = 0;
  calls.buildPlan = 0;
  return patches();
}

describe('apply reads nothing twice', () => {
  it('--replace: the repo compiled once, the plan built once, the old lesson read once', async () => {
    const dir = await applied();
    const { state } = await import('../../src/state/state-file.js').then((m) => m.readStateFile(dir));
    await deleteInSchool(emu, state.lessons.beta!.id!);
    const createdBefore = creates();
    const before = countFromHere();
    const r = await applyCourse(dir, { env, replace: ['beta'] });
    expect(r.result?.outcomes.map((o) => [o.step.call_id, o.status])).toContainEqual(['create:beta', 'done']);
    expect(creates() - createdBefore).toBe(1);
    expect(calls).toEqual({ compileRepo: 1, buildPlan: 1 });
    // The one read of --replace (the old lesson, answered 404) and what the run read back.
    expect(readsOf(r, before)).toBe(1 + (r.readBack?.refreshed.length ?? 0));
  });

  it('--replace --refresh: each tracked lesson read once (the replaced one by its check, the others by the refresh)', async () => {
    const dir = await applied();
    const { state } = await import('../../src/state/state-file.js').then((m) => m.readStateFile(dir));
    const tracked = Object.values(state.lessons).filter((l) => l.id !== null).length;
    await deleteInSchool(emu, state.lessons.beta!.id!);
    const before = countFromHere();
    const r = await applyCourse(dir, { env, replace: ['beta'], refresh: true });
    expect(r.result?.outcomes.every((o) => o.status === 'done')).toBe(true);
    expect(tracked).toBe(7);
    expect(readsOf(r, before)).toBe(tracked + (r.readBack?.refreshed.length ?? 0));
    expect(calls).toEqual({ compileRepo: 1, buildPlan: 1 });
  });

  it('--recreate --refresh: the plan built once after the uncertain create is dropped, each tracked lesson read once', async () => {
    const dir = await applied();
    await writeRepo({ 'intro/a/5-omega.md': lesson('name: Omega\nlesson_type: text') }, dir);
    // What a create whose answer was lost leaves in the state (apply-plan records it so).
    const store = await StateStore.load(dir, { lock: true });
    await store.update((d) => {
      d.lessons.omega = uncertainCreateEntry({ key: 'omega', name: 'Omega', section_id: 'sec_start', since: new Date().toISOString() }, undefined);
    });
    await store.close();
    const tracked = 7;
    const createdBefore = creates();
    const before = countFromHere();
    const r = await applyCourse(dir, { env, recreate: ['omega'], refresh: true });
    expect(r.result?.outcomes.map((o) => [o.step.call_id, o.status])).toEqual([['create:omega', 'done']]);
    expect(creates() - createdBefore).toBe(1);
    expect(readsOf(r, before)).toBe(tracked + (r.readBack?.refreshed.length ?? 0));
    expect(calls).toEqual({ compileRepo: 1, buildPlan: 1 });
  });

  it('--refresh after a killed apply: the pending record resolved first, then each tracked lesson read once by the one plan', async () => {
    const dir = await applied();
    const store = await StateStore.load(dir, { lock: true });
    const gamma = store.data.lessons.gamma!;
    // What a kill between an update's record and its answer leaves.
    await store.update((d) => {
      d.pending['update:gamma'] = { action: 'update', key: 'gamma', lesson_id: gamma.id, request: `PATCH /lessons/${gamma.id}`, fields: ['name'], started_at: new Date().toISOString() };
    });
    await store.close();
    const before = countFromHere();
    const r = await applyCourse(dir, { env, refresh: true });
    const resolved = r.resolvedAtStart.refreshed.length;
    expect(resolved).toBeGreaterThan(0);
    // The start reads what the record names; the plan reads each of the 7 tracked lessons once.
    expect(readsOf(r, before)).toBe(resolved + 7 + (r.readBack?.refreshed.length ?? 0));
    expect(calls).toEqual({ compileRepo: 1, buildPlan: 1 });
  });
});
