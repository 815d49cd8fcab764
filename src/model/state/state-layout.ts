/**
 * How a lesson entry is written in state.json (format 3) and read back, so a lesson costs what
 * the plan needs and no more: `applied` body and description as the fingerprint's hex digits
 * alone (schema.ts appliedOnDisk); each section's folder and program are written once, in the
 * top-level `folders` table (by section id), and a lesson entry then leaves out its
 * `program_id` when it is its section's, gives its `path` as a bare file name when the file is
 * in its section's folder, and its `deps` relative to its own folder (`img/figure.png`,
 * `../02-section/1-intro.md`). A path that cannot be written so is written from the repo root
 * with a leading `/`. The table is derived from the lessons (the folder and program most of a
 * section's lessons have), so a one-lesson change leaves it as it was.
 */
import { posix } from 'node:path';
import { FINGERPRINT_PREFIX } from './fingerprint.js';

/** What this module reads and writes of a lesson entry (schema.ts LessonState): where it is. */
export interface LessonLocation {
  section_id: string;
  program_id: string;
  path: string;
  deps?: string[] | undefined;
}

/** Where a section's lessons live: its folder (repo-relative) and its program's id. */
export interface SectionFolder {
  path: string;
  program_id: string;
}

/** The `folders` table: per section id, the folder and program most of its lessons have. */
export function foldersOf(lessons: Readonly<Record<string, Readonly<LessonLocation>>>): Record<string, SectionFolder> {
  const paths = new Map<string, Map<string, number>>();
  const programs = new Map<string, Map<string, number>>();
  const count = (m: Map<string, Map<string, number>>, section: string, value: string) => {
    let c = m.get(section);
    if (!c) m.set(section, (c = new Map()));
    c.set(value, (c.get(value) ?? 0) + 1);
  };
  for (const l of Object.values(lessons)) {
    count(paths, l.section_id, posix.dirname(l.path));
    count(programs, l.section_id, l.program_id);
  }
  const out: Record<string, SectionFolder> = Object.create(null) as Record<string, SectionFolder>;
  for (const [section, c] of paths) out[section] = { path: mostCommon(c), program_id: mostCommon(programs.get(section)!) };
  return out;
}

/** The value counted most often (the smallest such on a tie, so the choice is stable). */
export function mostCommon(counts: ReadonlyMap<string, number>): string {
  let best: [string, number] | undefined;
  for (const c of counts) if (!best || c[1] > best[1] || (c[1] === best[1] && c[0] < best[0])) best = c;
  return best![0];
}

/**
 * `path` relative to `folder` when it reads back exactly so (resolveFrom), else from the root
 * (`/...`). By hand: posix.relative resolves both against the working folder, ~5x the cost.
 */
function relativeTo(folder: string, path: string): string {
  let rel: string;
  if (folder === '.') rel = path;
  else if (path.startsWith(`${folder}/`)) rel = path.slice(folder.length + 1);
  else {
    const from = folder.split('/');
    const to = path.split('/');
    let common = 0;
    while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
    rel = '../'.repeat(from.length - common) + to.slice(common).join('/');
  }
  return rel !== '' && resolveFrom(folder, rel) === path ? rel : `/${path}`;
}

/**
 * A path as written (relativeTo) back to repo-relative: joined by hand when it climbs no
 * folder (most paths; posix.join, which normalizes, costs ~10x more on a 10,000-lesson state).
 */
function resolveFrom(folder: string, written: string): string {
  if (written.startsWith('/')) return written.slice(1);
  if (written.startsWith('.')) return posix.join(folder, written);
  return folder === '.' ? written : `${folder}/${written}`;
}

/** The location fields of `entry` as written, given its section's folder. */
export function locationOnDisk(entry: Readonly<LessonLocation>, folder: SectionFolder | undefined): { program_id?: string; path: string; deps?: string[] } {
  const own = posix.dirname(entry.path);
  const out: { program_id?: string; path: string; deps?: string[] } = {
    path: folder && own === folder.path && resolveFrom(own, posix.basename(entry.path)) === entry.path ? posix.basename(entry.path) : `/${entry.path}`,
  };
  if (entry.program_id !== folder?.program_id) out.program_id = entry.program_id;
  if (entry.deps) out.deps = entry.deps.map((d) => relativeTo(own, d));
  return out;
}

/** The hex digits of a fingerprint as format 3 writes them. */
const FINGERPRINT_DIGITS = /^[0-9a-f]{24}$/;

/** A fingerprint as read from state.json: its hex digits alone get their prefix back. */
export function fingerprintFromDisk(value: string): string {
  return FINGERPRINT_DIGITS.test(value) ? FINGERPRINT_PREFIX + value : value;
}

/** A lesson entry as the schema read it from state.json: `program_id` may be left to its section's folder. */
export type LocationOnDisk = Omit<LessonLocation, 'program_id'> & { program_id?: string | undefined };

/**
 * Make the lessons of a parsed (schema-checked) format-3 file (the one with `folders`, which
 * format 3 always writes, even empty) whole again, in place: the form
 * kept in memory and in the journal (locations from the repo root). The objects are the
 * schema's own output, so nothing of the caller's is changed. Returns the keys of lessons
 * with no `program_id` and no folder to take it from (a hand-edited file).
 */
export function expandLessons(lessons: Record<string, LocationOnDisk>, folders: Readonly<Record<string, SectionFolder>> | undefined): string[] {
  const orphans: string[] = [];
  for (const [key, entry] of Object.entries(lessons)) if (!expandLesson(entry, folders)) orphans.push(key);
  return orphans;
}

/** One lesson of expandLessons, in place; false when it is left with no `program_id`. */
export function expandLesson(entry: LocationOnDisk, folders: Readonly<Record<string, SectionFolder>> | undefined): boolean {
  // Format 2 and the journal: lessons already whole.
  if (folders === undefined) return entry.program_id !== undefined;
  const folder = Object.hasOwn(folders, entry.section_id) ? folders[entry.section_id] : undefined;
  const path = resolveFrom(folder?.path ?? '.', entry.path);
  entry.path = path;
  entry.program_id ??= folder?.program_id;
  if (entry.deps) {
    // posix.dirname, by hand: a repo path has no trailing or doubled slash (a tenth of reading a 10,000-lesson state).
    const slash = path.lastIndexOf('/');
    const own = slash <= 0 ? (slash === 0 ? '/' : '.') : path.slice(0, slash);
    // In place: the array is the reader's own copy (one array a lesson, not two).
    const deps = entry.deps;
    for (let i = 0; i < deps.length; i++) deps[i] = resolveFrom(own, deps[i]!);
  }
  return entry.program_id !== undefined;
}
