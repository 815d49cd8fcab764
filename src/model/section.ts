/** section.yaml: marks a folder as a section of its program (docs/course-repo.md). Source of schema/section.schema.json. */
import { z } from 'zod';
import { exactlyOne, fieldRulesSchema } from './field-rules.js';
import { LESSON_KEY_PATTERN, LessonDefaultsSchema } from './lesson.js';
import { MAX_NAME_LENGTH } from '../school-api/school-rules.js';
import { idPerEnvironment } from './environments.js';

/** A section.yaml names its section by `id` or by `name`, never both. */
export const SECTION_REF_RULE = exactlyOne(['id', 'name'] as const);

export const SectionFileSchema = z
  .strictObject({
    id: idPerEnvironment('section').describe('The section id in the school, or one per environment. Give id or name, not both.').optional(),
    name: z
      .string()
      .min(1)
      .max(MAX_NAME_LENGTH)
      .describe('The exact section name, resolved through GET /sections of the program. Give id or name, not both.')
      .optional(),
    lessons: z
      .array(z.string().regex(LESSON_KEY_PATTERN, 'not a lesson key'))
      .describe('Lesson keys in the order of the section; must list every lesson of the folder exactly once. Default: file names in natural order.')
      // Validate reports a repeated key with its place (order-lessons.ts); editors, from this.
      .meta({ uniqueItems: true })
      .optional(),
    lesson_defaults: LessonDefaultsSchema.optional(),
  })
  .describe('section.yaml: a coursesync section folder')
  .meta(fieldRulesSchema([SECTION_REF_RULE]));
export type SectionFile = z.output<typeof SectionFileSchema>;
