/**
 * The on-disk lesson cache (I/O): `.coursesync/cache/lessons.json`, compiled clean lessons by
 * path and file digest, so a plan parses and renders only the files that changed. An entry is
 * used only when it was written by this very compiler: the file records a digest of the code
 * that compiles lessons (compile/, model/, diagnostics/, the school rules compile uses, and
 * package.json with its dependency ranges); any change to that code ignores the whole file.
 * Entries are checked against the lesson schemas before use; anything damaged is ignored and
 * written again; a failed write is not an error.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { CachedLesson } from '../compile/lesson-cache.js';
import { LessonFieldsSchema } from '../model/state/schema.js';
import { readCacheFile, writeCacheFile } from './cache-file.js';

/** Where the cache lives inside a course repo. */
export const LESSON_CACHE_FILE = join('.coursesync', 'cache', 'lessons.json');

const PlaceSchema = z.strictObject({ line: z.int(), column: z.int() });
const CachedLessonSchema = z.strictObject({
  identity: z.strictObject({
    key: z.string(),
    keyPlace: PlaceSchema.optional(),
    aliases: z.array(z.strictObject({ key: z.string(), place: PlaceSchema.optional() })),
    fromFileName: z.literal(true).optional(),
  }),
  fields: LessonFieldsSchema,
  copied_from: z.string().optional(),
  refs: z.array(
    z.strictObject({ url: z.string(), image: z.boolean(), line: z.int(), column: z.int(), field: z.enum(['body', 'description']), index: z.int().min(0), base: z.string().optional() }),
  ),
  anchors: z.array(z.string()),
});

/** Code whose change can change what compiling a lesson gives (relative to the built root). */
const COMPILER_FOLDERS = ['compile', 'model', 'diagnostics'];
const COMPILER_FILES = ['school-api/video-urls', 'school-api/body-rules', 'school-api/school-rules'];

let compilerDigestMemo: Promise<string> | undefined;

/** sha256 of the code that compiles lessons, as installed (built JavaScript, or sources under a test runner). */
export function compilerDigest(): Promise<string> {
  compilerDigestMemo ??= (async () => {
    const root = fileURLToPath(new URL('../', import.meta.url));
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    const files: string[] = COMPILER_FILES.map((f) => join(root, f + ext));
    for (const folder of COMPILER_FOLDERS) {
      for (const name of (await readdir(join(root, folder))).sort()) if (name.endsWith(ext)) files.push(join(root, folder, name));
    }
    const hash = createHash('sha256');
    for (const file of files) hash.update(file.slice(root.length)).update('\0').update(await readFile(file)).update('\0');
    hash.update(await readFile(join(root, '..', 'package.json')));
    return hash.digest('hex');
  })();
  return compilerDigestMemo;
}

/** The short compiler digest the state records per lesson (12 hex of compilerDigest). */
export async function compilerId(): Promise<string> {
  return (await compilerDigest()).slice(0, 12);
}

/** Absolute path of the lesson cache of the repo at `dir`. */
export function lessonCachePath(dir: string): string {
  return join(dir, LESSON_CACHE_FILE);
}

/** Read the lesson cache of the repo at `dir` made by `compiler`: key → lesson; anything else is left out. */
export async function readLessonCache(dir: string, compiler: string): Promise<Map<string, CachedLesson>> {
  const entries = new Map<string, CachedLesson>();
  // Checked, then kept as read (the schema changes nothing): not a second copy of every lesson.
  await readCacheFile(lessonCachePath(dir), 'compiler', (tag) => tag === compiler, (key, value) => {
    if (CachedLessonSchema.safeParse(value).success) entries.set(key, value as CachedLesson);
  });
  return entries;
}

/** Replace the lesson cache of the repo at `dir`; false when it could not be written. */
export async function writeLessonCache(dir: string, compiler: string, entries: ReadonlyMap<string, CachedLesson>): Promise<boolean> {
  return writeCacheFile(lessonCachePath(dir), 'compiler', compiler, entries);
}
