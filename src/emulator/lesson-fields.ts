/**
 * Lesson request bodies → stored lesson fields (docs/school-api.md (#lesson-input-fields, #create-a-lesson, #update-a-lesson)): flat, `attributes`-nested
 * and form bodies; the forbidden-markup rule; Markdown conversion; video-source priority and
 * clearing; the Lesson response (docs/school-api.md#lesson).
 */
import type { z } from 'zod';
import { VIDEO_SOURCE_PRIORITY, type VideoSourceField } from '../school-api/school-rules.js';
import { findForbiddenMarkup } from '../school-api/body-rules.js';
import { videoIdFromUrl, type VideoHost } from '../school-api/video-urls.js';
import { invalidArgumentsMessage } from '../school-api/wire/errors.js';
import type { Lesson } from '../school-api/wire/lessons.js';
import { coerceFormFields, type ParsedBody } from './body.js';
import { HttpError, invalidArgument, isObject } from './errors.js';
import { convertServerMarkdown } from './markdown.js';
import type { LessonRecord } from './store.js';

const FORM_INTS = ['position', 'drip_delay'] as const;
const FORM_BOOLS = ['is_published', 'is_progression_locked'] as const;

/** A lesson body lifted to flat fields, remembering whether it came nested (for error paths). */
export interface LessonInput<T> {
  fields: T;
  nested: boolean;
}

/**
 * Validate a lesson body against the flat schema. Nested bodies carry `section_id` at the top
 * level and every other field inside `attributes` (docs/school-api.md#create-a-lesson); the same shape is accepted on update.
 * Errors point into the body as sent: `/attributes/name`, but `/section_id`.
 */
export function readLessonBody<S extends z.ZodType>(schema: S, body: ParsedBody): LessonInput<z.output<S>> {
  const raw = body.value;
  if (!isObject(raw)) throw invalidArgument('/', 'type');
  const nested = 'attributes' in raw;
  let flat: Record<string, unknown>;
  if (nested) {
    for (const key of Object.keys(raw)) {
      if (key !== 'section_id' && key !== 'attributes') throw invalidArgument(`/${key}`, 'additionalProperties');
    }
    const attributes = raw.attributes;
    if (!isObject(attributes)) throw invalidArgument('/attributes', 'type');
    if ('section_id' in attributes) throw invalidArgument('/attributes/section_id', 'additionalProperties');
    flat = { ...attributes };
    if ('section_id' in raw) flat.section_id = raw.section_id;
  } else {
    flat = { ...raw };
  }
  if (body.kind === 'form') coerceFormFields(flat, { ints: FORM_INTS, bools: FORM_BOOLS });
  const result = schema.safeParse(flat);
  if (!result.success) {
    const issue = result.error.issues[0];
    const atTop = issue !== undefined && issue.path[0] === 'section_id';
    throw new HttpError(422, invalidArgumentsMessage(result.error, flat, nested && !atTop ? ['attributes'] : []));
  }
  return { fields: result.data, nested };
}

/** JSON path of a field in the body as sent. */
export function fieldPath(input: LessonInput<unknown>, field: string): string {
  return input.nested && field !== 'section_id' ? `/attributes/${field}` : `/${field}`;
}

/** The content fields of docs/school-api.md#lesson-input-fields, as validated. */
export interface ContentInput {
  description?: string | null | undefined;
  body?: string | null | undefined;
  content_format?: 'html' | 'markdown' | null | undefined;
}

/**
 * Apply description/body: forbidden markup in `body` → 422 `<path> not`; Markdown converted when
 * `content_format` is markdown; null clears to ''. `content_format` alone changes nothing.
 */
export async function applyContent(lesson: LessonRecord, input: LessonInput<ContentInput>): Promise<void> {
  const f = input.fields;
  if (typeof f.body === 'string' && findForbiddenMarkup(f.body).length > 0) throw invalidArgument(fieldPath(input, 'body'), 'not');
  const markdown = f.content_format === 'markdown';
  for (const field of ['description', 'body'] as const) {
    const value = f[field];
    if (value === undefined) continue;
    if (value === null || value === '') lesson[field] = '';
    else lesson[field] = markdown ? await convertServerMarkdown(value) : value;
  }
}

const HOSTS: ReadonlyArray<[VideoHost, VideoField]> = [
  ['a', 'settings_embed_host_a'],
  ['b', 'settings_embed_host_b'],
  ['c', 'settings_embed_host_c'],
  ['d', 'settings_embed_host_d'],
];
type VideoField = VideoSourceField;

const isBlank = (v: string | null | undefined): boolean => v === null || v === undefined || v.trim() === '';

/**
 * The video-source rules of docs/school-api.md#lesson-input-fields. Null or blank clears a field. A *changed* non-blank value
 * (after URL → id) wins by priority a, c, b, d, settings_embed_code and clears every other video
 * source; `embed_code` is never touched. A value equal to the stored one is not a change.
 * An unsupported URL is 422 `<path> format`.
 */
export function applyVideoFields(lesson: LessonRecord, input: LessonInput<Partial<Record<VideoField, string | null>>>): void {
  const f = input.fields;
  const incoming = new Map<VideoField, string | null>();
  for (const [host, field] of HOSTS) {
    const v = f[field];
    if (v === undefined) continue;
    if (isBlank(v)) {
      incoming.set(field, null);
      continue;
    }
    const id = videoIdFromUrl(host, v!);
    if (id === null) throw invalidArgument(fieldPath(input, field), 'format');
    incoming.set(field, id);
  }
  if (f.settings_embed_code !== undefined) incoming.set('settings_embed_code', isBlank(f.settings_embed_code) ? null : f.settings_embed_code);
  const winner = VIDEO_SOURCE_PRIORITY.find((field) => {
    const v = incoming.get(field);
    return v !== undefined && v !== null && v !== lesson[field];
  });
  for (const [field, v] of incoming) if (v === null) lesson[field] = null;
  if (winner === undefined) return;
  for (const field of VIDEO_SOURCE_PRIORITY) lesson[field] = field === winner ? (incoming.get(field) ?? null) : null;
}

/** The Lesson of docs/school-api.md#lesson (steps stay internal). */
export function lessonResponse(lesson: LessonRecord, position: number): Lesson {
  return {
    id: lesson.id,
    section_id: lesson.section_id,
    name: lesson.name,
    position,
    lesson_type: lesson.lesson_type,
    drip_delay: lesson.drip_delay,
    is_published: lesson.is_published,
    is_progression_locked: lesson.is_progression_locked,
    description: lesson.description,
    body: lesson.body,
    settings_embed_host_a: lesson.settings_embed_host_a,
    settings_embed_host_b: lesson.settings_embed_host_b,
    settings_embed_host_c: lesson.settings_embed_host_c,
    settings_embed_host_d: lesson.settings_embed_host_d,
    settings_embed_code: lesson.settings_embed_code,
    embed_code: lesson.embed_code,
    transcripts: [...lesson.transcripts],
    media: { ...lesson.media },
  };
}
