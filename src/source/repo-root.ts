/**
 * Which folder is the course repo, found the way git finds its root (docs/cli.md#folder-discovery,
 * repo-search.ts); a folder given explicitly is used as given. Either way a course repo is never
 * nested in another: a state written inside one would track the same lessons a second time.
 */
import { dirname, join, relative } from 'node:path';
import { failure } from '../diagnostics/error-codes/index.js';
import { courseFolder, exists, markerIn, upward } from './repo-search.js';

/** The nearest folder strictly above `dir` (within the same git repo) that holds a marker. */
async function markedAbove(dir: string): Promise<{ dir: string; marker: string } | undefined> {
  if (await exists(join(dir, '.git'))) return undefined;
  for await (const d of upward(dirname(dir))) {
    const marker = await markerIn(d);
    if (marker) return { dir: d, marker };
  }
  return undefined;
}

/** A folder as the user sees it: relative to the current folder when inside it, else absolute. */
function shown(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel === '' ? '.' : rel.startsWith('..') ? dir : rel;
}

/**
 * The course repo to work on: `explicit` unchanged (so messages show it as the user wrote it),
 * else the absolute path of the folder found.
 * @param explicit a folder the user named (argument or --dir), used as given
 * @param cwd where the search starts without one (default: the current folder)
 * @throws CoursesyncError `repo/nested` when the folder lies inside another course repo
 */
export async function findRepoRoot(explicit: string | undefined, cwd: string = process.cwd()): Promise<string> {
  const root = await courseFolder(explicit, cwd);
  const above = await markedAbove(root);
  if (above) {
    const own = await markerIn(root);
    const inner = shown(root);
    const outer = shown(above.dir);
    throw failure('repo/nested', { inner, outer, marker: above.marker, own, ownPath: own ? join(inner, own) : undefined });
  }
  return explicit ?? root;
}
