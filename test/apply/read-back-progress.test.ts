/**
 * The read-back at the start of an apply under a rate limit and faults, against the emulator:
 * what was read is kept when another read fails, so the next run reads only what is left; and a
 * 429 honoured with its Retry-After uses up none of a call's tries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyCourse } from '../../src/apply/apply-course.js';
import { resolvePendingCalls } from '../../src/apply/resolve-pending.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { createSchoolClient } from '../../src/school/client.js';
import { StateStore } from '../../src/state/state-store.js';
import { lesson, removeRepos, writeRepo } from '../e2e/helpers.js';
import { SECRET, startTestEmulator } from './helpers.js';

/** Answers for the emulator's fault draws: a request whose draw is 0 fails (503); every other passes. */
let draws: number[] = [];
let faulty: RunningEmulator;
let limited: RunningEmulator;
beforeAll(async () => {
  faulty = await startTestEmulator({ failRate: 0.5, random: () => draws.shift() ?? 0.99 });
  limited = await startTestEmulator({ rateLimit: 2 });
});
afterAll(async () => {
  await Promise.all([faulty?.close(), limited?.close()]);
  await removeRepos();
});

const reads = (emu: RunningEmulator) => emu.stats().byRoute['PATCH /lessons/:id'] ?? 0;

/** One section of six lessons, applied. */
async function appliedSection(emu: RunningEmulator): Promise<string> {
  const files: Record<string, string> = { 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n' };
  for (let i = 1; i <= 6; i++) files[`p/s/0${i}-part-${i}.md`] = lesson(`name: Part ${i}`, `## Part ${i}\n\n| step | minutes |\n|---|---|\n| read | ${i * 5} |\n`);
  const dir = await writeRepo(files);
  const env = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url };
  await applyCourse(dir, { env, concurrency: 1 });
  return dir;
}

describe('the read-back at the start of an apply', () => {
  it('keeps what it read when one read fails: the next run reads only the lesson left', async () => {
    const dir = await appliedSection(faulty);
    const store = await StateStore.load(dir, { lock: true });
    // A killed apply left an update of part-1 pending: its lesson and the five around it are read back.
    const part1 = store.data.lessons['part-1']!;
    await store.beginCall('update:part-1', { action: 'update', key: 'part-1', lesson_id: part1.id, request: `PATCH /lessons/${part1.id}`, fields: ['name'], started_at: new Date().toISOString() });
    const client = createSchoolClient({ baseUrl: faulty.url, token: SECRET, retry: { maxAttempts: 1 } });

    // The fourth read fails (503, no retry allowed here).
    draws = [0.99, 0.99, 0.99, 0, 0.9];
    const before = reads(faulty);
    await expect(resolvePendingCalls(store, client, { concurrency: 1 })).rejects.toThrow(/cannot read back lesson les_\d+ \(key part-4\)/);
    expect(reads(faulty) - before).toBe(6);
    expect(Object.values(store.data.pending)).toEqual([expect.objectContaining({ action: 'read-back', key: 'part-1', left: ['part-4'] })]);

    const again = reads(faulty);
    const resolved = await resolvePendingCalls(store, client, { concurrency: 1 });
    expect(reads(faulty) - again).toBe(1);
    expect(resolved.refreshed).toEqual(['part-4']);
    expect(store.data.pending).toEqual({});
    await store.close();
  });

  it('a failed read of the pending lesson itself keeps its record whole; the lessons read around others are kept', async () => {
    const dir = await appliedSection(faulty);
    const store = await StateStore.load(dir, { lock: true });
    const [p2, p5] = [store.data.lessons['part-2']!, store.data.lessons['part-5']!];
    await store.beginCall('update:part-2', { action: 'update', key: 'part-2', lesson_id: p2.id, request: `PATCH /lessons/${p2.id}`, fields: ['name'], started_at: new Date().toISOString() });
    await store.beginCall('update:part-5', { action: 'update', key: 'part-5', lesson_id: p5.id, request: `PATCH /lessons/${p5.id}`, fields: ['name'], started_at: new Date().toISOString() });
    const client = createSchoolClient({ baseUrl: faulty.url, token: SECRET, retry: { maxAttempts: 1 } });
    draws = [0, 0.9]; // the first read (part-2's own) fails
    await expect(resolvePendingCalls(store, client, { concurrency: 1 })).rejects.toThrow(/key part-2/);
    expect(store.data.pending['update:part-2']).toMatchObject({ action: 'update', key: 'part-2' });
    // part-5 and the lessons around it were read and recorded; only part-2 is left of its record.
    expect(store.data.pending['update:part-5']).toMatchObject({ action: 'read-back', key: 'part-5', left: ['part-2'] });
    const again = reads(faulty);
    await resolvePendingCalls(store, client, { concurrency: 1 });
    // part-2 and the lessons of its section, each once.
    expect(reads(faulty) - again).toBe(6);
    expect(store.data.pending).toEqual({});
    await store.close();
  });
});

describe('a rate limit', () => {
  it("a 429 honoured with its Retry-After uses up none of a call's tries: eight reads at two per second all answer with two tries each", async () => {
    const dir = await appliedSection(limited);
    const store = await StateStore.load(dir);
    const ids = Object.values(store.data.lessons).map((l) => l.id!);
    const retries: number[] = [];
    const client = createSchoolClient({ baseUrl: limited.url, token: SECRET, retry: { maxAttempts: 2 }, onRetry: (e) => retries.push(e.delayMs) });
    const lessons = await Promise.all([...ids, ...ids.slice(0, 2)].map((id) => client.lessons.update(id, {})));
    expect(lessons).toHaveLength(8);
    // Waited its turn several times: more 429s than the two tries a call has.
    expect(retries.length).toBeGreaterThan(8);
    expect(retries.every((ms) => ms >= 1000)).toBe(true);
  });
});
