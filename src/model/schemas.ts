/**
 * The JSON Schemas in schema/, generated from the zod models (PURE). Adding a schema is one
 * line in SCHEMA_SOURCES; `npm run schema` writes them and a test fails when they are stale.
 */
import { z } from 'zod';
import { CourseConfigSchema } from './config.js';
import { LessonFrontMatterSchema } from './lesson.js';
import { ProgramFileSchema } from './program.js';
import { SectionFileSchema } from './section.js';

/** File name under schema/ → the zod schema it is generated from. */
export const SCHEMA_SOURCES: Record<string, z.ZodType> = {
  'program.schema.json': ProgramFileSchema,
  'section.schema.json': SectionFileSchema,
  'lesson.schema.json': LessonFrontMatterSchema,
  'coursesync.schema.json': CourseConfigSchema,
};

/**
 * Render every schema as the exact text of its checked-in file (input shape: what a person
 * writes, so defaults are optional), sorted by file name.
 */
export function renderSchemas(): Array<{ file: string; text: string }> {
  return Object.entries(SCHEMA_SOURCES)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, schema]) => {
      const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-7' });
      const withId = { $id: `https://coursesync.dev/schema/${file}`, ...json };
      return { file, text: JSON.stringify(withId, null, 2) + '\n' };
    });
}
