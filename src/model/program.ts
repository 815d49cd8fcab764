/** program.yaml: marks a folder as a program (docs/course-repo.md). Source of schema/program.schema.json. */
import { z } from 'zod';
import { idPerEnvironment } from './environments.js';
import { LessonDefaultsSchema } from './lesson.js';

export const ProgramFileSchema = z
  .strictObject({
    id: idPerEnvironment('program').describe('The program id in the school (required), or one per environment (e.g. {staging: prog_a, production: prog_b}).'),
    name: z.string().describe('Informational: the program name, for people reading the repo.').optional(),
    lesson_defaults: LessonDefaultsSchema.optional(),
  })
  .describe('program.yaml: a coursesync program folder');
export type ProgramFile = z.output<typeof ProgramFileSchema>;
