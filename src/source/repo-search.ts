/**
 * Where the course repo is, found the way git finds its root (I/O): the nearest folder at or
 * above the current one that holds `coursesync.yaml` or a state (`.coursesync/state.json`),
 * searched upward and stopping at the git root (a folder holding `.git`) or the filesystem
 * root; with none found, the current folder. Apart from repo-root.ts (which also refuses a repo
 * nested in another, with its error messages) so that the entry can find the folder a plan will
 * read before the commands load (cli/plan-folder.ts).
 */
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * What marks a course repo's root: its config, or a state. (`.coursesync/` alone is not a
 * mark: a plan run in a subfolder used to leave a render cache there.)
 */
const MARKERS = ['coursesync.yaml', '.coursesync/state.json'] as const;

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The marker `dir` holds (the first of MARKERS), or undefined. */
export async function markerIn(dir: string): Promise<string | undefined> {
  for (const m of MARKERS) if (await exists(join(dir, m))) return m;
  return undefined;
}

/** `dir` and its parents up to and including the git root (or the filesystem root). */
export async function* upward(dir: string): AsyncGenerator<string> {
  let current = dir;
  for (;;) {
    yield current;
    if (await exists(join(current, '.git'))) return;
    const parent = dirname(current);
    if (parent === current) return;
    current = parent;
  }
}

/** The course repo's folder: `explicit` resolved from `cwd` when given, else the nearest marked folder at or above `cwd`, else `cwd` (absolute). */
export async function courseFolder(explicit: string | undefined, cwd: string = process.cwd()): Promise<string> {
  if (explicit !== undefined) return resolve(cwd, explicit);
  const start = resolve(cwd);
  for await (const d of upward(start)) if (await markerIn(d)) return d;
  return start;
}
