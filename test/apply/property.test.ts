/**
 * Property test of plan + apply against the real emulator: 300 seeded scenarios of inserts,
 * removals, shuffles, cross-section (and cross-program) moves and field edits over five
 * sections. Each scenario applies a first layout, reloads the state from its file, then applies
 * the changed layout once and checks:
 * - every call succeeded and every answered position was the predicted one;
 * - the school's order (GET /__emulator/state) equals the desired order in every section;
 * - the requests sent equal the plan's calls, and that equals an independently computed
 *   minimum: creates + cross-section moves + removals that need a call + per section, staying
 *   lessons minus the longest run of unchanged ones already in desired order;
 * - the state's positions equal the school's, and a second plan is empty;
 * - every answered position, and where every lesson of the school ends up, equal what an
 *   independent oracle of the school's position rules (test/school/position-oracle.ts, no code
 *   shared with src/school-api/positions.ts) says for the requests sent, in chain order.
 * In-process (the exported diffCourse and applyPlan, the code `coursesync apply` runs), states
 * on tmpfs: the whole run takes seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/apply-plan.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { DesiredState } from '../../src/model/desired.js';
import { diffCourse } from '../../src/plan/diff-course.js';
import type { Plan } from '../../src/plan/plan-schema.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { StateStore } from '../../src/state/state-store.js';
import { desiredOf, lisLength, sectionIdsOf, seededRandom, shuffle, type LessonSpec } from '../plan/build-course.js';
import { PositionOracle } from '../school/position-oracle.js';
import { clientOf, removeTempDirs, resetEmulator, schoolSections, startTestEmulator, tempDir } from './helpers.js';

const SCENARIOS = 300;
const PROGRAMS: Record<string, string[]> = {
  prog_intro: ['sec_start', 'sec_types', 'sec_tooling'],
  prog_advanced: ['sec_generics', 'sec_patterns'],
};
const ALL_SECTIONS = Object.values(PROGRAMS).flat();
const programOf = (s: string) => Object.keys(PROGRAMS).find((p) => PROGRAMS[p]!.includes(s))!;

type Layout = Map<string, LessonSpec[]>;

function toDesired(layout: Layout, keep: boolean): DesiredState {
  const programs: Record<string, Record<string, LessonSpec[]>> = {};
  for (const [section, lessons] of layout) (programs[programOf(section)] ??= {})[section] = lessons;
  return desiredOf(programs, keep ? { removed_lessons: 'keep' } : { removed_lessons: 'unpublish', archive: 'sec_archive' });
}

function scenario(seed: number) {
  const rnd = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  let next = 0;
  const first: Layout = new Map(ALL_SECTIONS.map((s) => [s, Array.from({ length: Math.floor(rnd() * 6) }, () => ({ key: `k${next++}` }))]));
  const second: Layout = new Map([...first].map(([s, l]) => [s, l.map((x) => ({ ...x }))]));
  const removed: string[] = [];
  const crossMoved = new Set<string>();
  const edited = new Set<string>();
  for (const section of ALL_SECTIONS) {
    const lessons = second.get(section)!;
    for (const l of [...lessons]) {
      const r = rnd();
      if (r < 0.12) {
        lessons.splice(lessons.indexOf(l), 1);
        removed.push(l.key);
      } else if (r < 0.24) {
        lessons.splice(lessons.indexOf(l), 1);
        const dest = second.get(pick(ALL_SECTIONS.filter((s) => s !== section)))!;
        dest.splice(Math.floor(rnd() * (dest.length + 1)), 0, l);
        crossMoved.add(l.key);
      } else if (r < 0.32) {
        l.fields = { drip_delay: 1 + Math.floor(rnd() * 30) };
        edited.add(l.key);
      }
    }
  }
  for (const section of ALL_SECTIONS) {
    let lessons = second.get(section)!;
    const r = rnd();
    if (r < 0.3) lessons = shuffle(lessons, rnd);
    else if (r < 0.7 && lessons.length > 1) {
      const i = Math.floor(rnd() * lessons.length);
      const j = Math.floor(rnd() * lessons.length);
      [lessons[i], lessons[j]] = [lessons[j]!, lessons[i]!];
    }
    for (let n = Math.floor(rnd() * 3); n > 0; n--) lessons.splice(Math.floor(rnd() * (lessons.length + 1)), 0, { key: `k${next++}` });
    second.set(section, lessons);
  }
  return { first, second, removed, crossMoved, edited, keep: rnd() < 0.25 };
}

/** The minimum number of calls, computed without the planner. */
function expectedCalls(s: ReturnType<typeof scenario>): number {
  const before = new Map<string, { section: string; index: number }>();
  for (const [section, lessons] of s.first) lessons.forEach((l, index) => before.set(l.key, { section, index }));
  let calls = s.keep ? 0 : s.removed.length;
  for (const [section, lessons] of s.second) {
    const staying: Array<{ oldIndex: number; desiredIndex: number; unchanged: boolean }> = [];
    lessons.forEach((l, desiredIndex) => {
      const was = before.get(l.key);
      if (!was || was.section !== section) calls++; // create, or a move from another section
      else staying.push({ oldIndex: was.index, desiredIndex, unchanged: !s.edited.has(l.key) });
    });
    staying.sort((a, b) => a.oldIndex - b.oldIndex);
    calls += staying.length - lisLength(staying.filter((x) => x.unchanged).map((x) => x.desiredIndex));
  }
  return calls;
}

const callCount = (plan: Plan) => plan.changes.filter(isCall).length;

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu?.close();
  await removeTempDirs();
});

/** The oracle seeded with the school as it is now (the seed's lessons, right after a reset). */
async function oracleOfSchool(): Promise<PositionOracle> {
  const school = await schoolSections(emu);
  return new PositionOracle([...school].flatMap(([section, lessons]) => lessons.map((l) => ({ lesson: l.id, section, position: l.position }))));
}

/** Every lesson's seat in the school (GET /__emulator/state). */
async function seatsOfSchool(): Promise<Map<string, { section: string; position: number }>> {
  const school = await schoolSections(emu);
  return new Map([...school].flatMap(([section, lessons]) => lessons.map((l) => [l.id, { section, position: l.position }] as const)));
}

async function applyLayout(dir: string, desired: DesiredState, oracle: PositionOracle): Promise<{ plan: Plan; requests: number }> {
  const store = await StateStore.load(dir, { lock: true });
  try {
    const plan = diffCourse(desired, store.data, { sectionIds: sectionIdsOf(desired), baseUrl: emu.url });
    await store.update((d) => {
      d.base_url = emu.url;
    });
    const before = emu.stats().requests;
    const result = await applyPlan(plan, { client: clientOf(emu), store, concurrency: 4 });
    const failures = result.outcomes.filter((o) => o.status !== 'done').map((o) => `${o.step.call_id}: ${o.status}`);
    expect(failures).toEqual([]);
    expect(result.mismatches.map((m) => m.step.call_id)).toEqual([]);
    expect(Object.keys(store.data.pending)).toEqual([]);
    // Replay the requests through the oracle, chain by chain (every section's calls are in one
    // chain, so this is the order the school saw them in for each section).
    const outcomes = new Map(result.outcomes.map((o) => [o.step.call_id, o]));
    for (const chain of plan.chains) {
      for (const id of chain.steps) {
        const o = outcomes.get(id)!;
        if (o.status !== 'done') continue;
        const want =
          o.step.action === 'create'
            ? oracle.create(o.lesson.id, o.step.request as { section_id: string; position?: number })
            : oracle.update(o.step.lesson_id!, o.step.request);
        expect(o.lesson.position, `${id}: the school's answer against the position oracle`).toBe(want);
      }
    }
    return { plan, requests: emu.stats().requests - before };
  } finally {
    await store.close();
  }
}

describe(`plan + apply converge in one apply with the minimum number of calls (${SCENARIOS} seeded scenarios)`, () => {
  it('every scenario', async () => {
    let totalCalls = 0;
    let crossMoves = 0;
    for (let seed = 1; seed <= SCENARIOS; seed++) {
      const s = scenario(seed);
      await resetEmulator(emu);
      const oracle = await oracleOfSchool();
      const dir = await tempDir(`prop-${seed}`);
      await applyLayout(dir, toDesired(s.first, s.keep), oracle);
      const desired = toDesired(s.second, s.keep);
      const { plan, requests } = await applyLayout(dir, desired, oracle);
      const context = `seed ${seed}`;
      expect(await seatsOfSchool(), `${context}: every lesson where the position oracle puts it`).toEqual(oracle.where());
      expect(requests, context).toBe(callCount(plan));
      expect(callCount(plan), context).toBe(expectedCalls(s));
      totalCalls += requests;
      crossMoves += s.crossMoved.size;

      // The school's order equals the desired order (orphans kept in place are not part of it).
      const store = await StateStore.load(dir);
      const school = await schoolSections(emu);
      for (const [section, lessons] of s.second) {
        const want = lessons.map((l) => store.data.lessons[l.key]!.id);
        const mine = new Set(want);
        const got = school.get(section)!.map((l) => l.id).filter((id) => s.keep || mine.has(id));
        expect(got.filter((id) => mine.has(id)), `${context}: order of ${section}`).toEqual(want);
        if (!s.keep) expect(got.length, `${context}: ${section} holds only desired lessons`).toBe(want.length);
      }
      // The state's positions are the school's.
      const live = new Map([...school.values()].flat().map((l) => [l.id, l]));
      for (const [key, l] of Object.entries(store.data.lessons)) {
        expect({ key, section: l.section_id, position: l.position }, context).toEqual({ key, section: live.get(l.id!)!.section_id, position: live.get(l.id!)!.position });
      }
      // A second plan is empty.
      const again = diffCourse(desired, store.data, { sectionIds: sectionIdsOf(desired), baseUrl: emu.url });
      expect(callCount(again), context).toBe(0);
      expect(again.summary.uncertain + again.summary.drift, context).toBe(0);
    }
    // The scenarios did exercise the interesting cases.
    expect(totalCalls).toBeGreaterThan(SCENARIOS * 3);
    expect(crossMoves).toBeGreaterThan(SCENARIOS / 2);
    // About 20 s on a quiet machine, several times that under load (it once passed the old 60 s default).
  }, 600_000);
});
