/** program.yaml: marks a folder as a program (docs/course-repo.md). Source of schema/program.schema.json. */
import { z } from 'zod';
import { schoolId } from '../school-api/school-rules.js';
import { LessonDefaultsSchema } from './lesson.js';
import { VarsSchema } from './config.js';

export const ProgramFileSchema = z
  .strictObject({
    id: schoolId().describe('The program id in the school (required).'),
    name: z.string().describe('Informational: the program name, for people reading the repo.').optional(),
    lesson_defaults: LessonDefaultsSchema.optional(),
    vars: VarsSchema.describe('Variables of this program: they override those of coursesync.yaml with the same name.').optional(),
  })
  .describe('program.yaml: a coursesync program folder');
export type ProgramFile = z.output<typeof ProgramFileSchema>;
