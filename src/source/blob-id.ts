/** Git blob ids of files (I/O): what `git hash-object` gives, so a plan can name a file's versions. */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The git blob id of `bytes`: sha1 of `"blob <size>\0"` + bytes. */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The blob id of the repo file at `path` (repo-relative), or null when it cannot be read. */
export async function blobIdOfFile(dir: string, path: string): Promise<string | null> {
  try {
    return gitBlobId(await readFile(join(dir, path)));
  } catch {
    return null;
  }
}
