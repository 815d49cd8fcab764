/**
 * Links between lessons (PURE): fill the lesson-link markers compile left in bodies and
 * descriptions with school.lesson_url and the target's ids from state. A renamed or moved
 * lesson keeps its id (matched by key, else by one of its aliases), so links to it keep
 * working. A target the school does not hold yet (created by this apply) has no id: its
 * marker stays in the plan, and apply fills it in just before sending when the target was
 * created earlier in the run; a link still unknown then is sent pending (`#`) and patched by a
 * second, link-only plan once the target exists (apply-course.ts). One apply is enough, cycles
 * included, and the extra calls are only for links sent before their target existed.
 */
import { fillLessonLinks } from '../model/lesson-links.js';
import type { DesiredLesson, DesiredState } from '../model/desired.js';
import type { StateData } from '../model/state/schema.js';

export interface LinkedState {
  desired: DesiredState;
  /** Lessons with at least one link to a lesson that has no id yet: key → target keys. */
  pending: Map<string, string[]>;
}

/** The desired state with every lesson link filled in (or pending), and what is pending. */
export function linkLessons(desired: DesiredState, state: StateData): LinkedState {
  const pending = new Map<string, string[]>();
  const template = desired.config.school?.lesson_url;
  // Every lesson by key, made when a lesson with links asks for its first target. A settled
  // section's lessons are each in the state under their own key: no alias is needed to find one.
  let byKey: Map<string, { programId: string; aliases: readonly string[] }> | undefined;
  const targets = () => {
    if (byKey) return byKey;
    byKey = new Map();
    for (const p of desired.programs) {
      for (const s of p.sections) {
        if (s.settled) for (const key of s.settled.keys) byKey.set(key, { programId: p.id, aliases: [] });
        else for (const l of s.lessons) byKey.set(l.key, { programId: p.id, aliases: l.aliases });
      }
    }
    return byKey;
  };
  const idOf = (key: string): string | null => {
    const target = targets().get(key);
    for (const k of [key, ...(target?.aliases ?? [])]) {
      const id = state.lessons[k]?.id;
      if (id) return id;
    }
    return null;
  };
  if (template === undefined) return { desired, pending };
  const linked = (l: DesiredLesson): DesiredLesson => {
    if (!l.links || l.links.length === 0) return l;
    const waiting = new Set<string>();
    const locate = (key: string) => {
      const id = idOf(key);
      const target = targets().get(key);
      return id === null || !target ? null : { programId: target.programId, id };
    };
    const fill = (html: string) => fillLessonLinks(html, template, locate, true, waiting);
    const body = fill(l.fields.body);
    const description = fill(l.fields.description);
    if (waiting.size > 0) pending.set(l.key, [...waiting]);
    if (body === l.fields.body && description === l.fields.description) return l;
    return { ...l, fields: { ...l.fields, body, description } };
  };
  // A new program, section or list only where a lesson's links were filled: most lessons (every
  // one known unchanged from the state) have none, and their sections are taken as they are.
  let changed = false;
  const programs = desired.programs.map((p) => {
    let sectionsChanged = false;
    const sections = p.sections.map((s) => {
      // Each known unchanged: its body and description are the state's fingerprints, no link to fill.
      if (s.settled) return s;
      let lessons: DesiredLesson[] | undefined;
      for (let i = 0; i < s.lessons.length; i++) {
        const l = linked(s.lessons[i]!);
        if (l !== s.lessons[i]) (lessons ??= [...s.lessons])[i] = l;
      }
      if (!lessons) return s;
      sectionsChanged = true;
      return { ...s, lessons };
    });
    if (!sectionsChanged) return p;
    changed = true;
    return { ...p, sections };
  });
  return { desired: changed ? { ...desired, programs } : desired, pending };
}
