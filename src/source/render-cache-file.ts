/**
 * The on-disk render cache (I/O): `.coursesync/cache/render.json` in the course repo (ignored
 * by git), digest → rendered HTML and its problems. One file, read in one go: a plan of 10,000
 * lessons reads one file instead of 10,000. It is only ever a cache: a missing, unreadable or
 * damaged file or entry is ignored (and rewritten), and a failed write is not an error.
 * Each write keeps only the entries the run used, so the file never outgrows the repo.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isRenderResult, RENDERER_ID } from '../compile/render-cache.js';
import type { RenderResult } from '../compile/render.js';

/** Where the cache lives inside a course repo. */
export const RENDER_CACHE_FILE = join('.coursesync', 'cache', 'render.json');

interface CacheFileContent {
  renderer: string;
  entries: Record<string, unknown>;
}

/** Absolute path of the render cache of the repo at `dir`. */
export function renderCachePath(dir: string): string {
  return join(dir, RENDER_CACHE_FILE);
}

/**
 * Read the render cache of the repo at `dir`: digest → result. Anything missing, unreadable,
 * written by another renderer, or not shaped like a result is left out.
 */
export async function readRenderCache(dir: string): Promise<Map<string, RenderResult>> {
  const entries = new Map<string, RenderResult>();
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(renderCachePath(dir), 'utf8'));
  } catch {
    return entries;
  }
  if (typeof raw !== 'object' || raw === null) return entries;
  const file = raw as Partial<CacheFileContent>;
  if (file.renderer !== RENDERER_ID || typeof file.entries !== 'object' || file.entries === null) return entries;
  // A key that is not a digest can never be looked up, so only the values are checked.
  for (const [digest, value] of Object.entries(file.entries)) if (isRenderResult(value)) entries.set(digest, value);
  return entries;
}

/**
 * Replace the render cache of the repo at `dir` with `entries` (temp file, then rename, so a
 * reader never sees half a file). Returns false when it could not be written (read-only
 * checkout, full disk): the next run renders again, nothing else changes.
 */
export async function writeRenderCache(dir: string, entries: ReadonlyMap<string, RenderResult>): Promise<boolean> {
  const file = renderCachePath(dir);
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(join(dir, '.coursesync', 'cache'), { recursive: true });
    // Written in chunks: one string of the whole cache (tens of MB) would double peak memory.
    const handle = await open(temp, 'w');
    try {
      let chunk = `{"renderer":${JSON.stringify(RENDERER_ID)},"entries":{`;
      let first = true;
      for (const [digest, result] of entries) {
        chunk += `${first ? '' : ','}${JSON.stringify(digest)}:${JSON.stringify(result)}`;
        first = false;
        if (chunk.length > 1 << 20) {
          await handle.write(chunk);
          chunk = '';
        }
      }
      await handle.write(chunk + '}}');
    } finally {
      await handle.close();
    }
    await rename(temp, file);
    return true;
  } catch {
    await rm(temp, { force: true }).catch(() => undefined);
    return false;
  }
}
