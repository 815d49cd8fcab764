/**
 * The learner's view of a course (PURE): for every lesson, the day it unlocks, whether a learner
 * can see it, and which progression locks stand in front of it. One model for `preview` (the
 * desired state) and for the learner impact of a plan (the state before, the plan's result after).
 * The rules are in docs/school-api.md#drip-locks-and-visibility.
 */

/** What the school says of a section (GET /sections); unknown without a token. */
export interface SectionFacts {
  drip_delay: number;
  is_published: boolean;
  /** The section's position in its program; sections without one keep the repo's order, after those with one. */
  position?: number;
}

/** The lesson fields the learner model reads (a subset of LessonFields). */
export interface LearnerLessonInput {
  key: string;
  path: string;
  name: string;
  lesson_type: string;
  drip_delay: number;
  is_published: boolean;
  is_progression_locked: boolean;
}

export interface LearnerSectionInput {
  id: string;
  /** Repo folder, or '' for a section the repo does not name. */
  path: string;
  /** In position order. */
  lessons: LearnerLessonInput[];
}

export interface LearnerProgramInput {
  id: string;
  path: string;
  /** In the repo's order; GET /sections positions take precedence when known. */
  sections: LearnerSectionInput[];
  /** The API offers no read of a program: unknown counts as published. */
  is_published?: boolean;
}

/** Why a lesson is hidden from learners: the first of lesson, section, program that is unpublished. */
export type HiddenBy = 'lesson' | 'section' | 'program';

export interface LearnerLesson {
  key: string;
  path: string;
  name: string;
  lesson_type: string;
  programId: string;
  sectionId: string;
  sectionPath: string;
  /** Place in the program's learner order, from 0 (sections in order, lessons by position). */
  order: number;
  /** Days after the learner's access starts: section drip plus lesson drip. */
  unlockDay: number;
  sectionDrip: number;
  visible: boolean;
  hiddenBy: HiddenBy | null;
  /** The lesson carries a progression lock that counts (it is visible). */
  locks: boolean;
  /**
   * How many counted locks stand in front of it in its program: the first `lockCount` of the
   * program's `locks` (gatesOf). Completing the nearest one implies the others.
   */
  lockCount: number;
}

export interface LearnerSection {
  id: string;
  path: string;
  drip: number;
  visible: boolean;
  lessons: LearnerLesson[];
}

export interface LearnerProgram {
  id: string;
  path: string;
  visible: boolean;
  sections: LearnerSection[];
  /** Keys of the lessons whose lock counts, in learner order. */
  locks: string[];
  /** Every lesson in learner order (`order` indexes it). */
  lessons: LearnerLesson[];
}

export interface LearnerView {
  programs: LearnerProgram[];
  /** Every lesson by key. */
  lessons: ReadonlyMap<string, LearnerLesson>;
  programById: ReadonlyMap<string, LearnerProgram>;
}

/** The keys of the progression locks a learner must complete before this lesson, in order. */
export function gatesOf(view: LearnerView, lesson: LearnerLesson): string[] {
  return view.programById.get(lesson.programId)!.locks.slice(0, lesson.lockCount);
}

/**
 * Build the learner view.
 * @param programs the course, sections in repo order, lessons in position order
 * @param sections what GET /sections said, by section id (optional: drip 0, published, repo order)
 */
export function learnerView(programs: readonly LearnerProgramInput[], sections: ReadonlyMap<string, SectionFacts> = new Map()): LearnerView {
  const byKey = new Map<string, LearnerLesson>();
  const out: LearnerProgram[] = [];
  for (const program of programs) {
    const programVisible = program.is_published !== false;
    // Stable: sections with a known position by position, then the rest in repo order.
    const ordered = program.sections
      .map((s, i) => ({ s, i, pos: sections.get(s.id)?.position }))
      .sort((a, b) => (a.pos ?? Infinity) - (b.pos ?? Infinity) || a.i - b.i)
      .map((x) => x.s);
    const locks: string[] = [];
    const all: LearnerLesson[] = [];
    let order = 0;
    const outSections: LearnerSection[] = [];
    for (const section of ordered) {
      const facts = sections.get(section.id);
      const drip = facts?.drip_delay ?? 0;
      const sectionVisible = facts?.is_published !== false;
      const lessons: LearnerLesson[] = [];
      for (const l of section.lessons) {
        const hiddenBy: HiddenBy | null = !l.is_published ? 'lesson' : !sectionVisible ? 'section' : !programVisible ? 'program' : null;
        const visible = hiddenBy === null;
        const lesson: LearnerLesson = {
          key: l.key,
          path: l.path,
          name: l.name,
          lesson_type: l.lesson_type,
          programId: program.id,
          sectionId: section.id,
          sectionPath: section.path,
          order: order++,
          unlockDay: drip + l.drip_delay,
          sectionDrip: drip,
          visible,
          hiddenBy,
          locks: visible && l.is_progression_locked,
          lockCount: locks.length,
        };
        // A lock gates the lessons after it, never the lesson itself; a hidden lesson cannot be
        // completed by a learner, so its lock is not counted (see the docs).
        if (lesson.locks) locks.push(l.key);
        lessons.push(lesson);
        all.push(lesson);
        byKey.set(l.key, lesson);
      }
      outSections.push({ id: section.id, path: section.path, drip, visible: sectionVisible && programVisible, lessons });
    }
    out.push({ id: program.id, path: program.path, visible: programVisible, sections: outSections, locks, lessons: all });
  }
  return { programs: out, lessons: byKey, programById: new Map(out.map((p) => [p.id, p])) };
}

/** One day of the unlock calendar: the visible lessons that open on it. */
export interface CalendarDay {
  day: number;
  lessons: LearnerLesson[];
}

/**
 * The visible lessons grouped by unlock day, days ascending, lessons in learner order: of one
 * program (a learner's access is to a program), or of every program when none is named.
 */
export function unlockCalendar(view: LearnerView, programId?: string): CalendarDay[] {
  const days = new Map<number, LearnerLesson[]>();
  for (const p of view.programs)
    for (const s of programId === undefined || p.id === programId ? p.sections : [])
      for (const l of s.lessons) {
        if (!l.visible) continue;
        const list = days.get(l.unlockDay) ?? [];
        list.push(l);
        days.set(l.unlockDay, list);
      }
  return [...days.entries()].sort((a, b) => a[0] - b[0]).map(([day, lessons]) => ({ day, lessons }));
}
