/** POST /lessons and PATCH /lessons/{id} (docs/school-api.md (#create-a-lesson, #update-a-lesson); positions per docs/architecture.md#plan). */
import { place, placementOf, removeFromSection } from '../../school-api/positions.js';
import { ErrorMessages } from '../../school-api/wire/errors.js';
import { LessonCreateBodySchema, LessonUpdateBodySchema } from '../../school-api/wire/lessons.js';
import { ok, route, type Route, type RouteContext, type RouteResult } from '../context.js';
import { denied, HttpError, notFound } from '../errors.js';
import { applyContent, applyVideoFields, lessonResponse, readLessonBody } from '../lesson-fields.js';
import { canEdit, completionStep, emptyMedia, newId, type LessonRecord, type SectionRecord } from '../store.js';
import { DEFAULT_LESSON_FIELDS } from '../../model/desired.js';

/** The section and the right to edit its program; 404 before 403. */
export function editableSection(ctx: RouteContext, sectionId: string): SectionRecord {
  const section = ctx.store.sections.get(sectionId);
  if (!section) throw notFound();
  if (!canEdit(ctx.key, section.program_id)) throw denied();
  return section;
}

async function createLesson(ctx: RouteContext): Promise<RouteResult> {
  const input = readLessonBody(LessonCreateBodySchema, ctx.body);
  const f = input.fields;
  const section = editableSection(ctx, f.section_id);
  const { store } = ctx;
  const lesson: LessonRecord = {
    // The API's defaults (docs/school-api.md#lesson-input-fields) for every field the request leaves out, sends as null, or blank.
    ...DEFAULT_LESSON_FIELDS,
    id: '',
    section_id: section.id,
    name: f.name,
    lesson_type: f.lesson_type ?? DEFAULT_LESSON_FIELDS.lesson_type,
    drip_delay: f.drip_delay ?? DEFAULT_LESSON_FIELDS.drip_delay,
    is_published: f.is_published ?? DEFAULT_LESSON_FIELDS.is_published,
    is_progression_locked: f.is_progression_locked ?? DEFAULT_LESSON_FIELDS.is_progression_locked,
    embed_code: f.embed_code === undefined || f.embed_code === '' ? null : f.embed_code,
    transcripts: [],
    media: emptyMedia(),
    steps: [],
  };
  // Every check that can fail runs before anything is stored: a 422 saves nothing.
  await applyContent(lesson, input);
  applyVideoFields(lesson, input);
  lesson.id = newId(store, 'les', store.lessons);
  lesson.steps = [completionStep(store)];
  store.lessons.set(lesson.id, lesson);
  const position = place(section.slots, lesson.id, placementOf({ kind: 'create', position: f.position }));
  return ok(lessonResponse(lesson, position));
}

async function updateLesson(ctx: RouteContext): Promise<RouteResult> {
  const input = readLessonBody(LessonUpdateBodySchema, ctx.body);
  const f = input.fields;
  const { store } = ctx;
  const current = store.lessons.get(ctx.params[0]!);
  if (!current) throw notFound();
  const from = editableSection(ctx, current.section_id);
  const to = f.section_id !== undefined && f.section_id !== current.section_id ? editableSection(ctx, f.section_id) : from;
  // Work on a copy so a failed check leaves the stored lesson untouched.
  const next: LessonRecord = { ...current, media: { ...current.media } };
  await applyContent(next, input);
  applyVideoFields(next, input);
  if (f.name !== undefined) next.name = f.name;
  if (f.lesson_type !== undefined) next.lesson_type = f.lesson_type;
  if (f.drip_delay !== undefined) next.drip_delay = f.drip_delay;
  if (f.is_published !== undefined) next.is_published = f.is_published;
  if (f.is_progression_locked !== undefined) next.is_progression_locked = f.is_progression_locked ?? false;
  if (f.embed_code !== undefined) next.embed_code = f.embed_code === null || f.embed_code === '' ? null : f.embed_code;
  const moved = to !== from;
  if (moved) {
    removeFromSection(from.slots, current.id);
    next.section_id = to.id;
  }
  store.lessons.set(current.id, next);
  const position = place(to.slots, current.id, placementOf({ kind: 'update', position: f.position, sectionChanged: moved }));
  return ok(lessonResponse(next, position));
}

/** Lesson create and update document 401, 403, 404 and 422 only: an unreadable body is 422 too (docs/school-api.md#errors). */
const unreadable = (): HttpError => new HttpError(422, ErrorMessages.invalidArguments);

export const lessonRoutes: Route[] = [route('POST', '/lessons', createLesson, unreadable), route('PATCH', '/lessons/:id', updateLesson, unreadable)];
