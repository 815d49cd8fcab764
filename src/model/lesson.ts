/**
 * Lesson front-matter: the zod schema of the YAML block at the top of a lesson file
 * (docs/course-repo.md). The single source of these rules and of schema/lesson.schema.json.
 */
import { z } from 'zod';
import { LessonAcknowledgeSchema } from './acknowledge.js';
import { exactlyOne, fieldRulesSchema, onlyWhen } from './field-rules.js';
import { CONTENT_FORMATS, dripDelay, lessonName, lessonType, MAX_CONTENT_LENGTH, MAX_NAME_LENGTH } from '../school-api/school-rules.js';

/** A lesson key: a file-name-like identity, never a path. */
export const LESSON_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const LessonKey = z
  .string()
  .regex(LESSON_KEY_PATTERN, 'a key is letters, digits, ".", "_" and "-", starting with a letter or digit')
  .max(MAX_NAME_LENGTH);

/**
 * Lesson name: the school's rule (1 to 255 code points, not blank), also a `pattern` in the
 * schema, and ours: no bidirectional control that reorders how the name reads wherever it is
 * shown (U+202A–U+202E, U+2066–U+2069, "Trojan Source"; the marks U+200E/U+200F are ordinary
 * right-to-left text and are kept). Bodies keep every character: right-to-left lessons need them.
 */
const LessonName = lessonName()
  .regex(/^[^\u202a-\u202e\u2066-\u2069]*$/, 'must not hold a bidirectional control character (U+202A to U+202E, U+2066 to U+2069): it would reorder how the name reads')
  .describe('Lesson name shown in the school, 1 to 255 characters, not blank, no bidirectional control character.');

const VideoSource = z.string().min(1).max(MAX_CONTENT_LENGTH);

/** The keys of `video:`, in the order sources are listed in messages. */
export const VIDEO_KEYS = ['host_a', 'host_b', 'host_c', 'host_d', 'embed_code'] as const;

/** `video:` names exactly one source. */
export const VIDEO_SOURCE_RULE = exactlyOne(VIDEO_KEYS);
/** `video:` only on video lessons. */
export const VIDEO_ONLY_ON_VIDEO = onlyWhen('video', 'lesson_type', 'video', '"video" is only for video lessons: remove `video:`, or set `lesson_type: video`');
/** `embed_code:` only on embed lessons (a video's own embed HTML goes under `video:`). */
export const EMBED_CODE_ONLY_ON_EMBED = onlyWhen('embed_code', 'lesson_type', 'embed', '"embed_code" is only for embed lessons: remove `embed_code:`, or set `lesson_type: embed`');

/** Where a video lesson's video comes from: exactly one source. */
export const VideoSchema = z
  .strictObject({
    host_a: VideoSource.describe('Video host A (YouTube-like): a video id or a watch/share/embed URL.').optional(),
    host_b: VideoSource.describe('Video host B (Vimeo-like): a video id or URL.').optional(),
    host_c: VideoSource.describe('Video host C (Wistia-like): a video id or URL.').optional(),
    host_d: VideoSource.describe('Video host D (Loom-like): a video id or URL.').optional(),
    embed_code: VideoSource.describe('Custom video embed HTML.').optional(),
  })
  .describe('Only for video lessons: exactly one of host_a, host_b, host_c, host_d, embed_code.')
  .meta(fieldRulesSchema([VIDEO_SOURCE_RULE]));
export type VideoFrontMatter = z.output<typeof VideoSchema>;

/** The front-matter fields `lesson_defaults:` may set too (one list: both schemas take it whole). */
const LessonFrontMatterFields = {
  lesson_type: lessonType().describe('Lesson type (default video).').optional(),
  drip_delay: dripDelay().describe('Days after the section unlocks before the lesson does (default 0).').optional(),
  is_published: z.boolean().describe('false makes a draft (default true).').optional(),
  is_progression_locked: z.boolean().describe('Lock the rest of the program until this lesson is completed (default false).').optional(),
  keep_title: z.boolean().describe('Send a leading heading equal to the lesson name in the body too (default false: the school shows the name above the body).').optional(),
  name_from: z
    .enum(['heading', 'file', 'toc', 'title'])
    .describe("Where a lesson without name: takes its name: its first heading (default; a book's page without one, its title in SUMMARY.md), its file name as words (function_basics.md: \"Function basics\"; a README's or index's, its folder's), for courses whose pages open with a heading such as Introduction, in a book its title in SUMMARY.md (the sidebar's name for it), or its front-matter's title: as Jekyll, Hugo, Docusaurus, Quarto and the Carpentries write it (else its first heading).")
    .optional(),
};

/**
 * Front-matter fields a repo, program or section may set once for all its lessons
 * (`lesson_defaults:`); a lesson's own front-matter wins, then its section, program, repo.
 */
export const LessonDefaultsSchema = z
  .strictObject(LessonFrontMatterFields)
  .describe('Front-matter defaults for the lessons below; a lesson\'s own front-matter wins.');
export type LessonDefaults = z.output<typeof LessonDefaultsSchema>;

/**
 * What a lesson inherits, as one object: its digest's settings and its cache key take it whole,
 * so whatever is added here is covered by both. Compile sets the two extra fields, never a file:
 * - `front_matter_ignore`: coursesync.yaml `front_matter.ignore`, sorted (keys left to other tools);
 * - `toc_title`: a book page's title in SUMMARY.md (mdBook's name for it in its sidebar), the name
 *   of a page with no `name:` and no heading, or of every page with `name_from: toc`.
 */
export type Inherited = LessonDefaults & { front_matter_ignore?: readonly string[]; toc_title?: string };

export const LessonFrontMatterSchema = z
  .strictObject({
    name: LessonName.optional().describe('Lesson name shown in the school, 1 to 255 characters, not blank; default: the text of the body\'s first heading (or the file name, or a book page\'s SUMMARY.md title: name_from).'),
    key: LessonKey.describe('Identity of the lesson across renames and moves; default: the file name without extension and ordering prefix.').optional(),
    aliases: z.array(LessonKey).describe('Earlier keys of this lesson (renames): its remote lesson is kept.').optional(),
    copied_from: z.string().min(1).max(MAX_NAME_LENGTH).describe('Key of the lesson this one was copied from. Informational; never sent to the school.').optional(),
    ...LessonFrontMatterFields,
    description: z.string().describe(`Markdown, rendered to HTML; at most ${MAX_CONTENT_LENGTH} characters once rendered.`).optional(),
    video: VideoSchema.optional(),
    embed_code: z.string().min(1).max(MAX_CONTENT_LENGTH).describe('HTML of an embed lesson; only for lesson_type: embed.').optional(),
    content_format: z.enum(['markdown', 'html'] as const satisfies readonly (typeof CONTENT_FORMATS)[number][]).describe('How the body of this file is written (default markdown).').optional(),
    acknowledge: LessonAcknowledgeSchema.optional(),
  })
  .describe('Front-matter of a coursesync lesson file')
  .meta(fieldRulesSchema([VIDEO_ONLY_ON_VIDEO, EMBED_CODE_ONLY_ON_EMBED]));
export type LessonFrontMatter = z.output<typeof LessonFrontMatterSchema>;

/** Every front-matter key, for did-you-mean hints. */
export const LESSON_FRONT_MATTER_KEYS = Object.keys(LessonFrontMatterSchema.shape);
