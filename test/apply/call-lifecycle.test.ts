/**
 * The call lifecycle of apply (pending → sent → done | uncertain | failed), in-process against
 * the real emulator. The school client is the real one; the test only looks at the state file
 * on disk at the moment each request leaves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { CallLifecycle } from '../../src/apply/call-lifecycle.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { diffCourse } from '../../src/plan/diff-course.js';
import type { CallStep } from '../../src/plan/plan-schema.js';
import { isCall } from '../../src/plan/plan-steps.js';
import type { SchoolClient } from '../../src/school/client.js';
import type { PendingCall, StateData } from '../../src/model/state/schema.js';
import { readStateFile } from '../../src/state/state-file.js';
import { StateStore } from '../../src/state/state-store.js';
import { desiredOf, sectionIdsOf } from '../plan/build-course.js';
import { clientOf, removeTempDirs, startTestEmulator, tempDir } from './helpers.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.close();
  await removeTempDirs();
});

/** What is durable now: state.json with its journal, as the next process would read it. */
const onDisk = async (dir: string): Promise<StateData> => (await readStateFile(dir)).state;

/** The real client, noting for every request the pending records the state file holds as it leaves. */
function watchingClient(dir: string, seen: Array<{ request: string; pending: PendingCall[] }>): SchoolClient {
  const real = clientOf(emu);
  const note = async (request: string) => seen.push({ request, pending: Object.values((await onDisk(dir)).pending) });
  return {
    ...real,
    lessons: {
      ...real.lessons,
      create: async (body) => {
        await note(`POST /lessons ${body.name}`);
        return real.lessons.create(body);
      },
      update: async (id, body) => {
        await note(`PATCH /lessons/${id}`);
        return real.lessons.update(id, body);
      },
    },
  };
}

describe('write-ahead', () => {
  it('the pending record of every call is in the state file before its request leaves', async () => {
    const dir = await tempDir('write-ahead');
    const first = desiredOf({ prog_intro: { sec_start: ['a', 'b', 'c'], sec_types: ['d', 'e'] } });
    const store = await StateStore.load(dir, { lock: true });
    await store.update((d) => {
      d.base_url = emu.url;
    });
    const seen: Array<{ request: string; pending: PendingCall[] }> = [];
    const plan = diffCourse(first, store.data, { sectionIds: sectionIdsOf(first), baseUrl: emu.url });
    const result = await applyPlan(plan, { client: watchingClient(dir, seen), store, concurrency: 2 });
    expect(result.outcomes.map((o) => o.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
    expect(seen).toHaveLength(5);
    for (const { request, pending } of seen) {
      const name = request.replace('POST /lessons ', '');
      expect(pending.some((p) => p.action === 'create' && p.name === name), `${request}: ${JSON.stringify(pending)}`).toBe(true);
    }

    // Updates and moves too: c moves to the top of sec_start and a changes.
    const second = desiredOf({ prog_intro: { sec_start: ['c', { key: 'a', fields: { drip_delay: 4 } }, 'b'], sec_types: ['d', 'e'] } });
    seen.length = 0;
    const plan2 = diffCourse(second, store.data, { sectionIds: sectionIdsOf(second), baseUrl: emu.url });
    const calls = plan2.changes.filter(isCall);
    expect(calls.length).toBeGreaterThan(0);
    await applyPlan(plan2, { client: watchingClient(dir, seen), store, concurrency: 2 });
    expect(seen).toHaveLength(calls.length);
    for (const { request, pending } of seen) expect(pending.some((p) => p.request === request), `${request}: ${JSON.stringify(pending)}`).toBe(true);
    await store.close();
    expect((await onDisk(dir)).pending).toEqual({});
  });
});

describe('CallLifecycle', () => {
  const step = (): CallStep => {
    const desired = desiredOf({ prog_intro: { sec_start: ['x'] } });
    const plan = diffCourse(desired, { version: 2, lineage: '00000000-0000-4000-8000-000000000000', serial: 0, base_url: null, lessons: {}, sections: {}, pending: {} }, { sectionIds: sectionIdsOf(desired) });
    return plan.changes.filter(isCall)[0]!;
  };

  it('allows only pending → sent → done | uncertain | failed, and skipping before sending', async () => {
    const store = await StateStore.load(await tempDir('lifecycle'), { lock: true });
    const s = step();
    const call = new CallLifecycle(s, store, () => new Date('2026-01-01T00:00:00Z'));
    expect(() => call.sent()).toThrow('new → sent is not a transition');
    await call.pending(false);
    expect(store.data.pending[s.call_id]).toMatchObject({ action: 'create', key: 'x', request: 'POST /lessons', started_at: '2026-01-01T00:00:00.000Z' });
    call.sent();
    await expect(call.skipped()).rejects.toThrow('sent → skipped is not a transition');
    await call.failed(new Error('connection refused before sending'));
    expect(call.phase).toBe('failed');
    // A failed create is dropped from pending: nothing to find again.
    expect(store.data.pending).toEqual({});

    const skipped = new CallLifecycle(s, store, () => new Date());
    await skipped.pending(false);
    await skipped.skipped();
    expect(store.data.pending).toEqual({});
    await store.close();
  });
});
