/**
 * The files of a course repo as read from disk (by source/) and handed to compile/ (PURE).
 * Text is already decoded: UTF-8 checked, BOM stripped, CRLF turned into LF.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { RefusedFile } from './assets.js';

export interface SourceFile {
  /** Repo-relative path, `/` separators. */
  path: string;
  text: string;
  /** sha256 (hex) of the file's bytes as stored. */
  digest: string;
}

/** A block of text and the 1-based file line where it starts. */
export interface TextBlock {
  text: string;
  line: number;
}

/** A front-matter block: the lines between its delimiters; `toml` when they are `+++` (Hugo, Zola), else YAML (`---`). */
export interface FrontMatterBlock extends TextBlock {
  toml?: true;
}

/**
 * A lesson file. Its path and digest are always known; its text (and so front-matter and body)
 * may be read from disk on first access (source/read-source.ts, when the stat index vouches
 * for the file): code that can decide from the digest alone should not touch them.
 */
export interface LessonSource extends SourceFile {
  /** The YAML between the `---` lines (or TOML between `+++` lines); null when the file has no front-matter. */
  frontMatter: FrontMatterBlock | null;
  /** True when the file opens a front-matter block and never closes it. */
  frontMatterUnclosed: boolean;
  /** Everything after the front-matter. */
  body: TextBlock;
  /** Set when includes or variables were expanded into the body (compile/expand-lesson.ts). */
  expanded?: ExpandedText;
}

/** Where a line of an expanded body came from. */
export interface LineOrigin {
  /** The lesson file line it stands for (the directive's line for included text). */
  line: number;
  /** The directive's column, for included text. */
  column?: number;
  /** The repo file the text was written in, when it is not the lesson itself: its links resolve from there. */
  base?: string;
}

/** What expanding a lesson's includes and variables gave, beside its new text. */
export interface ExpandedText {
  /** One per line of the expanded body. */
  origins: LineOrigin[];
  /** Repo paths of the files included, directly or not, sorted. */
  includes: string[];
  /** The variables used and their values, sorted by name. */
  vars: Array<{ name: string; value: string }>;
  /** sha256 of the expanded text: what the lesson compiles from, besides path and settings. */
  digest: string;
  /** What expanding it found wrong in the files it includes (its own file's problems are reported with its others). */
  onIncludes: Diagnostic[];
}

export interface SourceTree {
  /** `coursesync.yaml` at the repo root, when present. */
  config?: SourceFile;
  /** Every `program.yaml`, sorted by path. */
  programs: SourceFile[];
  /** Every `section.yaml`, sorted by path. */
  sections: SourceFile[];
  /** Every `*.md` file outside ignored folders, sorted by path. */
  lessons: LessonSource[];
  /**
   * Every other file of the repo (images, PDFs, downloads), path → sha256 of its bytes: what
   * lessons may reference. Hidden folders and node_modules are left out, as for lessons.
   */
  files?: ReadonlyMap<string, string>;
  /**
   * Files of `files` reached through a symlink, and folder links: path → real repo path (a
   * folder's ends in `/`), so that `ignore:` can refuse a link into an ignored path.
   */
  linked?: ReadonlyMap<string, string>;
  /**
   * Paths a lesson may not reference, and why: a symlink (file or folder) into a hidden folder
   * or node_modules, a file over the asset size limit. Never in `files`.
   */
  refused?: ReadonlyMap<string, RefusedFile>;
  /**
   * The text of a repo file that is not a lesson (a code listing an include reads), read on
   * demand; undefined when it cannot be had as text. Its bytes are the ones `files` has the digest of.
   */
  readText?: (path: string) => string | undefined;
  /**
   * The text of a lesson file this run has read, when that text is exactly the file's bytes (no
   * BOM dropped, no CRLF changed): a plan takes the file's git blob id and its text for display
   * from it instead of reading the file again. Undefined for a file not read, or not verbatim.
   */
  verbatimText?: (path: string) => string | undefined;
  /** Problems found while reading (unreadable files, bad encoding, symlinks leaving the repo). */
  diagnostics: Diagnostic[];
}
