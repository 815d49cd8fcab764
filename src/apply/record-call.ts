/**
 * What apply writes into state around one call (write-ahead, docs/architecture.md#state): the pending record
 * before the request, and after it the lesson's id, section, position, applied inputs and
 * response hashes (body and description as fingerprints), plus the positions of the other tracked lessons of the section, shifted with
 * the shared position model (src/school-api/positions.ts) exactly as the school shifted them.
 *
 * The state store freezes a lesson entry's `applied` object (and its arrays) once written, so
 * every change here replaces them instead of editing them.
 */
import { DEFAULT_LESSON_FIELDS } from '../model/desired.js';
import { withFieldChanges } from '../plan/diff-fields.js';
import type { CallStep } from '../plan/plan-schema.js';
import { uncertainCreateEntry } from '../plan/uncertain-create.js';
import { place, type SectionSlots } from '../school-api/positions.js';
import type { Lesson } from '../school-api/wire/lessons.js';
import { responseRecord } from '../model/state/hash-response.js';
import { appliedOf } from '../model/state/fingerprint.js';
import { keepBuildRecord } from '../state/lesson-record.js';
import type { LessonState, StateData } from '../model/state/schema.js';
import { lessonsInSection } from '../state/track-changes.js';


/** `METHOD /path` of a step's request. */
export function endpointOf(step: CallStep): string {
  return step.action === 'create' ? 'POST /lessons' : `PATCH /lessons/${step.lesson_id}`;
}

/** The key a call's lesson has in state before the call (differs from `key` after a rename). */
export function stateKeyOf(step: CallStep): string {
  return step.action === 'update' || step.action === 'move' ? step.state_key : step.key;
}

/**
 * Tracked lessons (with an id and a position) of one section, by state key: O(section) on a
 * store's draft (its index), so a call's bookkeeping does not grow with the school.
 */
export function slotsOfSection(draft: StateData, sectionId: string): SectionSlots {
  const slots: SectionSlots = new Map();
  for (const [key, l] of lessonsInSection(draft, sectionId)) if (l.position !== null) slots.set(key, l.position);
  return slots;
}

/**
 * Put a lesson at `position` in `sectionId` in state, shifting the other tracked lessons of
 * that section as the school did (placing at an occupied position moves it and every later
 * lesson down by one; leaving a section leaves a gap). `plan --refresh` compares positions with
 * these, so a shift is not reported as drift.
 */
export function placeInState(draft: StateData, key: string, sectionId: string, position: number): void {
  // Already there (an edit of fields): nothing moves, and the section need not be looked at.
  const entry = draft.lessons[key];
  if (entry !== undefined && entry.id !== null && entry.section_id === sectionId && entry.position === position) return;
  // Leaving the old section leaves a gap there: nothing else in state moves.
  const before = slotsOfSection(draft, sectionId);
  const slots = new Map(before);
  place(slots, key, { at: position });
  // Only the lessons that moved are touched through the draft (and so journaled).
  for (const [other, p] of slots) {
    if (other !== key && before.get(other) !== p) setPosition(draft.lessons[other]!, sectionId, p);
  }
}

/** Set where a lesson is (drift of section and position is judged against these, not against response hashes). */
export function setPosition(entry: LessonState, sectionId: string, position: number): void {
  entry.position = position;
  entry.section_id = sectionId;
}

/**
 * Record a successful call in a state draft: re-key a renamed lesson, merge the sent fields into
 * the last-applied inputs, hash the response, and place the lesson where the school says it is.
 */
export function recordSuccess(draft: StateData, step: CallStep, lesson: Lesson): void {
  const stateKey = stateKeyOf(step);
  const prior = draft.lessons[stateKey] ?? draft.lessons[step.key];
  if (stateKey !== step.key && draft.lessons[stateKey]) {
    draft.lessons[step.key] = draft.lessons[stateKey]!;
    delete draft.lessons[stateKey];
  }
  const applied = appliedOf(withFieldChanges(step.action === 'create' || !prior ? DEFAULT_LESSON_FIELDS : prior.applied, step.fields));
  // Keep the entry (with its old position) until placed, so the shift starts from where it was.
  placeInState(draft, step.key, lesson.section_id, lesson.position);
  const entry: LessonState = {
    id: lesson.id,
    program_id: step.program_id,
    section_id: lesson.section_id,
    position: lesson.position,
    path: step.path,
    applied,
    response: responseRecord(lesson, applied),
  };
  // A call that sent no field (a move) leaves what the lesson compiles to as it was.
  if (prior && step.fields.length === 0 && prior.path === step.path) Object.assign(entry, keepBuildRecord(prior));
  draft.lessons[step.key] = entry;
}

/**
 * Record a create whose answer was lost: the lesson may or may not exist (see
 * plan/uncertain-create.ts), with the fields it sent as last-applied.
 */
export function recordUncertainCreate(draft: StateData, step: CallStep, since: string): void {
  const fields = withFieldChanges(DEFAULT_LESSON_FIELDS, step.fields);
  draft.lessons[step.key] = uncertainCreateEntry(
    { key: step.key, name: step.request.name, section_id: step.section_id, since },
    { program_id: step.program_id, path: step.path, fields },
  );
}
