/**
 * Which folder is the course repo, found the way git finds its root (docs/cli.md#folder-discovery):
 * without a folder argument, the nearest folder at or above the current one that holds
 * `coursesync.yaml` or a state (`.coursesync/state.json`), searched upward and stopping at the git root (a folder
 * holding `.git`) or the filesystem root; with none found, the current folder. A folder given
 * explicitly is used as given. Either way a course repo is never nested in another: a state
 * written inside one would track the same lessons a second time.
 */
import { stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { failure } from '../diagnostics/error-codes/index.js';

/**
 * What marks a course repo's root: its config, or a state. (`.coursesync/` alone is not a
 * mark: a plan run in a subfolder used to leave a render cache there.)
 */
const MARKERS = ['coursesync.yaml', '.coursesync/state.json'] as const;

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The marker `dir` holds (the first of MARKERS), or undefined. */
async function markerIn(dir: string): Promise<string | undefined> {
  for (const m of MARKERS) if (await exists(join(dir, m))) return m;
  return undefined;
}

/** `dir` and its parents up to and including the git root (or the filesystem root). */
async function* upward(dir: string): AsyncGenerator<string> {
  let current = dir;
  for (;;) {
    yield current;
    if (await exists(join(current, '.git'))) return;
    const parent = dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

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
  let root: string | undefined;
  if (explicit !== undefined) {
    root = resolve(cwd, explicit);
  } else {
    const start = resolve(cwd);
    for await (const d of upward(start)) {
      if (await markerIn(d)) {
        root = d;
        break;
      }
    }
    root ??= start;
  }
  const above = await markedAbove(root);
  if (above) {
    const own = await markerIn(root);
    const inner = shown(root);
    const outer = shown(above.dir);
    throw failure('repo/nested', { inner, outer, marker: above.marker, own, ownPath: own ? join(inner, own) : undefined });
  }
  return explicit ?? root;
}
