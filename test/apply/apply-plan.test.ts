/**
 * The executor against the real emulator (in-process, HTTP on a free port): the concurrency
 * limit, a failure injected on a chosen call, uncertain creates, pending records left by a killed
 * apply, position mismatches and a refused token.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, type ApplyPlanOptions } from '../../src/apply/apply-plan.js';
import { resolvePendingCalls } from '../../src/apply/resolve-pending.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { DesiredState } from '../../src/model/desired.js';
import { DEFAULT_CONFIG } from '../../src/model/config.js';
import { diffCourse } from '../../src/plan/diff-course.js';
import { linkLessons } from '../../src/plan/lesson-links.js';
import { lessonLinkMarker } from '../../src/model/lesson-links.js';
import type { CallStep, CreateStep, Plan } from '../../src/plan/plan-schema.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { StateStore } from '../../src/state/state-store.js';
import { desiredOf, sectionIdsOf } from '../plan/build-course.js';
import { clientOf, removeTempDirs, resetEmulator, schoolSections, startTestEmulator, tempDir } from './helpers.js';

const running: RunningEmulator[] = [];
async function emulator(options: Parameters<typeof startTestEmulator>[0] = {}) {
  const emu = await startTestEmulator(options);
  running.push(emu);
  return emu;
}
afterAll(async () => {
  await Promise.all(running.map((e) => e.close()));
  await removeTempDirs();
});

const layout = (n: number) =>
  desiredOf({
    prog_intro: {
      sec_start: Array.from({ length: n }, (_, i) => `s${i}`),
      sec_types: Array.from({ length: n }, (_, i) => `t${i}`),
      sec_tooling: Array.from({ length: n }, (_, i) => `o${i}`),
    },
    prog_advanced: { sec_generics: Array.from({ length: n }, (_, i) => `g${i}`), sec_patterns: Array.from({ length: n }, (_, i) => `p${i}`) },
  });

const planFor = (desired: DesiredState, store: StateStore, emu: RunningEmulator) =>
  diffCourse(desired, store.data, { sectionIds: sectionIdsOf(desired), baseUrl: emu.url });

/** Load the state of `dir`, plan `desired`, apply, close. */
async function applyOnce(emu: RunningEmulator, dir: string, desired: DesiredState, options: { concurrency?: number; tamper?: (plan: Plan) => void; token?: string } & Pick<ApplyPlanOptions, 'lessonUrl' | 'onEvent'> = {}) {
  const store = await StateStore.load(dir, { lock: true });
  try {
    const plan = planFor(desired, store, emu);
    options.tamper?.(plan);
    await store.update((d) => {
      d.base_url = emu.url;
    });
    const result = await applyPlan(plan, { client: clientOf(emu, options.token), store, concurrency: options.concurrency ?? 4, lessonUrl: options.lessonUrl, onEvent: options.onEvent });
    return { plan, result, state: structuredClone(store.data) };
  } finally {
    await store.close();
  }
}

/** The school's order of every desired section equals the desired order, by the ids in state. */
async function expectConverged(emu: RunningEmulator, dir: string, desired: DesiredState) {
  const store = await StateStore.load(dir);
  const school = await schoolSections(emu);
  for (const p of desired.programs) {
    for (const s of p.sections) {
      const sectionId = (s.ref as { id: string }).id;
      expect(school.get(sectionId)!.map((l) => l.id), sectionId).toEqual(s.lessons.map((l) => store.data.lessons[l.key]?.id));
    }
  }
  for (const [key, l] of Object.entries(store.data.lessons)) {
    if (l.id === null) continue; // an uncertain create: not in the school as far as we know
    const live = [...school.values()].flat().find((x) => x.id === l.id);
    expect({ key, section: l.section_id, position: l.position }).toEqual({ key, section: live?.section_id, position: live?.position });
  }
  expect(planFor(desired, store, emu).changes.filter(isCall)).toEqual([]);
  expect(store.data.pending).toEqual({});
}

/**
 * A proxy in front of `emu` that counts the requests in flight (arrived, not yet answered) and
 * holds the first ones until `fill` of them are in flight at once, then lets everything through.
 * It proves the client fills its limit by an event, not by a latency long enough to overlap
 * requests on a quiet machine. If the client never fills it, the held requests go on after
 * `giveUpMs` and the count says so.
 */
async function gatedProxy(emu: RunningEmulator, fill: number, giveUpMs = 30_000) {
  const target = new URL(emu.url);
  let inFlight = 0;
  let maxInFlight = 0;
  let held: Array<() => void> = [];
  let open = false;
  const release = () => {
    open = true;
    for (const go of held) go();
    held = [];
  };
  const timer = setTimeout(release, giveUpMs);
  const server = createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once('close', () => {
      inFlight -= 1;
    });
    const forward = () => {
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (open) return forward();
    held.push(forward);
    if (held.length >= fill) release();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    emu: { ...emu, url: `http://127.0.0.1:${port}${target.pathname}` },
    maxInFlight: () => maxInFlight,
    close: () => {
      clearTimeout(timer);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('concurrency', () => {
  let slow: RunningEmulator;
  beforeAll(async () => {
    slow = await emulator({ latencyMs: 25 });
  });
  afterEach(async () => {
    await resetEmulator(slow);
  });

  it.each([1, 3])('never more than %i requests in flight, while chains overlap up to the limit', async (limit) => {
    const dir = await tempDir('conc');
    const proxy = await gatedProxy(slow, limit);
    try {
      const { result } = await applyOnce(proxy.emu, dir, layout(3), { concurrency: limit });
      expect(result.outcomes.every((o) => o.status === 'done')).toBe(true);
      expect(proxy.maxInFlight()).toBe(limit); // five chains are enough to fill the limit, and never more
      expect(slow.stats().maxInFlight).toBeLessThanOrEqual(limit);
    } finally {
      await proxy.close();
    }
    await expectConverged(slow, dir, layout(3));
  });
});

describe('what a run keeps', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator();
  });

  it("of each call, the plan's step and where the school put the lesson, not the body it echoed nor the link-filled copy", async () => {
    const dir = await tempDir('keeps');
    const lessonUrl = 'https://school.example/p/{program_id}/l/{lesson_id}';
    const desired = { ...layout(2), config: { ...DEFAULT_CONFIG, school: { lesson_url: lessonUrl } } };
    // s1 links to s0, created just before it in the same run: apply fills the link when sending.
    const s1 = desired.programs[0]!.sections[0]!.lessons[1]!;
    s1.fields = { ...s1.fields, body: `<p>Back to <a href="${lessonLinkMarker('s0')}">the start</a>.</p>` };
    s1.links = ['s0'];
    const sent = new Map<string, CallStep>();
    const { plan, result, state } = await applyOnce(emu, dir, desired, {
      lessonUrl,
      onEvent: (e) => void (e.type === 'call-start' && sent.set(e.step.call_id, e.step)),
    });
    const steps = new Map(plan.changes.filter(isCall).map((c) => [c.call_id, c]));
    expect(result.outcomes).toHaveLength(steps.size);
    for (const o of result.outcomes) {
      if (o.status !== 'done') throw new Error(`${o.step.key}: ${o.status}`);
      // The plan's own object (held anyway), not a copy: a first apply of 100,000 lessons once kept the course's HTML twice more.
      expect(o.step).toBe(steps.get(o.step.call_id));
      expect(Object.keys(o.lesson).sort()).toEqual(['id', 'position', 'section_id']);
      expect(o.lesson.section_id).toBe(o.step.section_id);
    }
    const linking = result.outcomes.find((o) => o.step.key === 's1')!;
    expect(linking.step.request.body).toContain(lessonLinkMarker('s0'));
    expect(sent.get(linking.step.call_id)!.request.body).toContain(`https://school.example/p/prog_intro/l/${state.lessons.s0!.id}`);
    // What was sent is what the state records: planned with the link filled (as plan does), nothing to do.
    await expectConverged(emu, dir, linkLessons(desired, state).desired);
  });
});

describe('failures', () => {
  let emu: RunningEmulator;
  beforeAll(async () => {
    emu = await emulator();
  });
  afterEach(async () => {
    await resetEmulator(emu);
  });

  it('a 422 on a chosen call stops its chain only; the state is right and a second apply converges', async () => {
    const dir = await tempDir('fail');
    const desired = layout(4);
    const { result, state } = await applyOnce(emu, dir, desired, {
      tamper: (plan) => {
        // The school rejects this URL (422 `format`); the client sends it, as it checks only shape.
        const step = plan.changes.find((c): c is CreateStep => c.action === 'create' && c.key === 's1')!;
        step.request.settings_embed_host_a = 'https://example.com/not-a-video';
      },
    });
    const byKey = new Map(result.outcomes.map((o) => [o.step.key, o]));
    const failed = byKey.get('s1')!;
    expect(failed.status).toBe('failed');
    if (failed.status === 'failed') expect(failed.error.message).toMatch(/POST \/lessons answered 422: Invalid arguments: \/settings_embed_host_a format/);
    expect(['s2', 's3'].map((k) => byKey.get(k)!.status)).toEqual(['skipped', 'skipped']);
    expect(result.outcomes.filter((o) => o.status === 'done')).toHaveLength(20 - 3);
    // The state holds exactly the lessons that exist, where the school has them, and nothing pending.
    expect(state.lessons.s1).toBeUndefined();
    expect(state.pending).toEqual({});
    const school = await schoolSections(emu);
    expect(school.get('sec_start')!.map((l) => l.id)).toEqual([state.lessons.s0!.id]);
    // A second apply (a fresh plan) converges.
    const second = await applyOnce(emu, dir, desired);
    expect(second.result.outcomes.map((o) => `${o.step.call_id}:${o.status}`)).toEqual(['create:s1:done', 'create:s2:done', 'create:s3:done']);
    await expectConverged(emu, dir, desired);
  });

  it('a refused token (401) stops every chain at once', async () => {
    const dir = await tempDir('401');
    const { result } = await applyOnce(emu, dir, layout(2), { token: 'tok_wrong_key', concurrency: 1 });
    expect(result.outcomes.filter((o) => o.status === 'failed')).toHaveLength(1);
    expect(result.outcomes.filter((o) => o.status === 'skipped')).toHaveLength(9);
    expect(emu.stats().requests).toBe(1);
  });

  it('a position mismatch (a lesson added in the school meanwhile) is reported and read back, so the state is the truth again', async () => {
    const dir = await tempDir('mismatch');
    await applyOnce(emu, dir, layout(2));
    // Someone adds a lesson at the top of sec_start in the school's UI: s0 and s1 shift down.
    await clientOf(emu).lessons.create({ section_id: 'sec_start', name: 'Added in the UI', position: 1 });
    // An edit of s0 is an update in place: the plan predicts position 1, the school answers 2.
    const desired = desiredOf({
      prog_intro: { sec_start: [{ key: 's0', fields: { drip_delay: 3 } }, 's1'], sec_types: ['t0', 't1'], sec_tooling: ['o0', 'o1'] },
      prog_advanced: { sec_generics: ['g0', 'g1'], sec_patterns: ['p0', 'p1'] },
    });
    const store = await StateStore.load(dir, { lock: true });
    const plan = planFor(desired, store, emu);
    const result = await applyPlan(plan, { client: clientOf(emu), store, concurrency: 4 });
    expect(result.mismatches.map((m) => [m.step.key, m.expected.position, m.got.position])).toEqual([['s0', 1, 2]]);
    // Marked for a read-back: a pending `PATCH {}` record, which survives a kill.
    expect(Object.values(store.data.pending)).toMatchObject([{ action: 'read-back', key: 's0', fields: [] }]);
    const readBack = await resolvePendingCalls(store, clientOf(emu), { concurrency: 4 });
    expect(readBack.refreshed).toEqual(['s0', 's1']);
    await store.close();
    const school = await schoolSections(emu);
    const reloaded = await StateStore.load(dir);
    expect(reloaded.data.pending).toEqual({});
    expect(['s0', 's1'].map((k) => reloaded.data.lessons[k]!.position)).toEqual([2, 3]);
    expect(school.get('sec_start')!.map((l) => l.position)).toEqual([1, 2, 3]);
    expect(planFor(desired, reloaded, emu).changes.filter(isCall)).toEqual([]);
  });

  it('pending records of a killed apply: a create becomes uncertain; a move is read back and the next apply converges', async () => {
    const dir = await tempDir('killed');
    await applyOnce(emu, dir, layout(2));
    // Killed mid-call: a move of t1 to the top of sec_start reached the school, its result was never recorded;
    // and a create of t9 was recorded as pending and nothing more is known.
    const store = await StateStore.load(dir, { lock: true });
    const t1 = store.data.lessons.t1!;
    await store.beginCall('move:t1', { action: 'move', key: 't1', lesson_id: t1.id, request: `PATCH /lessons/${t1.id}`, fields: ['position', 'section_id'], started_at: new Date().toISOString() });
    await clientOf(emu).lessons.update(t1.id!, { section_id: 'sec_start', position: 1 });
    await store.beginCall('create:t9', { action: 'create', key: 't9', lesson_id: null, request: 'POST /lessons', fields: ['name', 'section_id'], started_at: '2026-01-01T00:00:00.000Z', name: 'Lesson t9', section_id: 'sec_types' });
    const resolved = await resolvePendingCalls(store, clientOf(emu), { concurrency: 2 });
    expect(resolved.uncertain).toEqual(['t9']);
    expect(resolved.refreshed).toEqual(['s0', 's1', 't0', 't1']);
    expect(store.data.pending).toEqual({});
    expect(store.data.lessons.t9).toMatchObject({ id: null, position: null, uncertain: { name: 'Lesson t9', section_id: 'sec_types', since: '2026-01-01T00:00:00.000Z' } });
    expect(store.data.lessons.t1).toMatchObject({ section_id: 'sec_start', position: 1 });
    expect(store.data.lessons.s0).toMatchObject({ section_id: 'sec_start', position: 2 });
    // The next plan shows the uncertain create with what to do, and moves t1 back.
    const desired = layout(2);
    const plan = planFor(desired, store, emu);
    expect(plan.changes.find((c) => c.action === 'uncertain')).toMatchObject({ key: 't9', hint: expect.stringMatching(/coursesync import <lesson id> --key t9.*apply --recreate t9/) });
    expect(plan.changes.filter(isCall).map((c) => c.call_id)).toEqual(['move:t1']);
    await store.close();
    const { result } = await applyOnce(emu, dir, desired);
    expect(result.outcomes.map((o) => o.status)).toEqual(['done']);
    await expectConverged(emu, dir, desired);
  });
});
