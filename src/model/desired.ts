/**
 * The desired state: what the repo says the school should hold. Built by `compile/` from the
 * files, consumed by `plan/`. Pure data, no I/O.
 */
import type { CourseConfig } from './config.js';
import type { LessonFields } from '../school-api/school-rules.js';
import type { RecordedWarning } from './state/schema.js';

// The lesson field list, types and defaults are rules of the school: school-api/school-rules.ts.
export {
  DEFAULT_LESSON_FIELDS,
  LESSON_FIELDS,
  LESSON_TYPES,
  VIDEO_HOST_FIELDS,
  type LessonField,
  type LessonFields,
  type LessonType,
  type VideoHostField,
} from '../school-api/school-rules.js';

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
  /** Learner-impact rules acknowledged in the front-matter (never sent). */
  acknowledge?: string[];
  /** sha256 (hex) of the source file's bytes, and of the assets it references when there are any. */
  digest: string;
  /** Repo files the lesson references (published by `coursesync assets`). */
  assets?: LessonAsset[];
  /** Keys of the lessons it links to: body and description hold lessonLinkMarker(key) for each. */
  links?: string[];
  /**
   * What its state digest is computed from (compile/lesson-digest.ts); present only when the
   * lesson compiled with no diagnostic at all.
   */
  build?: LessonBuildInputs;
  /** Known unchanged from the state's digest: `fields` are the state's (body and description as fingerprints), never sent. */
  unchanged?: true;
}

/** Where a reference is written in its lesson file. */
export interface LinkPlace {
  line: number;
  column: number;
}

/** A lesson's file, inherited settings and referenced files, as its digest covers them. */
export interface LessonBuildInputs {
  /** sha256 of the lesson file's bytes. */
  file: string;
  /** The inherited settings, canonical. */
  settings: string;
  /**
   * Each referenced file (sorted by path): an asset or another lesson, by the sha256 of its
   * bytes; for a lesson, where the links to it are written (line and column, in order), which
   * the file's bytes fix and the digest therefore covers. Then each path a link goes to at its
   * page in the repo (`repo_url:`; sorted), by a digest of what decides that (lesson-builds.ts
   * DepIndex.pageDigest): not its bytes, as the page is the repo's own.
   */
  deps: Array<{ path: string; kind: 'file' | 'lesson' | 'page'; digest: string; at?: LinkPlace[] }>;
  /** Each file its body includes (sorted by path), by the sha256 of its bytes; absent when none. */
  includes?: Array<{ path: string; digest: string }>;
  /** Each variable it uses (sorted by name) and its value; absent when none. */
  vars?: Array<{ name: string; value: string }>;
  /**
   * Not an input: the warnings its own text gave (model/state/schema.ts RECORDED_WARNING_CODES),
   * recorded with the build so that the lesson, taken from the state, still reports them.
   */
  warnings?: RecordedWarning[];
}

/** A section is named by id, or by exact name resolved through `GET /sections`. */
export type SectionRef = { id: string } | { name: string };

export interface DesiredSection {
  /** Repo-relative folder, `/` separators; for a chapter of a book's SUMMARY.md, its file (or `SUMMARY.md:<line>` for a draft chapter). */
  path: string;
  /** A chapter of a book: where SUMMARY.md names it (errors about its section point there, not to a section.yaml). */
  toc?: { file: string; line: number; column: number };
  ref: SectionRef;
  /** In the desired order. */
  lessons: DesiredLesson[];
  /**
   * Set when every lesson of the section is known unchanged from the state (taken as recorded,
   * `unchanged`): their keys in the desired order. `lessons` is then made on first access:
   * what only needs to know that they are as applied reads this instead.
   */
  settled?: { keys: readonly string[] };
}

/** Where a section is declared, for messages: `p/s/section.yaml`, or a book's `SUMMARY.md:line:col`. */
export function sectionSource(section: Pick<DesiredSection, 'path' | 'toc'>): string {
  return section.toc ? `${section.toc.file}:${section.toc.line}:${section.toc.column}` : `${section.path}/section.yaml`;
}

export interface DesiredProgram {
  /** Repo-relative folder, `/` separators. */
  path: string;
  id: string;
  /** With ids per environment (`id: {staging: a, production: b}`): every environment's id. */
  ids?: Record<string, string>;
  name?: string;
  sections: DesiredSection[];
}

export interface DesiredState {
  config: CourseConfig;
  programs: DesiredProgram[];
  /** sha256 (hex) over every lesson's key, path, digest, order and section ref: a saved plan checks it. */
  digest: string;
  /** The environment compiled for (`--env`), in a repo with environments. */
  environment?: string;
}
