/**
 * The school's lesson rules, stated once (docs/school-api.md#lesson-input-fields, #limits):
 * lesson types, content formats, the name/id and content limits, drip_delay bounds, which input
 * fields accept null, the managed field list with the school's defaults, and the video-source
 * priority. Pure. The repo's schemas (model/), the wire schemas of the client and the emulator
 * (school-api/wire/), the planner, the state file and the emulator all import them from here.
 *
 * "Characters" are Unicode code points for the school. zod 4's string length checks count code
 * points too (test/model/school-rules.test.ts proves it with emoji), so `.max()` is the rule.
 */
import { z } from 'zod';
import { util } from 'zod/v4/core';

export const LESSON_TYPES = ['video', 'text', 'pdf', 'embed', 'audio'] as const;
export type LessonType = (typeof LESSON_TYPES)[number];

/** How a request's body and description are written; the school converts `markdown` itself. */
export const CONTENT_FORMATS = ['html', 'markdown'] as const;

export { MAX_CONTENT_LENGTH, MAX_DRIP_DELAY, MAX_NAME_LENGTH } from './school-limits.js';
import { MAX_CONTENT_LENGTH, MAX_DRIP_DELAY, MAX_NAME_LENGTH } from './school-limits.js';

/** Characters as the school (and zod's length checks) count them: code points. */
export function characterCount(s: string): number {
  return util.codePointLength(s);
}

/** The four per-host video fields of the API. */
export const VIDEO_HOST_FIELDS = [
  'settings_embed_host_a',
  'settings_embed_host_b',
  'settings_embed_host_c',
  'settings_embed_host_d',
] as const;
export type VideoHostField = (typeof VIDEO_HOST_FIELDS)[number];

/**
 * Every video source field, in the school's priority order: when several change in one request
 * the first of them wins and clears the others (`embed_code` is not a video source).
 */
export const VIDEO_SOURCE_PRIORITY = [
  'settings_embed_host_a',
  'settings_embed_host_c',
  'settings_embed_host_b',
  'settings_embed_host_d',
  'settings_embed_code',
] as const;
export type VideoSourceField = (typeof VIDEO_SOURCE_PRIORITY)[number];

// ---- one zod check per rule ------------------------------------------------------------------

/** An id or a reference name: 1 to 255 characters. */
export const schoolId = () => z.string().min(1).max(MAX_NAME_LENGTH);
/**
 * A lesson name: 1 to 255 characters, never blank (keyword `pattern` for an all-whitespace one).
 * `abort`: an empty name is reported once, not also as blank.
 */
export const lessonName = () => z.string().min(1, { abort: true }).max(MAX_NAME_LENGTH).regex(/\S/, 'must not be blank');
export const contentText = () => z.string().max(MAX_CONTENT_LENGTH);
export const lessonType = () => z.enum(LESSON_TYPES);
export const contentFormat = () => z.enum(CONTENT_FORMATS);
export const dripDelay = () => z.int().min(0).max(MAX_DRIP_DELAY);
/**
 * The highest position a request may ask for (docs/school-api.md#limits): a 32-bit signed
 * integer, what a school's database column plausibly holds. Positions grow past it only by one
 * per lesson (shifts, "last"), so they stay far below 2^53, where numbers stop being exact and
 * "highest + 1" could equal the highest.
 */
export const MAX_POSITION = 2_147_483_647;
/** A requested position: 0 to MAX_POSITION (0 and anything past the end mean "last"). */
export const requestPosition = () => z.int().min(0).max(MAX_POSITION);

// ---- the managed lesson fields ----------------------------------------------------------------

/**
 * The lesson fields coursesync manages, as the school stores and returns them, in a fixed order
 * (plans and state list fields in this order). These are also the last-applied values in state.
 */
export const LESSON_FIELDS_SHAPE = {
  name: z.string(),
  lesson_type: lessonType(),
  drip_delay: z.int(),
  is_published: z.boolean(),
  is_progression_locked: z.boolean(),
  /** HTML; '' when unset. */
  description: z.string(),
  /** HTML. */
  body: z.string(),
  settings_embed_host_a: z.string().nullable(),
  settings_embed_host_b: z.string().nullable(),
  settings_embed_host_c: z.string().nullable(),
  settings_embed_host_d: z.string().nullable(),
  settings_embed_code: z.string().nullable(),
  embed_code: z.string().nullable(),
};
export const LessonFieldsSchema = z.strictObject(LESSON_FIELDS_SHAPE);
export type LessonFields = z.output<typeof LessonFieldsSchema>;
export type LessonField = keyof LessonFields;
export const LESSON_FIELDS = Object.keys(LESSON_FIELDS_SHAPE) as readonly LessonField[];

/** What the school gives a new lesson in each field it was not sent. */
export const DEFAULT_LESSON_FIELDS: Readonly<LessonFields> = Object.freeze({
  name: '',
  lesson_type: 'video',
  drip_delay: 0,
  is_published: true,
  is_progression_locked: false,
  description: '',
  body: '',
  settings_embed_host_a: null,
  settings_embed_host_b: null,
  settings_embed_host_c: null,
  settings_embed_host_d: null,
  settings_embed_code: null,
  embed_code: null,
});

// ---- lesson input fields: value rule and null rule --------------------------------------------

/** The value rule of every lesson input field, in the order the school documents them. */
export const LESSON_INPUT_RULES = {
  section_id: schoolId(),
  name: lessonName(),
  description: contentText(),
  body: contentText(),
  content_format: contentFormat(),
  position: requestPosition(),
  is_progression_locked: z.boolean(),
  is_published: z.boolean(),
  settings_embed_host_a: contentText(),
  settings_embed_host_b: contentText(),
  settings_embed_host_c: contentText(),
  settings_embed_host_d: contentText(),
  settings_embed_code: contentText(),
  embed_code: contentText(),
  lesson_type: lessonType(),
  drip_delay: dripDelay(),
};
type InputRules = typeof LESSON_INPUT_RULES;

/** Required on create, and never null there. */
export const REQUIRED_ON_CREATE = ['section_id', 'name'] as const;
/** Never null on update (null clears every other field). */
export const NOT_NULL_ON_UPDATE = ['section_id', 'name', 'position', 'is_published', 'lesson_type', 'drip_delay'] as const;

type CreateShape = {
  [K in keyof InputRules]: K extends (typeof REQUIRED_ON_CREATE)[number] ? InputRules[K] : z.ZodOptional<z.ZodNullable<InputRules[K]>>;
};
type UpdateShape = {
  [K in keyof InputRules]: K extends (typeof NOT_NULL_ON_UPDATE)[number] ? z.ZodOptional<InputRules[K]> : z.ZodOptional<z.ZodNullable<InputRules[K]>>;
};

const has = (list: readonly string[], key: string) => list.includes(key);

/** POST /lessons fields: section_id and name required; null accepted for every other field. */
export function lessonCreateShape(): CreateShape {
  const out: Record<string, z.ZodType> = {};
  for (const [key, rule] of Object.entries(LESSON_INPUT_RULES)) out[key] = has(REQUIRED_ON_CREATE, key) ? rule : rule.nullable().optional();
  return out as CreateShape;
}

/** PATCH /lessons/{id} fields: all optional (omitted keeps the value); null clears, where allowed. */
export function lessonUpdateShape(): UpdateShape {
  const out: Record<string, z.ZodType> = {};
  for (const [key, rule] of Object.entries(LESSON_INPUT_RULES)) out[key] = has(NOT_NULL_ON_UPDATE, key) ? rule.optional() : rule.nullable().optional();
  return out as UpdateShape;
}
