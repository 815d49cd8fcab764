/**
 * Wire schemas of lessons (docs/school-api.md#lesson Lesson, docs/school-api.md#lesson-input-fields input fields, docs/school-api.md#create-a-lesson POST /lessons,
 * docs/school-api.md#update-a-lesson PATCH /lessons/{id}, docs/school-api.md#limits limits). Shared by the client (responses) and the emulator
 * (request validation), so the two cannot drift.
 *
 * The request schemas encode the API's validation rules one check per rule, so the emulator can
 * turn a zod issue into `Invalid arguments: <json_path> <schema_keyword>` (see errors.ts):
 * `.min/.max` on strings → minLength/maxLength, on numbers → minimum/maximum, `.int()` and
 * wrong types → type, enums → enum, unknown keys of a strict object → additionalProperties.
 * They validate the *flat* body; the emulator lifts `attributes` fields before validating.
 */
import { z } from 'zod';
import { MAX_POSITION } from '../positions.js';

export const LESSON_TYPE_VALUES = ['video', 'text', 'pdf', 'embed', 'audio'] as const;
export const CONTENT_FORMAT_VALUES = ['html', 'markdown'] as const;

/** docs/school-api.md#limits: body, description, video fields and embed_code hold at most this many characters. */
export const MAX_CONTENT_LENGTH = 200_000;
/** docs/school-api.md#limits: names and ids are 1 to 255 characters. */
export const MAX_NAME_LENGTH = 255;
/** docs/school-api.md#lesson-input-fields / docs/school-api.md#limits: drip_delay is 0 to 32767 days. */
export const MAX_DRIP_DELAY = 32_767;

// ---- building blocks: one zod check per documented rule -------------------------------------

const id255 = () => z.string().min(1).max(MAX_NAME_LENGTH);
/** "1 to 255 characters … never blank": an all-whitespace name is blank (keyword `pattern`). */
const lessonName = () => z.string().min(1).max(MAX_NAME_LENGTH).regex(/\S/);
const content = () => z.string().max(MAX_CONTENT_LENGTH);
const lessonType = () => z.enum(LESSON_TYPE_VALUES);
const contentFormat = () => z.enum(CONTENT_FORMAT_VALUES);
const dripDelay = () => z.int().min(0).max(MAX_DRIP_DELAY);
const position = () => z.int().min(0).max(MAX_POSITION);

// ---- requests ------------------------------------------------------------------------------

/**
 * POST /lessons body (docs/school-api.md (#create-a-lesson, #lesson-input-fields)). Required: section_id, name. "No other fields are allowed."
 * On create, null is accepted for every field except section_id and name.
 */
export const LessonCreateBodySchema = z.strictObject({
  section_id: id255(),
  name: lessonName(),
  description: content().nullable().optional(),
  body: content().nullable().optional(),
  content_format: contentFormat().nullable().optional(),
  position: position().nullable().optional(),
  is_progression_locked: z.boolean().nullable().optional(),
  is_published: z.boolean().nullable().optional(),
  settings_embed_host_a: content().nullable().optional(),
  settings_embed_host_b: content().nullable().optional(),
  settings_embed_host_c: content().nullable().optional(),
  settings_embed_host_d: content().nullable().optional(),
  settings_embed_code: content().nullable().optional(),
  embed_code: content().nullable().optional(),
  lesson_type: lessonType().nullable().optional(),
  drip_delay: dripDelay().nullable().optional(),
});
export type LessonCreateBody = z.input<typeof LessonCreateBodySchema>;

/**
 * PATCH /lessons/{id} body (docs/school-api.md (#update-a-lesson, #lesson-input-fields)). Every field optional (omitted keeps the value).
 * Null is rejected for section_id, name, position, is_published, lesson_type, drip_delay and
 * accepted (to clear) for the others.
 *
 * Choice where the document is silent: docs/school-api.md#create-a-lesson says "no other fields are allowed" for create only;
 * we apply the same strictness to update, because a silently ignored misspelt field would
 * report success while changing nothing.
 */
export const LessonUpdateBodySchema = z.strictObject({
  section_id: id255().optional(),
  name: lessonName().optional(),
  description: content().nullable().optional(),
  body: content().nullable().optional(),
  content_format: contentFormat().nullable().optional(),
  position: position().optional(),
  is_progression_locked: z.boolean().nullable().optional(),
  is_published: z.boolean().optional(),
  settings_embed_host_a: content().nullable().optional(),
  settings_embed_host_b: content().nullable().optional(),
  settings_embed_host_c: content().nullable().optional(),
  settings_embed_host_d: content().nullable().optional(),
  settings_embed_code: content().nullable().optional(),
  embed_code: content().nullable().optional(),
  lesson_type: lessonType().optional(),
  drip_delay: dripDelay().optional(),
});
export type LessonUpdateBody = z.input<typeof LessonUpdateBodySchema>;

/**
 * POST /lessons/{id}/duplicate body (docs/school-api.md#duplicate-a-lesson). `name` may be empty (gives "Copy of <name>").
 * Choice: idempotency_key is optional, as the document does not say it is required; the client
 * always sends one.
 */
export const LessonDuplicateBodySchema = z.strictObject({
  destination_section_id: id255().optional(),
  name: z.string().max(MAX_NAME_LENGTH).optional(),
  idempotency_key: id255().optional(),
});
export type LessonDuplicateBody = z.input<typeof LessonDuplicateBodySchema>;

// ---- responses -----------------------------------------------------------------------------

/** `media` of a lesson (docs/school-api.md#lesson): every field nullable; the video_* types are not shown, so unknown. */
export const LessonMediaSchema = z.object({
  pdf_url: z.string().nullable(),
  audio_url: z.string().nullable(),
  video_poster_url: z.string().nullable(),
  video_status: z.unknown().nullable(),
  video_id: z.unknown().nullable(),
  video_error: z.unknown().nullable(),
  video_progress: z.unknown().nullable(),
});
export type LessonMedia = z.output<typeof LessonMediaSchema>;

/** Lesson (docs/school-api.md#lesson), the response of create and update. Tolerant of extra fields. */
export const LessonSchema = z.object({
  id: z.string(),
  section_id: z.string(),
  name: z.string(),
  position: z.int(),
  lesson_type: lessonType(),
  drip_delay: z.int(),
  is_published: z.boolean(),
  is_progression_locked: z.boolean(),
  description: z.string(),
  body: z.string(),
  settings_embed_host_a: z.string().nullable(),
  settings_embed_host_b: z.string().nullable(),
  settings_embed_host_c: z.string().nullable(),
  settings_embed_host_d: z.string().nullable(),
  settings_embed_code: z.string().nullable(),
  embed_code: z.string().nullable(),
  transcripts: z.array(z.unknown()),
  media: LessonMediaSchema,
});
export type Lesson = z.output<typeof LessonSchema>;
