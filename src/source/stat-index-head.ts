/**
 * The stat index's place, tag and first line (I/O): all a run needs to tell whether the index
 * may spare reads before it reads any of it. Apart from stat-index.ts (which reads and writes
 * the index whole) so that the entry can tell it before the commands load (cli/plan-folder.ts)
 * loading nothing else.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openRegularFile } from '../state/read-regular-file.js';

/** Where the index lives inside a course repo. */
export const STAT_INDEX_FILE = join('.coursesync', 'cache', 'stat-index.json');
/** /2: numbers in ms (/1 held nanoseconds as strings; such a file is a miss). */
export const STAT_INDEX_TAG = 'coursesync-stat-index/2';

/**
 * Whether the stat index of the repo at `dir` may spare reading files: it is there, and the
 * repo's config (coursesync.yaml, else its state file) is older than the index. A checkout
 * writes every file anew, so an index restored after one (a CI cache) vouches for none: the
 * whole repo is then to be read, as on a fresh checkout (load/read-aside.ts reads it on another
 * core). Reads the index's first line only. An edit of the config alone is reason enough: what
 * this decides is only which thread reads (each file is still checked against the index), and
 * that read writes the index anew.
 */
export async function indexMaySpare(dir: string): Promise<boolean> {
  let head: string;
  try {
    const handle = await openRegularFile(join(dir, STAT_INDEX_FILE));
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(80), 0, 80, 0);
      head = buffer.toString('latin1', 0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
  const since = new RegExp(`^\\{"index":"${STAT_INDEX_TAG} (\\d+)"`).exec(head)?.[1];
  if (since === undefined) return false;
  for (const marker of ['coursesync.yaml', join('.coursesync', 'state.json')]) {
    const info = await stat(join(dir, marker)).catch(() => undefined);
    // As an entry vouches (stat-index.ts `vouches`): changed before the index's snapshot, clock margin and all.
    if (info) return info.ctimeMs < Number(since);
  }
  return true;
}
