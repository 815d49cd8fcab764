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
import { FINGERPRINT_PREFIX, FINGERPRINTED_FIELDS } from './fingerprint.js';
import type { LessonState } from './schema.js';

/** Where a section's lessons live: its folder (repo-relative) and its program's id. */
export interface SectionFolder {
  path: string;
  program_id: string;
}

/** The `folders` table: per section id, the folder and program most of its lessons have. */
export function foldersOf(lessons: Readonly<Record<string, LessonState>>): Record<string, SectionFolder> {
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
function mostCommon(counts: ReadonlyMap<string, number>): string {
  let best: [string, number] | undefined;
  for (const c of counts) if (!best || c[1] > best[1] || (c[1] === best[1] && c[0] < best[0])) best = c;
  return best![0];
}

/** `path` relative to `folder` when it reads back exactly so (resolveFrom), else from the root (`/...`). */
function relativeTo(folder: string, path: string): string {
  const rel = posix.relative(folder, path);
  return rel !== '' && !rel.startsWith('/') && resolveFrom(folder, rel) === path ? rel : `/${path}`;
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
export function locationOnDisk(entry: Readonly<LessonState>, folder: SectionFolder | undefined): { program_id?: string; path: string; deps?: string[] } {
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

/**
 * Parsed state.json text of format 3 with its lessons made whole again (the form kept in
 * memory and in the journal: locations from the repo root, fingerprints with their prefix),
 * for the schema to check. Only a file with `folders` (format 3 writes it, even empty) is so
 * written. The entries are filled in place: `raw` is the caller's own fresh JSON.parse, and
 * new objects for 10,000 lessons cost ~5x more. Anything not shaped as written is left as it
 * is, for the schema to report; `folders` stays for the schema to check.
 */
export function expandLessons(raw: unknown): unknown {
  if (!isRecord(raw) || !isRecord(raw.folders) || !isRecord(raw.lessons)) return raw;
  const folders = raw.folders;
  for (const entry of Object.values(raw.lessons)) {
    if (!isRecord(entry) || typeof entry.path !== 'string' || typeof entry.section_id !== 'string') continue;
    const folder = Object.hasOwn(folders, entry.section_id) ? folders[entry.section_id] : undefined;
    const path = resolveFrom(isRecord(folder) && typeof folder.path === 'string' ? folder.path : '.', entry.path);
    entry.path = path;
    if (entry.program_id === undefined && isRecord(folder)) entry.program_id = folder.program_id;
    if (Array.isArray(entry.deps)) {
      const own = posix.dirname(path);
      entry.deps = entry.deps.map((d: unknown) => (typeof d === 'string' ? resolveFrom(own, d) : d));
    }
    if (isRecord(entry.applied)) {
      for (const f of FINGERPRINTED_FIELDS) {
        const v = entry.applied[f];
        if (typeof v === 'string' && FINGERPRINT_DIGITS.test(v)) entry.applied[f] = FINGERPRINT_PREFIX + v;
      }
    }
  }
  return raw;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
