/** program.yaml: marks a folder as a program (docs/course-repo.md). Source of schema/program.schema.json. */
import { z } from 'zod';
import { LessonDefaultsSchema } from './lesson.js';

export const ProgramFileSchema = z
  .strictObject({
    id: z.string().min(1).max(255).describe('The program id in the school (required).'),
    name: z.string().describe('Informational: the program name, for people reading the repo.').optional(),
    lesson_defaults: LessonDefaultsSchema.optional(),
  })
  .describe('program.yaml: a coursesync program folder');
export type ProgramFile = z.output<typeof ProgramFileSchema>;
