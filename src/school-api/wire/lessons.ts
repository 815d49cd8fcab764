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
import { LESSON_FIELDS_SHAPE, lessonCreateShape, lessonUpdateShape, MAX_NAME_LENGTH, schoolId } from '../school-rules.js';

export { MAX_NAME_LENGTH } from '../school-rules.js';

// ---- requests: derived from the rules in school-api/school-rules.ts ----------------------------

/**
 * POST /lessons body (docs/school-api.md#create-a-lesson). Required: section_id, name. "No other
 * fields are allowed." On create, null is accepted for every field except section_id and name.
 */
export const LessonCreateBodySchema = z.strictObject(lessonCreateShape());
export type LessonCreateBody = z.input<typeof LessonCreateBodySchema>;

/**
 * PATCH /lessons/{id} body (docs/school-api.md#update-a-lesson). Every field optional (omitted
 * keeps the value); null is refused where school-api/school-rules.ts says so and clears the others.
 * Unknown fields are refused as on create (docs/school-api.md#choices-where-the-api-is-silent).
 */
export const LessonUpdateBodySchema = z.strictObject(lessonUpdateShape());
export type LessonUpdateBody = z.input<typeof LessonUpdateBodySchema>;

/**
 * POST /lessons/{id}/duplicate body (docs/school-api.md#duplicate-a-lesson). `name` may be empty (gives "Copy of <name>").
 * Choice: idempotency_key is optional, as the API does not say it is required; the client
 * always sends one.
 */
export const LessonDuplicateBodySchema = z.strictObject({
  destination_section_id: schoolId().optional(),
  name: z.string().max(MAX_NAME_LENGTH).optional(),
  idempotency_key: schoolId().optional(),
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
  position: z.int(),
  ...LESSON_FIELDS_SHAPE,
  transcripts: z.array(z.unknown()),
  media: LessonMediaSchema,
});
export type Lesson = z.output<typeof LessonSchema>;
