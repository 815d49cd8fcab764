/**
 * `coursesync.yaml`: the school address and defaults. Optional; every field has a default.
 * The zod schema is the single source of these rules and of schema/coursesync.schema.json.
 */
import { z } from 'zod';
import { ConfigAcknowledgeSchema } from './acknowledge.js';
import { MAX_NAME_LENGTH } from './school-rules.js';

export const RemovedLessonsPolicy = z
  .enum(['keep', 'unpublish'])
  .describe('What apply does with a lesson whose file was removed: keep (report it as orphaned, no call) or unpublish.');

export const CourseConfigSchema = z
  .strictObject({
    school: z
      .strictObject({
        base_url: z
          .url({ protocol: /^https?$/ })
          .describe('API base address including /api/v1. COURSESYNC_BASE_URL and --base-url take precedence.')
          .optional(),
        timeout_ms: z.int().min(1000).max(600_000).describe('Timeout of one request, in milliseconds.').optional(),
      })
      .describe('How to reach the school. The token never goes here: use COURSESYNC_TOKEN or --token-file.')
      .optional(),
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
  })
  .describe('coursesync.yaml: school address and defaults');

export type CourseConfig = z.output<typeof CourseConfigSchema>;

/** The configuration of a repo without coursesync.yaml. */
export const DEFAULT_CONFIG: CourseConfig = { removed_lessons: 'keep' };
