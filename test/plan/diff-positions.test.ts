import { describe, expect, it } from 'vitest';
import { diffCourse } from '../../src/plan/diff-course.js';
import type { Plan } from '../../src/plan/plan-schema.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { simulatePlan } from '../../src/plan/simulate-plan.js';
import type { DesiredState } from '../../src/model/desired.js';
import type { StateData } from '../../src/model/state/schema.js';
import { desiredOf, fieldsOf, lisLength, sectionIdsOf, seededRandom, shuffle, stateOf } from './build-course.js';

function plan(desired: DesiredState, state: StateData): Plan {
  return diffCourse(desired, state, { sectionIds: sectionIdsOf(desired) });
}

/** Every desired section holds its lessons in desired order after the plan, and predictions hold. */
function expectConverges(desired: DesiredState, state: StateData, p: Plan): void {
  const { sections, mispredicted } = simulatePlan(state, p);
  expect(mispredicted).toEqual([]);
  for (const prog of desired.programs) {
    for (const s of prog.sections) {
      const id = 'id' in s.ref ? s.ref.id : '';
      const want = s.lessons.map((l) => l.key);
      const got = (sections.get(id) ?? []).map((l) => l.key).filter((k) => want.includes(k));
      expect(got).toEqual(want);
    }
  }
}

const calls = (p: Plan) => p.changes.filter(isCall).length;

describe('positions: minimal calls and exact predictions', () => {
  const cases: Array<{ name: string; before: Record<string, Record<string, string[] | Record<string, number>>>; after: Record<string, Record<string, string[]>>; calls: number }> = [
    { name: 'nothing changed', before: { p: { s1: ['a', 'b', 'c'] } }, after: { p: { s1: ['a', 'b', 'c'] } }, calls: 0 },
    { name: 'insert at the front', before: { p: { s1: ['a', 'b', 'c'] } }, after: { p: { s1: ['x', 'a', 'b', 'c'] } }, calls: 1 },
    { name: 'insert in the middle', before: { p: { s1: ['a', 'b', 'c'] } }, after: { p: { s1: ['a', 'x', 'b', 'c'] } }, calls: 1 },
    { name: 'insert at the end', before: { p: { s1: ['a', 'b', 'c'] } }, after: { p: { s1: ['a', 'b', 'c', 'x'] } }, calls: 1 },
    { name: 'reverse of 5', before: { p: { s1: ['a', 'b', 'c', 'd', 'e'] } }, after: { p: { s1: ['e', 'd', 'c', 'b', 'a'] } }, calls: 4 },
    { name: 'last to first', before: { p: { s1: ['a', 'b', 'c', 'd'] } }, after: { p: { s1: ['d', 'a', 'b', 'c'] } }, calls: 1 },
    { name: 'gaps are respected', before: { p: { s1: { a: 2, b: 7, c: 9 } } }, after: { p: { s1: ['c', 'a', 'x', 'b'] } }, calls: 2 },
    { name: 'move into another section', before: { p: { s1: ['a', 'b', 'c'], s2: ['d'] } }, after: { p: { s1: ['a', 'c'], s2: ['b', 'd'] } }, calls: 1 },
    {
      name: 'moves out of a section that also reorders (one chain)',
      before: { p: { s1: ['a', 'b', 'c', 'd'], s2: ['e'] } },
      after: { p: { s1: ['d', 'a', 'c'], s2: ['e', 'b'] } },
      calls: 2,
    },
    {
      name: 'into the gap left by an earlier move',
      before: { p: { s1: ['a', 'b', 'c'], s2: ['d', 'e'] } },
      after: { p: { s1: ['a', 'e', 'c'], s2: ['d', 'b'] } },
      calls: 2,
    },
    { name: 'a lesson moved to another program', before: { p: { s1: ['a', 'b'] }, q: { s9: ['z'] } }, after: { p: { s1: ['a'] }, q: { s9: ['b', 'z'] } }, calls: 1 },
    {
      name: 'swap between two sections both ways',
      before: { p: { s1: ['a', 'b'], s2: ['c', 'd'] } },
      after: { p: { s1: ['a', 'c'], s2: ['b', 'd'] } },
      calls: 2,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const desired = desiredOf(c.after);
      const state = stateOf(c.before);
      const p = plan(desired, state);
      expect(calls(p)).toBe(c.calls);
      expectConverges(desired, state, p);
    });
  }

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('random shuffle (seed %i) costs n − LIS calls', (seed) => {
    const rnd = seededRandom(seed);
    const keys = Array.from({ length: 40 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    const order = shuffle(keys, rnd);
    const desired = desiredOf({ p: { s1: order } });
    const state = stateOf({ p: { s1: keys } });
    const p = plan(desired, state);
    const desiredIndex = new Map(order.map((k, i) => [k, i]));
    expect(calls(p)).toBe(keys.length - lisLength(keys.map((k) => desiredIndex.get(k)!)));
    expectConverges(desired, state, p);
  });

  it.each([11, 12, 13, 14])('random moves across three sections with gaps (seed %i) converge', (seed) => {
    const rnd = seededRandom(seed);
    const keys = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}`);
    const before: Record<string, Record<string, number>> = { s1: {}, s2: {}, s3: {} };
    keys.forEach((k, i) => (before[`s${(i % 3) + 1}`]![k] = i * 2 + 1));
    const after: Record<string, string[]> = { s1: [], s2: [], s3: [] };
    for (const k of shuffle([...keys, 'n1', 'n2', 'n3'], rnd).slice(0, 28)) after[`s${Math.floor(rnd() * 3) + 1}`]!.push(k);
    const desired = desiredOf({ p: after });
    const state = stateOf({ p: before });
    const p = plan(desired, state);
    expectConverges(desired, state, p);
    // A second plan from the simulated result needs no call.
    const { sections } = simulatePlan(state, p);
    const next: Record<string, Record<string, number>> = {};
    for (const [sid, list] of sections) next[sid] = Object.fromEntries(list.map((l) => [l.key, l.position]));
    const state2 = stateOf({ p: next });
    for (const k of Object.keys(state.lessons)) if (!after.s1!.concat(after.s2!, after.s3!).includes(k)) delete state2.lessons[k];
    expect(calls(plan(desired, state2))).toBe(0);
  });

  it('rename through aliases with a reorder: the remote lesson moves, nothing is created', () => {
    const desired = desiredOf({ p: { s1: [{ key: 'renamed', aliases: ['c'], fields: { name: 'Lesson c', body: '<p>Body of c</p>' } }, 'a', 'b'] } });
    const state = stateOf({ p: { s1: ['a', 'b', 'c'] } });
    const p = plan(desired, state);
    expect(p.changes.filter(isCall).map((c) => [c.action, c.key, c.lesson_id])).toEqual([['move', 'renamed', 'id_c']]);
    expect(p.renames).toEqual([{ from: 'c', to: 'renamed' }]);
    expectConverges(desired, state, p);
  });

  it.each([
    ['keep', {}, 0],
    ['unpublish', { removed_lessons: 'unpublish' as const }, 2],
    ['unpublish + archive', { removed_lessons: 'unpublish' as const, archive: 'arch' }, 2],
  ])('delete under policy %s while the section reorders', (_name, config, unpublishCalls) => {
    const desired = desiredOf({ p: { s1: ['e', 'a', 'c'] } }, config);
    // z was archived by an earlier apply (already unpublished): it needs nothing more.
    const state = stateOf({ p: { s1: ['a', 'b', 'c', 'd', 'e'] }, q: { arch: { z: 4 } } }, { z: { applied: fieldsOf('z', { is_published: false }) } });
    const p = plan(desired, state);
    expect(p.changes.filter((c) => c.action === 'unpublish')).toHaveLength(unpublishCalls);
    expect(p.changes.filter(isCall)).toHaveLength(1 + unpublishCalls);
    expectConverges(desired, state, p);
    if ('archive' in config) {
      const arch = simulatePlan(state, p).sections.get('arch')!.map((l) => l.key);
      expect(arch).toEqual(['z', 'b', 'd']);
      // The archive and s1 are linked by departures from s1, which has calls of its own: one chain.
      expect(p.chains).toHaveLength(1);
    }
  });


  it('prefers keeping unchanged lessons over changed ones', () => {
    // b is edited; moving b (which needs a call anyway) beats moving a and c.
    const desired = desiredOf({ p: { s1: ['a', 'c', { key: 'b', fields: { name: 'New' } }] } });
    const state = stateOf({ p: { s1: ['a', 'b', 'c'] } });
    const p = plan(desired, state);
    expect(p.changes.filter(isCall).map((c) => `${c.action}:${c.key}`)).toEqual(['move:b']);
    expectConverges(desired, state, p);
  });

  it('chains: independent sections run separately, a departure from a busy section joins them', () => {
    const desired = desiredOf({ p: { s1: ['x', 'a'], s2: ['y', 'c'], s3: ['d', 'b'] } });
    const state = stateOf({ p: { s1: ['a', 'b'], s2: ['c'], s3: ['d'] } });
    const p = plan(desired, state);
    expect(p.chains.map((c) => c.sections).sort()).toEqual([['s1', 's3'], ['s2']]);
    expectConverges(desired, state, p);
  });
});
