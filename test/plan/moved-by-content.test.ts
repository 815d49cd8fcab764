/**
 * A lesson whose key the state does not know but whose fields are exactly those the state last
 * applied for one unclaimed lesson is that lesson, moved (renamed by content); when two state
 * lessons would fit, or the fields differ, nothing is guessed.
 */
import { describe, expect, it } from 'vitest';
import { diffCourse } from '../../src/plan/diff-course.js';
import { desiredOf, sectionIdsOf, stateOf } from './build-course.js';

const same = { name: 'Homework', body: '<p>Write compose(f, g).</p>' };

describe('a moved lesson matched by its unchanged content', () => {
  it('keeps its school lesson: a rename and one move, no create, no orphan', () => {
    const desired = desiredOf({ p: { s1: ['intro'], s2: [{ key: 'functions.homework', fields: same }] } });
    const plan = diffCourse(desired, stateOf({ p: { s1: ['intro', { key: 'objects.homework', fields: same }] } }), { sectionIds: sectionIdsOf(desired) });
    expect(plan.renames).toEqual([{ from: 'objects.homework', to: 'functions.homework', by: 'content' }]);
    expect(plan.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['move functions.homework']);
  });

  it('guesses nothing when two unclaimed state lessons fit, or when the content changed', () => {
    const desired = desiredOf({ p: { s2: [{ key: 'functions.homework', fields: same }] } });
    const two = stateOf({ p: { s1: [{ key: 'a.homework', fields: same }, { key: 'b.homework', fields: same }] } });
    expect(diffCourse(desired, two, { sectionIds: sectionIdsOf(desired) }).renames).toEqual([]);
    const edited = stateOf({ p: { s1: [{ key: 'objects.homework', fields: { ...same, body: '<p>Old text.</p>' } }] } });
    const plan = diffCourse(desired, edited, { sectionIds: sectionIdsOf(desired) });
    expect(plan.renames).toEqual([]);
    expect(plan.changes.map((c) => `${c.action} ${c.key}`)).toEqual(['create functions.homework', 'orphan objects.homework']);
  });
});
