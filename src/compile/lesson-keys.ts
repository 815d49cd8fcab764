/**
 * Keys of lessons without `key:` (PURE). A file name the repo uses once gives the key, as it
 * always has (`01-welcome.md` → `welcome`). A name several lesson files share (`README.md`,
 * `homework.md` in every module) gives each of them a key qualified by its folders below the
 * program folder (`02-basics/homework.md` → `basics.homework`; the whole repo path when even
 * those repeat), except that a lesson the state already tracks at its path under one of these
 * keys keeps that key: adding a file never changes the key of a lesson already applied.
 * docs/course-repo.md#lesson-keys.
 */
import { keyFromFileName, withoutOrderingPrefix } from './compile-lesson.js';
import type { LessonEntry } from './course-parts.js';

export interface KeyContext {
  /** The program folder holding a lesson file. */
  programDirOf(path: string): string;
  /** The key the state tracks a lesson file under, if any. */
  recordedKeyAt?: ((path: string) => string | undefined) | undefined;
}

/** Give each lesson whose key came from a repeated file name its qualified (or recorded) key. */
export function assignKeys(entries: readonly LessonEntry[], context: KeyContext): void {
  // Only a lesson whose key comes from its file name gets one here (a `key:` is the author's; a
  // lesson known from the state keeps the key recorded): only the file keys of those lessons
  // (the lessons compiled now, a few in most plans) can make a group that needs one.
  const named = new Set<string>();
  for (const entry of entries) if (entry.compiled.identity?.fromFileName) named.add(fileKey(entry.source.path));
  if (named.size === 0) return;
  const byFileKey = new Map<string, LessonEntry[]>();
  for (const entry of entries) {
    const identity = entry.compiled.identity;
    if (!identity || !(identity.fromFileName || entry.known)) continue;
    // A known lesson is of a group only when its path holds the group's file key: most are not looked at further.
    if (!identity.fromFileName && !someIn(named, entry.source.path)) continue;
    const key = fileKey(entry.source.path);
    if (!named.has(key)) continue;
    const group = byFileKey.get(key);
    if (group) group.push(entry);
    else byFileKey.set(key, [entry]);
  }
  let takenKeys: Set<string> | undefined;
  // Keys given by `key:` or recorded for a known lesson: made only when a recorded key is asked for.
  const taken = () => (takenKeys ??= new Set(entries.flatMap((e) => (e.compiled.identity && !e.compiled.identity.fromFileName ? [e.compiled.identity.key] : []))));
  for (const [plain, group] of byFileKey) {
    if (group.length < 2) continue;
    const inProgram = group.map((e) => qualifiedKey(e.source.path, context.programDirOf(e.source.path), true));
    const inRepo = group.map((e) => qualifiedKey(e.source.path, '', false));
    const once = (keys: string[], i: number) => keys.filter((k) => k === keys[i]).length === 1;
    for (const [i, entry] of group.entries()) {
      const identity = entry.compiled.identity!;
      if (!identity.fromFileName) continue;
      const path = entry.source.path;
      // Files of one folder whose names give one key (`1.7 End of module quiz.md`, `2.4 End of
      // module quiz.md`): the name as written tells them apart (a duplicate key before, so no
      // lesson was ever applied under another of these).
      const written = once(inRepo, i) ? inRepo[i]! : asWritten(path);
      const recorded = context.recordedKeyAt?.(path);
      const candidates = [plain, inProgram[i]!, written];
      const key = recorded !== undefined && candidates.includes(recorded) && !taken().has(recorded) ? recorded : once(inProgram, i) ? inProgram[i]! : written;
      // A new object: the compiled lesson may be shared with the lesson cache.
      entry.compiled = { ...entry.compiled, identity: { ...identity, key } };
    }
  }
}

/** Whether `path` contains one of `keys` (a file key is part of its file's name). */
function someIn(keys: ReadonlySet<string>, path: string): boolean {
  for (const key of keys) if (path.includes(key)) return true;
  return false;
}

/** The key a lesson file's name gives. */
export function fileKey(path: string): string {
  return keyFromFileName(path.slice(path.lastIndexOf('/') + 1));
}

/** The repo path as written, its `.md` off, `/` as `.` and other characters a key may not hold as `-`: unique, like paths. */
function asWritten(path: string): string {
  return path
    .replace(/\.md$/i, '')
    .split('/')
    .map((p) => p.replace(/[^A-Za-z0-9._-]+/g, '-'))
    .join('.')
    .replace(/^[^A-Za-z0-9]+/, '');
}

/**
 * The file key after the folders from `base` down, joined by `.`: without their ordering
 * prefixes (`02-basics` → `basics`) when `short`, as named otherwise.
 */
function qualifiedKey(path: string, base: string, short: boolean): string {
  const rel = base === '' ? path : path.slice(base.length + 1);
  const folders = rel.split('/').slice(0, -1);
  // Folders by the first rule alone: a key applied under a folder named `01 - Basics` stays `01-Basics.…`.
  const parts = [...folders.map((f) => (short ? withoutOrderingPrefix(f.replace(/\.md$/i, '')) : f)), fileKey(path)];
  return parts
    .map((p) => p.replace(/[^A-Za-z0-9._-]+/g, '-'))
    .join('.')
    .replace(/^[^A-Za-z0-9]+/, '');
}
