/**
 * Links between lessons (PURE): fill the lesson-link markers compile left in bodies and
 * descriptions with school.lesson_url and the target's ids from state. A renamed or moved
 * lesson keeps its id (matched by key, else by one of its aliases), so links to it keep
 * working. A target the school does not hold yet (created by this apply) has no id: the link
 * is sent pending (`#`, the page itself) and apply patches it once the target exists
 * (apply-course.ts runs a second, link-only plan), so one apply is enough, cycles included.
 */
import { LESSON_LINK_MARKER, lessonUrl } from '../model/lesson-links.js';
import type { DesiredLesson, DesiredState } from '../model/desired.js';
import type { StateData } from '../state/schema.js';

export interface LinkedState {
  desired: DesiredState;
  /** Lessons with at least one link to a lesson that has no id yet: key → target keys. */
  pending: Map<string, string[]>;
}

/** The desired state with every lesson link filled in (or pending), and what is pending. */
export function linkLessons(desired: DesiredState, state: StateData): LinkedState {
  const pending = new Map<string, string[]>();
  const template = desired.config.school?.lesson_url;
  const targets = new Map<string, { programId: string; lesson: DesiredLesson }>();
  for (const p of desired.programs) for (const s of p.sections) for (const l of s.lessons) targets.set(l.key, { programId: p.id, lesson: l });
  const idOf = (key: string): string | null => {
    const target = targets.get(key);
    for (const k of [key, ...(target?.lesson.aliases ?? [])]) {
      const id = state.lessons[k]?.id;
      if (id) return id;
    }
    return null;
  };
  if (template === undefined) return { desired, pending };
  const programs = desired.programs.map((p) => ({
    ...p,
    sections: p.sections.map((s) => ({
      ...s,
      lessons: s.lessons.map((l) => {
        if (!l.links || l.links.length === 0) return l;
        const waiting = new Set<string>();
        const fill = (html: string) =>
          html.replace(LESSON_LINK_MARKER, (m, key: string, offset: number) => {
            const id = idOf(key);
            const target = targets.get(key);
            if (id === null || !target) {
              waiting.add(key);
              // Pending: the page itself (`#`, or the `#fragment` that follows the marker).
              return html[offset + m.length] === '#' ? '' : '#';
            }
            return lessonUrl(template, target.programId, id);
          });
        const fields = { ...l.fields, body: fill(l.fields.body), description: fill(l.fields.description) };
        if (waiting.size > 0) pending.set(l.key, [...waiting]);
        return { ...l, fields };
      }),
    })),
  }));
  return { desired: { ...desired, programs }, pending };
}
