/**
 * The desired state: what the repo says the school should hold. Built by `compile/` from the
 * files, consumed by `plan/`. Pure data, no I/O.
 */
import type { CourseConfig } from './config.js';

export const LESSON_TYPES = ['video', 'text', 'pdf', 'embed', 'audio'] as const;
export type LessonType = (typeof LESSON_TYPES)[number];

/** The four per-host video fields of the API, in the API's field names. */
export const VIDEO_HOST_FIELDS = [
  'settings_embed_host_a',
  'settings_embed_host_b',
  'settings_embed_host_c',
  'settings_embed_host_d',
] as const;
export type VideoHostField = (typeof VIDEO_HOST_FIELDS)[number];

/**
 * The lesson input fields the tool manages, in API names, exactly as they are sent
 * (`content_format` is always `html`: bodies and descriptions are rendered locally).
 * These are also the "last-applied" values kept in state, so inputs are compared with inputs.
 */
export interface LessonFields {
  name: string;
  lesson_type: LessonType;
  drip_delay: number;
  is_published: boolean;
  is_progression_locked: boolean;
  /** Rendered HTML; '' when unset. */
  description: string;
  /** Rendered HTML. */
  body: string;
  settings_embed_host_a: string | null;
  settings_embed_host_b: string | null;
  settings_embed_host_c: string | null;
  settings_embed_host_d: string | null;
  settings_embed_code: string | null;
  embed_code: string | null;
}
export type LessonField = keyof LessonFields;

/**
 * What the school gives a new lesson in each field it was not sent (docs/school-api.md#lesson-input-fields defaults): the
 * "before" of a create, and the base that a partial response or a read-back is laid over.
 */
export const DEFAULT_LESSON_FIELDS: Readonly<LessonFields> = Object.freeze({
  name: '',
  lesson_type: 'video',
  drip_delay: 0,
  is_published: true,
  is_progression_locked: false,
  description: '',
  body: '',
  settings_embed_host_a: null,
  settings_embed_host_b: null,
  settings_embed_host_c: null,
  settings_embed_host_d: null,
  settings_embed_code: null,
  embed_code: null,
});

/** Every managed field, in a fixed order (plans and state list fields in this order). */
export const LESSON_FIELDS = [
  'name',
  'lesson_type',
  'drip_delay',
  'is_published',
  'is_progression_locked',
  'description',
  'body',
  ...VIDEO_HOST_FIELDS,
  'settings_embed_code',
  'embed_code',
] as const satisfies readonly LessonField[];

/** A repo file a lesson shows or links to, published under a content-addressed name. */
export interface LessonAsset {
  /** Repo-relative path. */
  path: string;
  /** sha256 (hex) of its bytes. */
  digest: string;
  /** File name under assets.base_url (holds the digest, so a changed file gets a new URL). */
  name: string;
  /** Shown as an image (rather than linked). */
  image: boolean;
}

export interface DesiredLesson {
  /** Identity across edits, renames and moves (front-matter `key`, else the file name). */
  key: string;
  /** Earlier keys of this lesson (renames). */
  aliases: string[];
  /** Key of the lesson this one was copied from (informational, never sent). */
  copied_from?: string;
  /** Repo-relative path, `/` separators. */
  path: string;
  fields: LessonFields;
  /** sha256 (hex) of the source file's bytes, and of the assets it references when there are any. */
  digest: string;
  /** Repo files the lesson references (published by `coursesync assets`). */
  assets?: LessonAsset[];
  /** Keys of the lessons it links to: body and description hold lessonLinkMarker(key) for each. */
  links?: string[];
}

/** A section is named by id, or by exact name resolved through `GET /sections`. */
export type SectionRef = { id: string } | { name: string };

export interface DesiredSection {
  /** Repo-relative folder, `/` separators. */
  path: string;
  ref: SectionRef;
  /** In the desired order. */
  lessons: DesiredLesson[];
}

export interface DesiredProgram {
  /** Repo-relative folder, `/` separators. */
  path: string;
  id: string;
  name?: string;
  sections: DesiredSection[];
}

export interface DesiredState {
  config: CourseConfig;
  programs: DesiredProgram[];
  /** sha256 (hex) over every lesson's key, path, digest, order and section ref: a saved plan checks it. */
  digest: string;
}
