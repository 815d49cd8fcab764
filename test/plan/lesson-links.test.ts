import { describe, expect, it } from 'vitest';
import { lessonLinkMarker, showPendingLinks } from '../../src/model/lesson-links.js';
import { linkLessons } from '../../src/plan/lesson-links.js';
import { explainReferences } from '../../src/plan/explain-references.js';
import { diffCourse } from '../../src/plan/diff-course.js';
import { desiredOf, sectionIdsOf, stateOf } from './build-course.js';

const URL = 'https://academy.example.com/products/{program_id}/lessons/{lesson_id}';

function course() {
  const desired = desiredOf(
    {
      prog_a: {
        sec_1: [
          { key: 'a', fields: { body: `<p><a href="${lessonLinkMarker('b')}#setup">b</a> <a href="${lessonLinkMarker('c')}">c</a> <a href="${lessonLinkMarker('c')}#part">c</a></p>`, description: `<p><a href="${lessonLinkMarker('b')}">b</a></p>` } },
          { key: 'b', aliases: ['old-b'] },
        ],
      },
      prog_z: { sec_9: ['c'] },
    },
    { school: { lesson_url: URL } },
  );
  desired.programs[0]!.sections[0]!.lessons[0]!.links = ['b', 'c'];
  return desired;
}

describe('linkLessons: links between lessons get the school lesson URL', () => {
  it('takes ids from state (a renamed target through its alias) and leaves a new target pending', () => {
    const state = stateOf({ prog_a: { sec_1: ['a', 'old-b'] } });
    const linked = linkLessons(course(), state);
    const a = linked.desired.programs[0]!.sections[0]!.lessons[0]!;
    // The new target's marker stays for apply to fill in when it sends the lesson.
    expect(a.fields.body).toBe(`<p><a href="https://academy.example.com/products/prog_a/lessons/id_old-b#setup">b</a> <a href="${lessonLinkMarker('c')}">c</a> <a href="${lessonLinkMarker('c')}#part">c</a></p>`);
    expect(showPendingLinks(a.fields.body)).toBe('<p><a href="https://academy.example.com/products/prog_a/lessons/id_old-b#setup">b</a> <a href="#">c</a> <a href="#part">c</a></p>');
    expect(a.fields.description).toBe('<p><a href="https://academy.example.com/products/prog_a/lessons/id_old-b">b</a></p>');
    expect(linked.pending).toEqual(new Map([['a', ['c']]]));
    const plan = explainReferences(diffCourse(linked.desired, state, { sectionIds: sectionIdsOf(linked.desired) }), linked.desired, linked.pending);
    expect(plan.changes.find((c) => c.key === 'a')).toMatchObject({ action: 'update', why: ['links to c, created by this apply: filled in when sent if created by then, else patched right after'] });
    // The repo's digest is the repo's: links do not make a saved plan stale.
    expect(linked.desired.digest).toBe(course().digest);
  });

  it('with no target known yet (a first apply), every lesson is the compiled one, not a copy', () => {
    const desired = course();
    const linked = linkLessons(desired, stateOf({}));
    expect(linked.pending).toEqual(new Map([['a', ['b', 'c']]]));
    const a = desired.programs[0]!.sections[0]!.lessons[0]!;
    expect(linked.desired.programs[0]!.sections[0]!.lessons[0]).toBe(a);
    expect(linked.desired.programs[0]!.sections[0]!.lessons[0]!.fields.body).toBe(a.fields.body);
  });

  it('once every target has an id nothing is pending, and the program id is the target\'s', () => {
    const state = stateOf({ prog_a: { sec_1: ['a', 'b'] }, prog_z: { sec_9: ['c'] } });
    const linked = linkLessons(course(), state);
    expect(linked.pending.size).toBe(0);
    expect(linked.desired.programs[0]!.sections[0]!.lessons[0]!.fields.body).toContain('href="https://academy.example.com/products/prog_z/lessons/id_c"');
  });

  it('a plan of the linked state updates exactly the lesson whose link target got an id', () => {
    const pendingState = stateOf({ prog_a: { sec_1: ['a', 'b'] } });
    const linkedFirst = linkLessons(course(), pendingState).desired.programs[0]!.sections[0]!.lessons[0]!.fields;
    // As apply sends it when `c` does not exist yet: the pending link as the page itself.
    const first = { ...linkedFirst, body: showPendingLinks(linkedFirst.body) };
    // As if the first pass applied `a` with its link pending and created `c`.
    const state = stateOf({ prog_a: { sec_1: [{ key: 'a', fields: first }, 'b'] }, prog_z: { sec_9: ['c'] } });
    const linked = linkLessons(course(), state);
    const plan = explainReferences(diffCourse(linked.desired, state, { sectionIds: sectionIdsOf(linked.desired) }), linked.desired);
    expect(plan.changes.map((c) => [c.action, c.key, c.fields.map((f) => f.field)])).toEqual([['update', 'a', ['body']]]);
  });
});
