/**
 * `coursesync.yaml`: the school address and defaults. Optional; every field has a default.
 * The zod schema is the single source of these rules and of schema/coursesync.schema.json.
 */
import { z } from 'zod';
import { ConfigAcknowledgeSchema } from './acknowledge.js';
import { MAX_NAME_LENGTH } from './school-rules.js';
import { LessonDefaultsSchema } from './lesson.js';
import { environmentName, environmentSchema, VarsSchema } from './environments.js';

export const RemovedLessonsPolicy = z
  .enum(['keep', 'unpublish'])
  .describe('What apply does with a lesson whose file was removed: keep (report it as orphaned, no call) or unpublish.');

/** Where learners see a lesson: links between lesson files become this URL. */
export const LessonUrlSchema = z
  .url({ protocol: /^https?$/ })
  // A check zod can write as `pattern`, so editors reject a URL without the placeholder too.
  .regex(/\{lesson_id\}/, 'must contain {lesson_id}')
  .meta({ format: 'uri' })
  .describe('URL of a lesson page for learners, with {program_id} and {lesson_id}, e.g. https://academy.example.com/products/{program_id}/lessons/{lesson_id}. Needed for links between lesson files.');

export const AssetsSchema = z
  .strictObject({
    base_url: z
      .url({ protocol: /^https?$/ })
      .transform((u) => (u.endsWith('/') ? u : `${u}/`))
      .describe('Where the folder written by `coursesync assets` is served; lessons link their images and files under it. Needed for local images and files.')
      .optional(),
  })
  .describe('Images and files that lessons reference from the repo.');

export const SchoolSettingsSchema = z
  .strictObject({
    base_url: z
      .url({ protocol: /^https?$/ })
      .describe('API base address including /api/v1. COURSESYNC_BASE_URL and --base-url take precedence.')
      .optional(),
    timeout_ms: z.int().min(1000).max(600_000).describe('Timeout of one request, in milliseconds.').optional(),
    lesson_url: LessonUrlSchema.optional(),
  })
  .describe('How to reach the school. The token never goes here: use COURSESYNC_TOKEN or --token-file.');

export const CourseConfigSchema = z
  .strictObject({
    school: SchoolSettingsSchema.optional(),
    apply: z
      .strictObject({
        concurrency: z.int().min(1).max(64).describe('At most this many requests in flight (default 4).').optional(),
      })
      .optional(),
    removed_lessons: RemovedLessonsPolicy.default('keep'),
    archive: z
      .string()
      .min(1)
      .max(MAX_NAME_LENGTH)
      .describe('With removed_lessons: unpublish, also move removed lessons into this section id.')
      .optional(),
    acknowledge: ConfigAcknowledgeSchema.optional(),
    assets: AssetsSchema.optional(),
    ignore: z
      .array(z.string().min(1))
      .describe('Paths coursesync does not read, as .gitignore patterns (e.g. README.md, drafts/, **/translations/).')
      .optional(),
    lesson_defaults: LessonDefaultsSchema.optional(),
    vars: VarsSchema.optional(),
    environments: z
      .record(environmentName(), environmentSchema(SchoolSettingsSchema, AssetsSchema))
      .describe('Named schools (staging, production, …), each chosen with --env NAME (docs/environments.md).')
      .optional(),
  })
  .describe('coursesync.yaml: school address and defaults');

export type CourseConfig = z.output<typeof CourseConfigSchema>;

/** The configuration of a repo without coursesync.yaml. */
export const DEFAULT_CONFIG: CourseConfig = { removed_lessons: 'keep' };
