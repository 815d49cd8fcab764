/**
 * The on-disk render cache (I/O): `.coursesync/cache/render.json` in the course repo (ignored
 * by git), digest → rendered HTML and its problems. One file (cache-file.ts): a plan of 10,000
 * lessons reads one file instead of 10,000. It is only ever a cache: a missing, unreadable or
 * damaged file or entry is ignored (and rewritten), and a failed write is not an error.
 * Each write keeps only the entries the run used, so the file never outgrows the repo.
 */
import { join } from 'node:path';
import { isRenderResult } from '../compile/render-cache.js';
import type { RenderResult } from '../compile/rendered-html.js';
import { readCacheFile, writeCacheFile } from '../source/cache-file.js';

/** Where the cache lives inside a course repo. */
export const RENDER_CACHE_FILE = join('.coursesync', 'cache', 'render.json');

/** Absolute path of the render cache of the repo at `dir`. */
export function renderCachePath(dir: string): string {
  return join(dir, RENDER_CACHE_FILE);
}

/**
 * Read the render cache of the repo at `dir` made by `compiler` (load/compiler-id.ts):
 * digest → result. Anything missing, unreadable, written by other code or other installed
 * packages, or not shaped like a result is left out.
 */
export async function readRenderCache(dir: string, compiler: string): Promise<Map<string, RenderResult>> {
  const entries = new Map<string, RenderResult>();
  // A key that is not a digest can never be looked up, so only the values are checked.
  await readCacheFile(renderCachePath(dir), 'compiler', (tag) => tag === compiler, (digest, value) => {
    if (isRenderResult(value)) entries.set(digest, value);
  });
  return entries;
}

/**
 * Replace the render cache of the repo at `dir` with `entries`. Returns false when it could not
 * be written (read-only checkout, full disk): the next run renders again, nothing else changes.
 */
export async function writeRenderCache(dir: string, compiler: string, entries: ReadonlyMap<string, RenderResult>): Promise<boolean> {
  return writeCacheFile(renderCachePath(dir), 'compiler', compiler, entries);
}
