import { describe, expect, it } from 'vitest';
import { recordSuccess } from '../../src/apply/record-call.js';
import { diffCourse } from '../../src/plan/diff-course.js';
import type { CallStep } from '../../src/plan/plan-schema.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { simulateCall, slotsFromState } from '../../src/plan/simulate-plan.js';
import type { Lesson } from '../../src/school-api/wire/lessons.js';
import { desiredOf, fieldsOf, sectionIdsOf, stateOf } from '../plan/build-course.js';

/** The state's positions after each call, with the school's answers simulated by the shared model. */
function applyAnswers(before: Record<string, Record<string, string[]>>, after: Record<string, Record<string, string[]>>) {
  const desired = desiredOf(after);
  const state = stateOf(before);
  const plan = diffCourse(desired, state, { sectionIds: sectionIdsOf(desired) });
  const school = slotsFromState(state);
  const draft = structuredClone(state);
  const byId = new Map(plan.changes.filter(isCall).map((c) => [c.call_id, c] as const));
  for (const chain of plan.chains) {
    for (const id of chain.steps) {
      const step = byId.get(id) as CallStep;
      const answered = simulateCall(school, step);
      const section = school.sectionOf(step.key)!;
      // The school's answer: the lesson with its id, where the shared position model puts it.
      const lesson = { ...fieldsOf(step.key), id: step.lesson_id ?? `id_${step.key}`, section_id: section, position: answered } as unknown as Lesson;
      recordSuccess(draft, step, lesson);
      // After every call, every tracked lesson the school holds is where the state says.
      for (const [section, list] of school.snapshot()) {
        for (const { lesson, position } of list) {
          if (draft.lessons[lesson]) expect(draft.lessons[lesson]).toMatchObject({ section_id: section, position });
        }
      }
    }
  }
  return draft;
}

describe('recordSuccess keeps state positions as the school has them after each call', () => {
  it('a reorder that shifts the rest of the section', () => {
    const draft = applyAnswers({ p: { s1: ['a', 'b', 'c', 'd', 'e'] } }, { p: { s1: ['e', 'd', 'a', 'b', 'c'] } });
    const order = Object.entries(draft.lessons).sort((x, y) => x[1].position! - y[1].position!).map(([k]) => k);
    expect(order).toEqual(['e', 'd', 'a', 'b', 'c']);
  });

  it('a move out of one section (a gap stays) into another (later lessons shift)', () => {
    const draft = applyAnswers({ p: { s1: ['a', 'b', 'c'], s2: ['x', 'y'] } }, { p: { s1: ['a', 'c'], s2: ['b', 'x', 'y'] } });
    expect(draft.lessons['a']).toMatchObject({ section_id: 's1', position: 1 });
    expect(draft.lessons['c']).toMatchObject({ section_id: 's1', position: 3 });
    expect(draft.lessons['b']).toMatchObject({ section_id: 's2', position: 1 });
    expect(draft.lessons['x']!.position).toBeGreaterThan(1);
  });
});
