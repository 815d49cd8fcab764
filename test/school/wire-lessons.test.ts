/** The lesson request schemas encode docs/school-api.md (#lesson-input-fields, #create-a-lesson, #update-a-lesson, #limits) one rule per check: table tests. */
import { describe, expect, it } from 'vitest';
import { LessonCreateBodySchema, LessonDuplicateBodySchema, LessonSchema, LessonUpdateBodySchema } from '../../src/school-api/wire/lessons.js';
import { invalidArgumentsMessage } from '../../src/school-api/wire/errors.js';
import type { z } from 'zod';

/** `null` when the body is valid, else the API's error message for it. */
function verdict(schema: z.ZodType, body: unknown): string | null {
  const r = schema.safeParse(body);
  return r.success ? null : invalidArgumentsMessage(r.error, body);
}

const base = { section_id: 'sec_start', name: 'Welcome' };
const long = (n: number) => 'x'.repeat(n);

describe('LessonCreateBodySchema (POST /lessons)', () => {
  it.each<[string, unknown, string | null]>([
    ['minimal', base, null],
    ['every field', { ...base, description: 'd', body: '<p>b</p>', content_format: 'markdown', position: 3, is_progression_locked: true, is_published: false, settings_embed_host_a: 'abc', settings_embed_host_b: null, settings_embed_host_c: null, settings_embed_host_d: null, settings_embed_code: null, embed_code: null, lesson_type: 'text', drip_delay: 7 }, null],
    ['nulls accepted on create', { ...base, description: null, body: null, content_format: null, position: null, is_progression_locked: null, is_published: null, lesson_type: null, drip_delay: null }, null],
    ['missing section_id', { name: 'x' }, 'Invalid arguments: /section_id required'],
    ['missing name', { section_id: 's' }, 'Invalid arguments: /name required'],
    ['null section_id', { ...base, section_id: null }, 'Invalid arguments: /section_id type'],
    ['null name', { ...base, name: null }, 'Invalid arguments: /name type'],
    ['empty name', { ...base, name: '' }, 'Invalid arguments: /name minLength'],
    ['blank name', { ...base, name: '   ' }, 'Invalid arguments: /name pattern'],
    ['name of 255', { ...base, name: long(255) }, null],
    ['name of 256', { ...base, name: long(256) }, 'Invalid arguments: /name maxLength'],
    ['empty section_id', { ...base, section_id: '' }, 'Invalid arguments: /section_id minLength'],
    ['section_id of 256', { ...base, section_id: long(256) }, 'Invalid arguments: /section_id maxLength'],
    ['body of 200000', { ...base, body: long(200_000) }, null],
    ['body of 200001', { ...base, body: long(200_001) }, 'Invalid arguments: /body maxLength'],
    ['description of 200001', { ...base, description: long(200_001) }, 'Invalid arguments: /description maxLength'],
    ['host_c of 200001', { ...base, settings_embed_host_c: long(200_001) }, 'Invalid arguments: /settings_embed_host_c maxLength'],
    ['embed_code of 200001', { ...base, embed_code: long(200_001) }, 'Invalid arguments: /embed_code maxLength'],
    ['drip_delay 32767', { ...base, drip_delay: 32767 }, null],
    ['drip_delay 32768', { ...base, drip_delay: 32768 }, 'Invalid arguments: /drip_delay maximum'],
    ['drip_delay -1', { ...base, drip_delay: -1 }, 'Invalid arguments: /drip_delay minimum'],
    ['drip_delay 1.5', { ...base, drip_delay: 1.5 }, 'Invalid arguments: /drip_delay type'],
    ['drip_delay as text', { ...base, drip_delay: '3' }, 'Invalid arguments: /drip_delay type'],
    ['position 0', { ...base, position: 0 }, null],
    ['position -1', { ...base, position: -1 }, 'Invalid arguments: /position minimum'],
    ['position 2.5', { ...base, position: 2.5 }, 'Invalid arguments: /position type'],
    ['is_published as text', { ...base, is_published: 'true' }, 'Invalid arguments: /is_published type'],
    ['unknown lesson_type', { ...base, lesson_type: 'quiz' }, 'Invalid arguments: /lesson_type enum'],
    ['unknown content_format', { ...base, content_format: 'rst' }, 'Invalid arguments: /content_format enum'],
    ['no other fields allowed', { ...base, color: 'red' }, 'Invalid arguments: /color additionalProperties'],
    ['not an object', 'name=x', 'Invalid arguments:  type'],
  ])('%s', (_label, body, expected) => {
    expect(verdict(LessonCreateBodySchema, body)).toBe(expected);
  });
});

describe('LessonUpdateBodySchema (PATCH /lessons/{id})', () => {
  it.each<[string, unknown, string | null]>([
    ['empty body (refresh)', {}, null],
    ['move with position', { section_id: 'sec_types', position: 2 }, null],
    ['position 0 accepted', { position: 0 }, null],
    ['clearing nulls accepted', { description: null, body: null, settings_embed_host_a: null, settings_embed_host_b: null, settings_embed_host_c: null, settings_embed_host_d: null, settings_embed_code: null, embed_code: null, is_progression_locked: null, content_format: null }, null],
    ['null section_id', { section_id: null }, 'Invalid arguments: /section_id type'],
    ['null name', { name: null }, 'Invalid arguments: /name type'],
    ['null position', { position: null }, 'Invalid arguments: /position type'],
    ['null is_published', { is_published: null }, 'Invalid arguments: /is_published type'],
    ['null lesson_type (outside the enum)', { lesson_type: null }, 'Invalid arguments: /lesson_type enum'],
    ['null drip_delay', { drip_delay: null }, 'Invalid arguments: /drip_delay type'],
    ['name of 256', { name: long(256) }, 'Invalid arguments: /name maxLength'],
    ['unknown field', { titel: 'x' }, 'Invalid arguments: /titel additionalProperties'],
  ])('%s', (_label, body, expected) => {
    expect(verdict(LessonUpdateBodySchema, body)).toBe(expected);
  });
});

describe('LessonDuplicateBodySchema (POST /lessons/{id}/duplicate)', () => {
  it.each<[string, unknown, string | null]>([
    ['key only', { idempotency_key: 'k' }, null],
    ['empty name gives the default copy name', { name: '', idempotency_key: 'k' }, null],
    ['name of 256', { name: long(256), idempotency_key: 'k' }, 'Invalid arguments: /name maxLength'],
    ['empty key', { idempotency_key: '' }, 'Invalid arguments: /idempotency_key minLength'],
    ['key of 256', { idempotency_key: long(256) }, 'Invalid arguments: /idempotency_key maxLength'],
    ['empty destination', { destination_section_id: '', idempotency_key: 'k' }, 'Invalid arguments: /destination_section_id minLength'],
  ])('%s', (_label, body, expected) => {
    expect(verdict(LessonDuplicateBodySchema, body)).toBe(expected);
  });
});

describe('LessonSchema (response)', () => {
  const lesson = {
    id: 'les_1', section_id: 'sec_start', name: 'W', position: 1, lesson_type: 'video', drip_delay: 0,
    is_published: true, is_progression_locked: false, description: '', body: '<p>x</p>',
    settings_embed_host_a: null, settings_embed_host_b: null, settings_embed_host_c: null, settings_embed_host_d: null,
    settings_embed_code: null, embed_code: null, transcripts: [],
    media: { pdf_url: null, audio_url: null, video_poster_url: null, video_status: null, video_id: null, video_error: null, video_progress: null },
  };
  it('accepts extra fields (tolerant of additions to the API)', () => {
    expect(LessonSchema.safeParse({ ...lesson, steps: [{}], future_field: 1 }).success).toBe(true);
  });
  it('rejects a wrong type and names the field', () => {
    const r = LessonSchema.safeParse({ ...lesson, position: '1' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['position']);
  });
});
