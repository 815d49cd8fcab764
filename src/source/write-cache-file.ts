/**
 * The one writer of the cache files under `.coursesync/cache/`: a JSON object of a version tag
 * and a map of entries, written in chunks to a temp file and renamed into place, so a reader
 * never sees half a file and peak memory does not double on tens of MB of cache.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Write `{"<tagName>": tag, "entries": {key: value, …}}` to `file` atomically. Returns false
 * when it could not be written (read-only checkout, full disk): a cache is only ever a speed-up.
 */
export async function writeCacheFile(file: string, tagName: string, tag: string, entries: ReadonlyMap<string, unknown>): Promise<boolean> {
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dirname(file), { recursive: true });
    const handle = await open(temp, 'w');
    try {
      let chunk = `{${JSON.stringify(tagName)}:${JSON.stringify(tag)},"entries":{`;
      let first = true;
      for (const [key, value] of entries) {
        chunk += `${first ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(value)}`;
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
