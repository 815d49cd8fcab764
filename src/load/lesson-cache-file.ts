/**
 * The on-disk lesson cache (I/O): `.coursesync/cache/lessons.json`, compiled clean lessons by
 * path and file digest, so a plan parses and renders only the files that changed. An entry is
 * used only when it was written by this very compiler: the file records its id
 * (load/compiler-id.ts: our code that compiles lessons and the installed packages it uses);
 * any change to either ignores the whole file.
 * Entries are checked against the lesson schemas before use; anything damaged is ignored and
 * written again; a failed write is not an error.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { CachedLesson } from '../compile/lesson-cache.js';
import { LessonFieldsSchema } from '../model/state/schema.js';
import { readCacheFile, writeCacheFile } from '../source/cache-file.js';

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
