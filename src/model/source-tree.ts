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

/**
 * A lesson file. Its path and digest are always known; its text (and so front-matter and body)
 * may be read from disk on first access (source/read-source.ts, when the stat index vouches
 * for the file): code that can decide from the digest alone should not touch them.
 */
export interface LessonSource extends SourceFile {
  /** The YAML between the `---` lines; null when the file has no front-matter. */
  frontMatter: TextBlock | null;
  /** True when the file opens a front-matter block and never closes it. */
  frontMatterUnclosed: boolean;
  /** Everything after the front-matter. */
  body: TextBlock;
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
  /** Problems found while reading (unreadable files, bad encoding, symlinks leaving the repo). */
  diagnostics: Diagnostic[];
}
