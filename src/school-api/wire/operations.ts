/**
 * Wire schemas of background operations (docs/school-api.md#operations Operation and the program record, docs/school-api.md#states
 * operation states, docs/school-api.md (#duplicate-a-lesson, #duplicate-a-program) duplication responses). docs/school-api.md#choices-where-the-api-is-silent: a lesson copy's `result` is
 * the new Lesson; the school's API shows it as an empty object, so both are accepted.
 */
import { z } from 'zod';
import { LessonSchema } from './lessons.js';

export const OPERATION_KIND_VALUES = ['duplicate_program', 'duplicate_lesson'] as const;
export const OPERATION_STATUS_VALUES = ['pending', 'completed', 'failed'] as const;
export type OperationStatus = (typeof OPERATION_STATUS_VALUES)[number];

/** Section group of a program record (docs/school-api.md#operations). */
export const SectionGroupSchema = z.object({ id: z.string(), name: z.string(), position: z.int() });

/** Program record (docs/school-api.md#operations), the `result` of `duplicate_program`. */
export const ProgramRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  is_published: z.boolean(),
  is_default_granularity_access_enabled: z.boolean(),
  settings_store_url: z.string(),
  settings_show_member_count: z.boolean(),
  settings_is_certificate_enabled: z.boolean(),
  settings_is_milestone_display_enabled: z.boolean(),
  settings_is_coaching_disabled: z.boolean(),
  settings_is_section_groups_enabled: z.boolean(),
  is_secret: z.boolean(),
  questions_category_id: z.string(),
  questions_category_type: z.string(),
  settings_is_inline_questions_category: z.boolean(),
  settings_is_questions_disabled: z.boolean(),
  default_reviewer_ids: z.array(z.string()),
  section_groups: z.array(SectionGroupSchema),
  image_logo_url: z.string(),
  image_cover_url: z.string(),
});
export type ProgramRecord = z.output<typeof ProgramRecordSchema>;

const operationBase = {
  id: z.string(),
  status: z.enum(OPERATION_STATUS_VALUES),
  error: z.string().nullable(),
};

/** Operation of POST /lessons/{id}/duplicate: result is the new Lesson (or `{}` per the API doc). */
export const LessonOperationSchema = z.object({
  ...operationBase,
  operation: z.literal('duplicate_lesson'),
  result: z.union([LessonSchema, z.object({})]).nullable(),
});
export type LessonOperation = z.output<typeof LessonOperationSchema>;

/** Operation of POST /products/{id}/duplicate: result is the new program record. */
export const ProgramOperationSchema = z.object({
  ...operationBase,
  operation: z.literal('duplicate_program'),
  result: ProgramRecordSchema.nullable(),
});
export type ProgramOperation = z.output<typeof ProgramOperationSchema>;

/** Any operation (docs/school-api.md#operations). */
export const OperationSchema = z.discriminatedUnion('operation', [LessonOperationSchema, ProgramOperationSchema]);
export type Operation = z.output<typeof OperationSchema>;
