/**
 * State entries for lessons that came from the school rather than from a create (import,
 * duplicate): id, section and position as the school answered, last-applied = the fields the
 * repo file compiles to, and the response hashes, so the next plan is empty and
 * `plan --refresh` has a baseline for drift. Adopting a key also settles an uncertain create.
 */
import type { LessonFields } from '../model/desired.js';
import type { Lesson } from '../school-api/wire/lessons.js';
import { responseRecord } from '../model/state/hash-response.js';
import { appliedOf } from '../model/state/fingerprint.js';
import type { LessonState, StateData } from '../model/state/schema.js';
import type { StateStore } from '../state/state-store.js';

export interface Adopted {
  key: string;
  lesson: Lesson;
  programId: string;
  /** Repo-relative path of the lesson file. */
  path: string;
  /** What the file compiles to. */
  applied: LessonFields;
}

/** The state entry of an adopted lesson. */
export function adoptedEntry(a: Adopted): LessonState {
  return {
    id: a.lesson.id,
    program_id: a.programId,
    section_id: a.lesson.section_id,
    position: a.lesson.position,
    path: a.path,
    applied: appliedOf(a.applied),
    response: responseRecord(a.lesson as unknown as Record<string, unknown>, appliedOf(a.applied)),
  };
}

/** Put adopted lessons into a state draft, dropping any create left pending or uncertain under their keys. */
export function recordAdoptedIn(draft: StateData, adopted: readonly Adopted[], baseUrl: string): void {
  draft.base_url ??= baseUrl;
  for (const a of adopted) {
    draft.lessons[a.key] = adoptedEntry(a);
    for (const [id, call] of Object.entries(draft.pending)) if (call.action === 'create' && call.key === a.key) delete draft.pending[id];
  }
}

/** Record adopted lessons in one durable state write. */
export function recordAdopted(store: StateStore, adopted: readonly Adopted[], baseUrl: string): Promise<void> {
  return store.update((d) => recordAdoptedIn(d, adopted, baseUrl));
}

/** The state key tracking a lesson id, if any. */
export function keyOfLessonId(state: Readonly<StateData>, id: string): string | undefined {
  for (const [key, l] of Object.entries(state.lessons)) if (l.id === id) return key;
  return undefined;
}
