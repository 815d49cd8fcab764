/**
 * `coursesync.yaml`: the school address and defaults. Optional; every field has a default.
 * The zod schema is the single source of these rules and of schema/coursesync.schema.json.
 */
import { z } from 'zod';
import { ConfigAcknowledgeSchema } from './acknowledge.js';
import { MAX_NAME_LENGTH } from '../school-api/school-rules.js';
import { LessonDefaultsSchema, LessonFrontMatterSchema } from './lesson.js';
import { environmentName, environmentSchema, MAX_ENVIRONMENTS } from './environments.js';

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

/** Requests in flight when neither --concurrency nor `apply.concurrency` says otherwise. */
export const DEFAULT_CONCURRENCY = 4;

export const AssetsSchema = z
  .strictObject({
    base_url: z
      .url({ protocol: /^https?$/ })
      .transform((u) => (u.endsWith('/') ? u : `${u}/`))
      .describe('Where the folder written by `coursesync assets` is served; lessons link their images and files under it. Needed for local images and files.')
      .optional(),
  })
  .describe('Images and files that lessons reference from the repo.');

/** Names lessons use as `{{ vars.name }}`: a value is text, a number or a boolean. */
export const VarsSchema = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, 'a variable name is letters, digits, "_" and "-", starting with a letter or "_"'), z.union([z.string().describe('text'), z.number().describe('a number'), z.boolean().describe('true or false')]))
  .describe('Variables lessons use as {{ vars.name }} in bodies, front-matter values and partials (docs/course-repo.md#includes-and-variables).');
export type Vars = z.output<typeof VarsSchema>;

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

/** The keys coursesync reads in a lesson's front-matter: none of them may be left to another tool. */
const OWN_LESSON_KEYS: ReadonlySet<string> = new Set(Object.keys(LessonFrontMatterSchema.shape));

export const FrontMatterSettingsSchema = z
  .strictObject({
    ignore: z
      .array(
        z
          .string()
          .min(1)
          .refine((key) => !OWN_LESSON_KEYS.has(key), { message: 'must not be a key coursesync reads itself' }),
      )
      .min(1)
      .describe("Lesson front-matter keys another tool reads (mdbook-course's minutes:, say): coursesync leaves them alone instead of reporting them as unknown keys."),
  })
  .describe('How coursesync reads lesson front-matter.');

export const CourseConfigSchema = z
  .strictObject({
    school: SchoolSettingsSchema.optional(),
    apply: z
      .strictObject({
        concurrency: z.int().min(1).max(64).describe(`At most this many requests in flight (default ${DEFAULT_CONCURRENCY}).`).optional(),
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
    repo_url: z
      .url({ protocol: /^https?$/ })
      .regex(/^[^?#]*$/, 'must be a folder URL, without ? or #')
      .transform((u) => (u.endsWith('/') ? u : `${u}/`))
      .describe(
        'Where the repo is on the web, as a folder URL (https://github.com/owner/repo/tree/main/): a link to a folder with no lesson (code, say), to Markdown that is not a lesson, or to a path ignore: leaves out, goes to its page there instead of being an error. Missing files stay errors.',
      )
      .optional(),
    ignore: z
      .array(z.string().min(1))
      .describe('Paths coursesync does not read, as .gitignore patterns (e.g. README.md, drafts/, **/translations/).')
      .optional(),
    front_matter: FrontMatterSettingsSchema.optional(),
    lesson_defaults: LessonDefaultsSchema.optional(),
    vars: VarsSchema.optional(),
    environments: z
      .record(environmentName(), environmentSchema(SchoolSettingsSchema, AssetsSchema, VarsSchema))
      .refine((envs) => Object.keys(envs).length <= MAX_ENVIRONMENTS, `must name at most ${MAX_ENVIRONMENTS} environments`)
      .describe(`Named schools (staging, production, …; at most ${MAX_ENVIRONMENTS}), each chosen with --env NAME (docs/environments.md).`)
      .optional(),
  })
  .describe('coursesync.yaml: school address and defaults');

export type CourseConfig = z.output<typeof CourseConfigSchema>;

/** The configuration of a repo without coursesync.yaml. */
export const DEFAULT_CONFIG: CourseConfig = { removed_lessons: 'keep' };
