/**
 * Lesson front-matter: the zod schema of the YAML block at the top of a lesson file
 * (docs/course-repo.md). The single source of these rules and of schema/lesson.schema.json.
 */
import { z } from 'zod';
import { LESSON_TYPES } from './desired.js';

/** A lesson key: a file-name-like identity, never a path. */
export const LESSON_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The API's limit for body, description, video fields and embed_code, in characters. */
export const MAX_TEXT_LENGTH = 200_000;
/** The API's limit for a lesson name, in characters. */
export const MAX_NAME_LENGTH = 255;

/** Count Unicode code points (what "characters" means for the school), without allocating. */
export function countCodePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const LessonKey = z
  .string()
  .regex(LESSON_KEY_PATTERN, 'a key is letters, digits, ".", "_" and "-", starting with a letter or digit')
  .max(255);

/** Lesson name: 1 to 255 code points, not blank. zod's own max() counts UTF-16 units, so check by hand. */
const LessonName = z
  .string()
  .refine((s) => s.trim().length > 0, { message: 'name must not be blank' })
  .refine((s) => countCodePoints(s) <= MAX_NAME_LENGTH, {
    message: `name is longer than ${MAX_NAME_LENGTH} characters`,
  })
  .meta({ minLength: 1, maxLength: MAX_NAME_LENGTH })
  .describe('Lesson name shown in the school, 1 to 255 characters.');

const VideoSource = z.string().min(1).max(MAX_TEXT_LENGTH);

/** Where a video lesson's video comes from: exactly one source. */
export const VideoSchema = z
  .strictObject({
    host_a: VideoSource.describe('Video host A (YouTube-like): a video id or a watch/share/embed URL.').optional(),
    host_b: VideoSource.describe('Video host B (Vimeo-like): a video id or URL.').optional(),
    host_c: VideoSource.describe('Video host C (Wistia-like): a video id or URL.').optional(),
    host_d: VideoSource.describe('Video host D (Loom-like): a video id or URL.').optional(),
    embed_code: VideoSource.describe('Custom video embed HTML.').optional(),
  })
  .describe('Only for video lessons: exactly one of host_a, host_b, host_c, host_d, embed_code.');
export type VideoFrontMatter = z.output<typeof VideoSchema>;

/** The keys of `video:`, in the order sources are listed in messages. */
export const VIDEO_KEYS = ['host_a', 'host_b', 'host_c', 'host_d', 'embed_code'] as const;

const LessonFrontMatterFields = {
  lesson_type: z.enum(LESSON_TYPES).describe('Lesson type (default video).').optional(),
  drip_delay: z.int().min(0).max(32767).describe('Days after the section unlocks before the lesson does (default 0).').optional(),
  is_published: z.boolean().describe('false makes a draft (default true).').optional(),
  is_progression_locked: z.boolean().describe('Lock the rest of the program until this lesson is completed (default false).').optional(),
};

/**
 * Front-matter fields a repo, program or section may set once for all its lessons
 * (`lesson_defaults:`); a lesson's own front-matter wins, then its section, program, repo.
 */
export const LessonDefaultsSchema = z
  .strictObject({
    lesson_type: LessonFrontMatterFields.lesson_type,
    drip_delay: LessonFrontMatterFields.drip_delay,
    is_published: LessonFrontMatterFields.is_published,
    is_progression_locked: LessonFrontMatterFields.is_progression_locked,
  })
  .describe('Front-matter defaults for the lessons below; a lesson\'s own front-matter wins.');
export type LessonDefaults = z.output<typeof LessonDefaultsSchema>;

export const LessonFrontMatterSchema = z
  .strictObject({
    name: LessonName,
    key: LessonKey.describe('Identity of the lesson across renames and moves; default: the file name without extension and ordering prefix.').optional(),
    aliases: z.array(LessonKey).describe('Earlier keys of this lesson (renames): its remote lesson is kept.').optional(),
    copied_from: z.string().min(1).max(255).describe('Key of the lesson this one was copied from. Informational; never sent to the school.').optional(),
    lesson_type: LessonFrontMatterFields.lesson_type,
    drip_delay: LessonFrontMatterFields.drip_delay,
    is_published: LessonFrontMatterFields.is_published,
    is_progression_locked: LessonFrontMatterFields.is_progression_locked,
    description: z.string().describe('Markdown, rendered to HTML; at most 200000 characters once rendered.').optional(),
    video: VideoSchema.optional(),
    embed_code: z.string().min(1).max(MAX_TEXT_LENGTH).describe('HTML of an embed lesson; only for lesson_type: embed.').optional(),
    content_format: z.enum(['markdown', 'html']).describe('How the body of this file is written (default markdown).').optional(),
  })
  .describe('Front-matter of a coursesync lesson file');
export type LessonFrontMatter = z.output<typeof LessonFrontMatterSchema>;

/** Every front-matter key, for did-you-mean hints. */
export const LESSON_FRONT_MATTER_KEYS = Object.keys(LessonFrontMatterSchema.shape);
