/** The learner view of the desired state (PURE): what learners will see once the repo is applied. */
import type { DesiredLesson, DesiredState } from '../model/desired.js';
import { learnerView, type LearnerLessonInput, type LearnerView, type SectionFacts } from './learner-model.js';

/** The fields the learner model reads, from a repo lesson. */
export function learnerInputOf(lesson: DesiredLesson): LearnerLessonInput {
  const f = lesson.fields;
  return {
    key: lesson.key,
    path: lesson.path,
    name: f.name,
    lesson_type: f.lesson_type,
    drip_delay: f.drip_delay,
    is_published: f.is_published,
    is_progression_locked: f.is_progression_locked,
  };
}

/**
 * The learner view of the repo.
 * @param sectionIds section folder → id for sections given by `name:` (others use their `id:`;
 *   an unresolved name stands for itself, which is enough to group its lessons)
 * @param sections what GET /sections said, by section id, when it was read
 */
export function learnerViewOfDesired(
  desired: DesiredState,
  sectionIds: ReadonlyMap<string, string> = new Map(),
  sections: ReadonlyMap<string, SectionFacts> = new Map(),
): LearnerView {
  return learnerView(
    desired.programs.map((p) => ({
      id: p.id,
      path: p.path,
      sections: p.sections.map((s) => ({
        id: sectionIds.get(s.path) ?? ('id' in s.ref ? s.ref.id : `name:${s.ref.name}`),
        path: s.path,
        lessons: s.lessons.map(learnerInputOf),
      })),
    })),
    sections,
  );
}
