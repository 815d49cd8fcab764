/**
 * Background operations (docs/school-api.md (#operations, #states)): duplications are accepted as `pending` and the copy is
 * made when the operation completes, `operationDelayMs` after it was accepted. Completion is
 * evaluated lazily: at the start of every request the due operations are settled, so there is
 * no timer to leak and a poll after the delay always sees `completed`.
 */
import { place } from '../school-api/positions.js';
import type { ProgramRecord } from '../school-api/wire/operations.js';
import { lessonResponse } from './lesson-fields.js';
import { newId, type LessonRecord, type OperationRecord, type ProgramRecordInternal, type Store } from './store.js';

/** The message of an operation failed by `--fail-operations`. */
export const INJECTED_FAILURE = 'Duplication failed (injected by --fail-operations)';

/** Complete or fail every pending operation whose time has come. */
export function settleOperations(store: Store, now: number, failOperations: boolean): void {
  if (store.pending.size === 0) return;
  for (const id of [...store.pending]) {
    const op = store.operations.get(id)!;
    if (op.completes_at > now) continue;
    store.pending.delete(id);
    if (failOperations) {
      op.status = 'failed';
      op.error = INJECTED_FAILURE;
      continue;
    }
    const result = op.operation === 'duplicate_lesson' ? copyLesson(store, op) : copyProgram(store, op);
    if (result === undefined) {
      op.status = 'failed';
      op.error = 'Record not found';
    } else {
      op.status = 'completed';
      op.result = result;
    }
  }
}

/** The Operation of docs/school-api.md#operations (internal fields left out). */
export function operationResponse(op: OperationRecord): { id: string; operation: string; status: string; result: unknown; error: string | null } {
  return { id: op.id, operation: op.operation, status: op.status, result: op.result, error: op.error };
}

/** A copy of a lesson record with a new id and new step ids; unpublished (docs/school-api.md#states). */
function cloneLesson(store: Store, source: LessonRecord, sectionId: string, name: string, publish: boolean): LessonRecord {
  const copy: LessonRecord = {
    ...source,
    id: newId(store, 'les', store.lessons),
    section_id: sectionId,
    name,
    is_published: publish,
    transcripts: [...source.transcripts],
    media: { ...source.media },
    steps: source.steps.map((s) => ({ id: newId(store, 'stp', new Map()), step_type: s.step_type })),
  };
  store.lessons.set(copy.id, copy);
  return copy;
}

function copyLesson(store: Store, op: OperationRecord): unknown {
  const source = store.lessons.get(op.source_id);
  const section = store.sections.get(op.destination_section_id ?? source?.section_id ?? '');
  if (!source || !section) return undefined;
  const copy = cloneLesson(store, source, section.id, op.name, false);
  const position = place(section.slots, copy.id, 'last');
  return lessonResponse(copy, position);
}

/** The program record of docs/school-api.md#operations. */
export function programRecord(p: ProgramRecordInternal): ProgramRecord {
  const { section_ids: _s, member_ids: _m, ...record } = p;
  return { ...record, section_groups: p.section_groups.map((g) => ({ ...g })), default_reviewer_ids: [...p.default_reviewer_ids] };
}

/**
 * Copy a program: unpublished, no members, new ids for its section groups, sections and
 * lessons; lessons keep their positions, content, media, steps and publication flags (the
 * program itself being unpublished hides them).
 */
function copyProgram(store: Store, op: OperationRecord): unknown {
  const source = store.programs.get(op.source_id);
  if (!source) return undefined;
  const programId = newId(store, 'prog', store.programs);
  const groupIds = new Map<string, string>();
  const usedGroupIds = new Map<string, unknown>();
  for (const p of store.programs.values()) for (const g of p.section_groups) usedGroupIds.set(g.id, g);
  const copy: ProgramRecordInternal = {
    ...source,
    id: programId,
    name: op.name,
    is_published: false,
    member_ids: [],
    default_reviewer_ids: [...source.default_reviewer_ids],
    section_groups: source.section_groups.map((g) => {
      const id = newId(store, 'grp', usedGroupIds);
      usedGroupIds.set(id, g);
      groupIds.set(g.id, id);
      return { ...g, id };
    }),
    section_ids: [],
  };
  store.programs.set(programId, copy);
  for (const sectionId of source.section_ids) {
    const section = store.sections.get(sectionId)!;
    const newSectionId = newId(store, 'sec', store.sections);
    const slots = new Map<string, number>();
    store.sections.set(newSectionId, {
      ...section,
      id: newSectionId,
      program_id: programId,
      section_group_id: section.section_group_id === null ? null : (groupIds.get(section.section_group_id) ?? null),
      slots,
    });
    copy.section_ids.push(newSectionId);
    for (const [lessonId, position] of section.slots) {
      const lesson = store.lessons.get(lessonId)!;
      const cloned = cloneLesson(store, lesson, newSectionId, lesson.name, lesson.is_published);
      slots.set(cloned.id, position);
    }
  }
  return programRecord(copy);
}
