import { describe, expect, it } from 'vitest';
import { gatesOf, learnerView, unlockCalendar, type LearnerLessonInput, type LearnerProgramInput, type SectionFacts } from '../../src/learner/index.js';
import { learnerViewOfDesired } from '../../src/learner/index.js';
import { desiredOf } from '../plan/build-course.js';

function lesson(key: string, over: Partial<LearnerLessonInput> = {}): LearnerLessonInput {
  return { key, path: `p/${key}.md`, name: `Lesson ${key}`, lesson_type: 'text', drip_delay: 0, is_published: true, is_progression_locked: false, ...over };
}

function program(sections: Record<string, LearnerLessonInput[]>, is_published?: boolean): LearnerProgramInput {
  return { id: 'prog', path: 'prog', is_published, sections: Object.entries(sections).map(([id, lessons]) => ({ id, path: `prog/${id}`, lessons })) };
}

describe('learner model', () => {
  // Each row: a course, the section facts from GET /sections, and what a learner gets per lesson.
  const rows: Array<{
    name: string;
    course: LearnerProgramInput;
    facts?: Record<string, SectionFacts>;
    want: Record<string, { day: number; visible: boolean; hiddenBy?: string; gatedBy: string[] }>;
  }> = [
    {
      name: 'unlock day is the lesson drip when the section has none',
      course: program({ s1: [lesson('a'), lesson('b', { drip_delay: 7 })] }),
      want: { a: { day: 0, visible: true, gatedBy: [] }, b: { day: 7, visible: true, gatedBy: [] } },
    },
    {
      name: 'section drip adds to lesson drip',
      course: program({ s1: [lesson('a', { drip_delay: 3 })], s2: [lesson('b', { drip_delay: 4 })] }),
      facts: { s1: { drip_delay: 0, is_published: true }, s2: { drip_delay: 14, is_published: true } },
      want: { a: { day: 3, visible: true, gatedBy: [] }, b: { day: 18, visible: true, gatedBy: [] } },
    },
    {
      name: 'a draft lesson is hidden; an unpublished section hides its lessons; an unpublished program hides all',
      course: program({ s1: [lesson('a', { is_published: false }), lesson('b')], s2: [lesson('c')] }),
      facts: { s2: { drip_delay: 0, is_published: false } },
      want: {
        a: { day: 0, visible: false, hiddenBy: 'lesson', gatedBy: [] },
        b: { day: 0, visible: true, gatedBy: [] },
        c: { day: 0, visible: false, hiddenBy: 'section', gatedBy: [] },
      },
    },
    {
      name: 'program publication applies last',
      course: program({ s1: [lesson('a')] }, false),
      want: { a: { day: 0, visible: false, hiddenBy: 'program', gatedBy: [] } },
    },
    {
      name: 'a lock gates every later lesson of the program, across sections, not itself',
      course: program({ s1: [lesson('a'), lesson('b', { is_progression_locked: true }), lesson('c')], s2: [lesson('d', { is_progression_locked: true }), lesson('e')] }),
      want: {
        a: { day: 0, visible: true, gatedBy: [] },
        b: { day: 0, visible: true, gatedBy: [] },
        c: { day: 0, visible: true, gatedBy: ['b'] },
        d: { day: 0, visible: true, gatedBy: ['b'] },
        e: { day: 0, visible: true, gatedBy: ['b', 'd'] },
      },
    },
    {
      name: 'the lock of a draft does not count',
      course: program({ s1: [lesson('a', { is_progression_locked: true, is_published: false }), lesson('b')] }),
      want: { a: { day: 0, visible: false, hiddenBy: 'lesson', gatedBy: [] }, b: { day: 0, visible: true, gatedBy: [] } },
    },
    {
      name: 'section positions from the school order the program',
      course: program({ s1: [lesson('a', { is_progression_locked: true })], s2: [lesson('b')] }),
      facts: { s1: { drip_delay: 0, is_published: true, position: 2 }, s2: { drip_delay: 0, is_published: true, position: 1 } },
      want: { a: { day: 0, visible: true, gatedBy: [] }, b: { day: 0, visible: true, gatedBy: [] } },
    },
  ];

  it.each(rows)('$name', ({ course, facts, want }) => {
    const view = learnerView([course], new Map(Object.entries(facts ?? {})));
    const got = Object.fromEntries(
      [...view.lessons.values()].map((l) => [l.key, { day: l.unlockDay, visible: l.visible, ...(l.hiddenBy ? { hiddenBy: l.hiddenBy } : {}), gatedBy: gatesOf(view, l) }]),
    );
    expect(got).toEqual(want);
  });

  it('orders lessons by section order, then position, and groups the calendar by day', () => {
    const view = learnerView(
      [program({ s1: [lesson('a'), lesson('b', { drip_delay: 14 })], s2: [lesson('c'), lesson('d', { is_published: false })] })],
      new Map([['s2', { drip_delay: 14, is_published: true }]]),
    );
    expect([...view.lessons.values()].map((l) => [l.key, l.order])).toEqual([['a', 0], ['b', 1], ['c', 2], ['d', 3]]);
    expect(unlockCalendar(view).map((d) => [d.day, d.lessons.map((l) => l.key)])).toEqual([[0, ['a']], [14, ['b', 'c']]]);
    expect(unlockCalendar(view, 'prog').map((d) => d.day)).toEqual([0, 14]);
    expect(unlockCalendar(view, 'other')).toEqual([]);
  });

  it('reads the desired state, with sections given by id', () => {
    const desired = desiredOf({ prog: { s1: ['a', { key: 'b', fields: { drip_delay: 5, is_progression_locked: true } }, 'c'] } });
    const view = learnerViewOfDesired(desired, new Map(), new Map([['s1', { drip_delay: 2, is_published: true }]]));
    expect(view.lessons.get('b')).toMatchObject({ unlockDay: 7, sectionPath: 'prog/s1', path: 'prog/s1/b.md', locks: true });
    expect(gatesOf(view, view.lessons.get('c')!)).toEqual(['b']);
  });
});
