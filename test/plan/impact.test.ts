import { describe, expect, it } from 'vitest';
import { diffCourse } from '../../src/plan/diff-course.js';
import type { CourseConfig } from '../../src/model/config.js';
import type { SectionFacts } from '../../src/learner/learner-model.js';
import { desiredOf, sectionIdsOf, stateOf } from './build-course.js';

type Programs = Parameters<typeof desiredOf>[0];

/** The impact of going from `before` (applied, in state) to `after` (the repo). */
function impactOf(before: Programs, after: Programs, config: Partial<CourseConfig> = {}, sections?: Record<string, SectionFacts>) {
  const desired = desiredOf(after, config);
  const plan = diffCourse(desired, stateOf(before), { sectionIds: sectionIdsOf(desired), sections: sections && new Map(Object.entries(sections)) });
  return plan.impact.map(({ level, rule, key, message, acknowledged }) => ({ level, rule, key, message, acknowledged }));
}

const locked = (key: string) => ({ key, fields: { is_progression_locked: true } });
const drip = (key: string, drip_delay: number) => ({ key, fields: { drip_delay } });
const draft = (key: string) => ({ key, fields: { is_published: false } });

describe('learner impact of a plan', () => {
  const rows: Array<{ name: string; before: Programs; after: Programs; config?: Partial<CourseConfig>; sections?: Record<string, SectionFacts>; want: Array<[string, string, string, RegExp]> }> = [
    { name: 'no change, no impact', before: { p: { s1: ['a', 'b'] } }, after: { p: { s1: ['a', 'b'] } }, want: [] },
    // An update of what learners do not see is quiet: no views are built for it.
    { name: 'a body edited in place, no impact', before: { p: { s1: ['a', 'b'] } }, after: { p: { s1: [{ key: 'a', fields: { body: '<p>new</p>' } }, 'b'] } }, want: [] },
    {
      name: 'a body edited with a drip that grows: the update is not quiet',
      before: { p: { s1: ['a', drip('b', 14)] } },
      after: { p: { s1: ['a', { key: 'b', fields: { body: '<p>new</p>', drip_delay: 21 } }] } },
      want: [['error', 'drip-grows', 'b', /"Lesson b" unlocks on day 21 instead of 14/]],
    },
    {
      name: 'a quiet update beside a lock added in another program: that program only',
      before: { p: { s1: ['a', 'b'] }, q: { s9: ['c', 'd'] } },
      after: { p: { s1: [{ key: 'a', fields: { body: '<p>new</p>' } }, 'b'] }, q: { s9: [locked('c'), 'd'] } },
      want: [['error', 'lock-added', 'c', /gates 1 published lesson after it until learners complete it: d/]],
    },
    {
      name: 'a published lesson becomes a draft',
      before: { p: { s1: ['a', 'b'] } },
      after: { p: { s1: ['a', draft('b')] } },
      want: [['error', 'unpublished', 'b', /"Lesson b" becomes hidden \(a draft\): learners lose access/]],
    },
    {
      name: 'a removed lesson is archived (removed_lessons: unpublish, archive)',
      before: { p: { s1: ['a', 'b'] } },
      after: { p: { s1: ['a'] } },
      config: { removed_lessons: 'unpublish', archive: 'attic' },
      want: [['error', 'archived', 'b', /archived into section attic/]],
    },
    {
      name: 'a lock added in front of published lessons',
      before: { p: { s1: ['a', 'b'], s2: ['c'] } },
      after: { p: { s1: [locked('a'), 'b'], s2: ['c'] } },
      want: [['error', 'lock-added', 'a', /lock on "Lesson a" now gates 2 published lessons after it until learners complete it: b, c/]],
    },
    {
      name: 'a new locked lesson in front of published lessons',
      before: { p: { s1: ['a', 'b'] } },
      after: { p: { s1: [locked('n'), 'a', 'b'] } },
      want: [
        ['error', 'lock-added', 'n', /gates 2 published lessons/],
        ['info', 'new-lesson', 'n', /new lesson "Lesson n" unlocks on day 0/],
      ],
    },
    {
      name: 'a lock on the last lesson gates nothing',
      before: { p: { s1: ['a', 'b'] } },
      after: { p: { s1: ['a', locked('b')] } },
      want: [],
    },
    {
      name: 'the drip delay of a published lesson grows: the unlock-calendar diff',
      before: { p: { s1: ['a', drip('b', 14)] } },
      after: { p: { s1: ['a', drip('b', 21)] } },
      want: [['error', 'drip-grows', 'b', /"Lesson b" unlocks on day 21 instead of 14/]],
    },
    {
      name: 'a lesson leaves for a section that unlocks later',
      before: { p: { s1: ['a', 'b'], s2: ['c'] } },
      after: { p: { s1: ['a'], s2: ['c', 'b'] } },
      sections: { s1: { drip_delay: 0, is_published: true }, s2: { drip_delay: 7, is_published: true } },
      want: [['error', 'later-section', 'b', /moves to p\/s2, which unlocks later: it unlocks on day 7 instead of 0/]],
    },
    {
      name: 'a move between sections that unlock together, with a longer drip, is a drip that grows',
      before: { p: { s1: ['a', drip('b', 1)], s2: ['c'] } },
      after: { p: { s1: ['a'], s2: ['c', drip('b', 5)] } },
      want: [['error', 'drip-grows', 'b', /unlocks on day 5 instead of 1/]],
    },
    {
      name: 'a changed key turns a lesson into create + orphan',
      before: { p: { s1: ['a', 'b'] } },
      after: { p: { s1: ['a', { key: 'b2', fields: { name: 'Lesson b' } }] } },
      want: [
        ['error', 'identity-change', 'b2', /key changes from b to b2: .*left orphaned, so learners lose their progress; add `aliases: \[b\]`/],
        ['info', 'new-lesson', 'b2', /unlocks on day 0/],
      ],
    },
    {
      name: 'the same change with aliases is no identity change',
      before: { p: { s1: ['a', 'b'] } },
      after: { p: { s1: ['a', { key: 'b2', aliases: ['b'] }] } },
      want: [],
    },
    {
      name: 'a lesson type change on a published lesson',
      before: { p: { s1: ['a'] } },
      after: { p: { s1: [{ key: 'a', fields: { lesson_type: 'video' } }] } },
      want: [['warning', 'type-change', 'a', /changes type from text to video/]],
    },
    {
      name: 'a reorder that moves a lesson behind an existing lock',
      before: { p: { s1: ['c', locked('a'), 'b'] } },
      after: { p: { s1: [locked('a'), 'b', 'c'] } },
      want: [['warning', 'behind-lock', 'c', /"Lesson c" moves behind the progression lock of a/]],
    },
    {
      name: 'two existing locks trade places: the lessons now behind the other lock are told',
      before: { p: { s1: [locked('a'), 'b', locked('c'), 'd'] } },
      after: { p: { s1: [locked('c'), 'b', locked('a'), 'd'] } },
      want: [
        ['warning', 'behind-lock', 'a', /"Lesson a" moves behind the progression lock of c/],
        ['warning', 'behind-lock', 'b', /"Lesson b" moves behind the progression lock of c/],
      ],
    },
    {
      name: 'a lesson unlocking earlier shifts its section calendar',
      before: { p: { s1: ['a', drip('b', 14)] } },
      after: { p: { s1: ['a', drip('b', 7)] } },
      want: [['warning', 'calendar-shift', 'b', /unlocks on day 7 instead of 14 \(the unlock calendar of p\/s1 shifts\)/]],
    },
    {
      name: 'a draft is published',
      before: { p: { s1: ['a', draft('b')] } },
      after: { p: { s1: ['a', drip('b', 3)] } },
      want: [['info', 'published', 'b', /draft "Lesson b" is published and unlocks on day 3/]],
    },
    {
      name: 'changes to drafts affect no learner',
      before: { p: { s1: ['a', { key: 'b', fields: { is_published: false, drip_delay: 1 } }] } },
      after: { p: { s1: ['a', { key: 'b', fields: { is_published: false, drip_delay: 9, lesson_type: 'pdf' } }] } },
      want: [],
    },
    // The views cover only the programs a plan touches: each of these fails if a program it
    // touches (the one a lesson leaves, the one holding its archive) is left out of them.
    {
      name: 'a lesson moved into another program, behind its lock, with a third program untouched',
      before: { p: { s1: ['a', 'b'] }, q: { s2: [locked('c'), 'd'] }, r: { s3: [locked('e'), 'f'] } },
      after: { p: { s1: ['a'] }, q: { s2: [locked('c'), 'd', 'b'] }, r: { s3: [locked('e'), 'f'] } },
      want: [['warning', 'behind-lock', 'b', /"Lesson b" moves behind the progression lock of c/]],
    },
    {
      name: 'a removed lesson archived into a section of another program',
      before: { p: { s1: ['a', 'b'] }, q: { s9: ['z'] }, r: { s3: ['e'] } },
      after: { p: { s1: ['a'] }, q: { s9: ['z'] }, r: { s3: ['e'] } },
      config: { removed_lessons: 'unpublish', archive: 's9' },
      want: [['error', 'archived', 'b', /archived into q\/s9/]],
    },
    {
      name: 'a draft toggled in one program of three: only its lessons',
      before: { p: { s1: ['a', 'b'] }, q: { s2: [locked('c'), 'd'] }, r: { s3: ['e'] } },
      after: { p: { s1: ['a', 'b'] }, q: { s2: [locked('c'), draft('d')] }, r: { s3: ['e'] } },
      want: [['error', 'unpublished', 'd', /"Lesson d" becomes hidden \(a draft\)/]],
    },
  ];

  it.each(rows)('$name', ({ before, after, config, sections, want }) => {
    const got = impactOf(before, after, config, sections);
    expect(got.map((i) => [i.level, i.rule, i.key])).toEqual(want.map(([l, r, k]) => [l, r, k]));
    got.forEach((i, n) => expect(i.message).toMatch(want[n]![3]));
  });

  it('a sized rule is acknowledged only up to the size it names: an old acknowledgement does not cover a bigger later change', () => {
    const grown = (days: number, ack: string[]) => {
      const desired = desiredOf({ p: { s1: ['a', drip('b', days)] } });
      desired.programs[0]!.sections[0]!.lessons[1]!.acknowledge = ack;
      return diffCourse(desired, stateOf({ p: { s1: ['a', drip('b', 7)] } }), { sectionIds: sectionIdsOf(desired) }).impact;
    };
    expect(grown(21, ['drip-grows=21'])).toMatchObject([{ rule: 'drip-grows', accepts: '21', acknowledged: true }]);
    expect(grown(14, ['drip-grows=21'])).toMatchObject([{ acknowledged: true }]);
    // The same front-matter, left from the first review, meets a bigger change: not covered.
    expect(grown(30, ['drip-grows=21'])).toMatchObject([{ rule: 'drip-grows', accepts: '30', acknowledged: false }]);
    // A bare sized rule names no size: it accepts nothing.
    expect(grown(21, ['drip-grows'])).toMatchObject([{ acknowledged: false }]);
    const fromConfig = impactOf({ p: { s1: ['a', drip('b', 7)] } }, { p: { s1: ['a', drip('b', 40)] } }, { acknowledge: [{ rule: 'drip-grows=21', lesson: 'b' }] });
    expect(fromConfig).toMatchObject([{ rule: 'drip-grows', acknowledged: false }]);
    const inConfig = impactOf({ p: { s1: ['a', drip('b', 7)] } }, { p: { s1: ['a', drip('b', 40)] } }, { acknowledge: [{ rule: 'drip-grows=40', lesson: 'b' }] });
    expect(inConfig).toMatchObject([{ rule: 'drip-grows', acknowledged: true }]);
  });

  it('an acknowledgement in coursesync.yaml or in front-matter marks the impact acknowledged', () => {
    const fromConfig = impactOf({ p: { s1: ['a', 'b'] } }, { p: { s1: ['a', draft('b')] } }, { acknowledge: [{ rule: 'unpublished', lesson: 'b' }] });
    expect(fromConfig).toMatchObject([{ rule: 'unpublished', acknowledged: true }]);
    const otherRule = impactOf({ p: { s1: ['a', 'b'] } }, { p: { s1: ['a', draft('b')] } }, { acknowledge: [{ rule: 'drip-grows', lesson: 'b' }] });
    expect(otherRule).toMatchObject([{ rule: 'unpublished', acknowledged: false }]);
    const desired = desiredOf({ p: { s1: ['a', drip('b', 21)] } });
    desired.programs[0]!.sections[0]!.lessons[1]!.acknowledge = ['drip-grows=21'];
    const plan = diffCourse(desired, stateOf({ p: { s1: ['a', drip('b', 14)] } }), { sectionIds: sectionIdsOf(desired) });
    expect(plan.impact).toMatchObject([{ rule: 'drip-grows', accepts: '21', acknowledged: true }]);
    const rekeyed = impactOf({ p: { s1: ['a', 'b'] } }, { p: { s1: ['a', { key: 'b2', fields: { name: 'Lesson b' } }] } }, { acknowledge: [{ rule: 'identity-change', lesson: 'b' }] });
    expect(rekeyed.find((i) => i.rule === 'identity-change')?.acknowledged).toBe(true);
  });
});
