import { describe, expect, it } from 'vitest';
import { LessonFrontMatterSchema } from '../../src/model/lesson.js';
import { characterCount, lessonName, LESSON_FIELDS, LESSON_INPUT_RULES, MAX_CONTENT_LENGTH, MAX_NAME_LENGTH, NOT_NULL_ON_UPDATE, REQUIRED_ON_CREATE } from '../../src/school-api/school-rules.js';
import { LessonCreateBodySchema, LessonSchema, LessonUpdateBodySchema } from '../../src/school-api/wire/lessons.js';

// An emoji is one character for the school but two UTF-16 units: zod's length checks must count
// it once, or names and bodies of emoji would be refused at half their allowed length.
const EMOJI = '😀';

describe('characters are code points', () => {
  it('zod max() counts an emoji as one character', () => {
    expect(EMOJI.length).toBe(2);
    expect(lessonName().safeParse(EMOJI.repeat(MAX_NAME_LENGTH)).success).toBe(true);
    expect(lessonName().safeParse(EMOJI.repeat(MAX_NAME_LENGTH + 1)).success).toBe(false);
  });

  it('front-matter names follow the same count', () => {
    expect(LessonFrontMatterSchema.safeParse({ name: EMOJI.repeat(MAX_NAME_LENGTH) }).success).toBe(true);
    const over = LessonFrontMatterSchema.safeParse({ name: `a${EMOJI.repeat(MAX_NAME_LENGTH)}` });
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.code).toBe('too_big');
  });

  it('characterCount agrees with the wire limit on content', () => {
    const body = EMOJI.repeat(MAX_CONTENT_LENGTH);
    expect(characterCount(body)).toBe(MAX_CONTENT_LENGTH);
    expect(LessonCreateBodySchema.safeParse({ section_id: 's', name: 'n', body }).success).toBe(true);
    expect(LessonCreateBodySchema.safeParse({ section_id: 's', name: 'n', body: `${body}x` }).success).toBe(false);
  });
});

describe('wire schemas derive from the rules', () => {
  it('every input rule is a field of create and update, and nothing else', () => {
    expect(Object.keys(LessonCreateBodySchema.shape)).toEqual(Object.keys(LESSON_INPUT_RULES));
    expect(Object.keys(LessonUpdateBodySchema.shape)).toEqual(Object.keys(LESSON_INPUT_RULES));
  });

  it.each(Object.keys(LESSON_INPUT_RULES))('null rules of %s', (field) => {
    const create = LessonCreateBodySchema.safeParse({ section_id: 's', name: 'n', [field]: null }).success;
    const update = LessonUpdateBodySchema.safeParse({ [field]: null }).success;
    expect(create).toBe(!(REQUIRED_ON_CREATE as readonly string[]).includes(field));
    expect(update).toBe(!(NOT_NULL_ON_UPDATE as readonly string[]).includes(field));
  });

  it('a Lesson response carries every managed field', () => {
    for (const f of LESSON_FIELDS) expect(LessonSchema.shape).toHaveProperty(f);
  });
});
