/**
 * The stat index (I/O), like git's: `.coursesync/cache/stat-index.json` maps each course file
 * read by an earlier run to its size, mtime, ctime and inode and the sha256 of its bytes, so a
 * file whose stat data is unchanged is not even read: a plan of an unchanged repo costs a stat
 * per file.
 *
 * Never trusted blindly: an entry answers only when all four stat fields are equal, and only
 * when the file's mtime and ctime are both older than the moment the index's snapshot began
 * (`since`, taken before the first stat of the run that wrote it, minus a margin for the
 * kernel's coarse file clock). A file changed in the same clock tick as it was read would keep
 * its stat data; such "racily clean" entries are read and hashed again, as git does. An edit
 * that restores size and mtime (utimes) still moves ctime; a file replaced by a rename has a
 * new inode. Like every cache file: a missing, damaged or unreadable index is ignored and
 * rewritten, and a failed write is not an error.
 *
 * Numbers, not BigInt (a BigInt stat and an object per entry were most of a memo hit's stat and
 * GC time): size and inode are compared exactly (an inode past 2^53 never vouches), mtime and
 * ctime as the double milliseconds of a plain stat, to ~0.25 µs. That is finer than the
 * kernel's file clock, and the racy rule makes it enough: an entry vouches only for times
 * older than its run's start, so a change made after its stat has a ctime at least the margin
 * later than the one recorded.
 *
 * Stored in columns, not an entry per line like the other cache files: one JSON object of the
 * tag, the paths, their stat numbers (four per path) and their digests as one hex string, so
 * reading it builds no object per entry (10,000 rows parsed as arrays, then checked one by
 * one, were ~100 ms of a memo hit before its code was warm; the columns take ~40):
 *
 *   {"index":"coursesync-stat-index/2 <since ms>",
 *   "paths":["a/program.yaml",…],
 *   "stats":[size,mtimeMs,ctimeMs,ino,…],
 *   "digests":"<64 hex per path>"}
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { openRegularFile } from '../state/read-regular-file.js';
import { writeCacheText } from './cache-file.js';

/** Where the index lives inside a course repo. */
export const STAT_INDEX_FILE = join('.coursesync', 'cache', 'stat-index.json');
/** /2: numbers in ms (/1 held nanoseconds as strings; such a file is a miss). */
const TAG = 'coursesync-stat-index/2';

/** The kernel stamps files from a coarse clock (a few ms behind the real time): stay clear of it. */
const CLOCK_MARGIN_MS = 100;

/** The stat data an entry is checked against (a plain `Stats` is one). */
export interface StatData {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export interface StatEntry extends StatData {
  digest: string;
}

/**
 * The digest `entry` vouches for when the file's stat data is now `now`, else undefined: same
 * size, mtime, ctime and inode (a safe integer), and not racily clean (mtime and ctime older
 * than `since`).
 */
export function cleanDigest(entry: StatEntry | undefined, now: StatData, since: number): string | undefined {
  if (!entry) return undefined;
  return vouches(entry.size, entry.mtimeMs, entry.ctimeMs, entry.ino, now, since) ? entry.digest : undefined;
}

/** The rule, on an entry's four numbers: `cleanDigest`'s, without an object. */
function vouches(size: number, mtimeMs: number, ctimeMs: number, ino: number, now: StatData, since: number): boolean {
  return size === now.size && mtimeMs === now.mtimeMs && ctimeMs === now.ctimeMs && ino === now.ino && Number.isSafeInteger(ino) && mtimeMs < since && ctimeMs < since;
}

/** The moment a snapshot starts, on the scale of file times (ms since the epoch), margin included. */
function snapshotStart(): number {
  return Date.now() - CLOCK_MARGIN_MS;
}

/** Numbers per row of `StatIndex.numbers`: size, mtime, ctime, inode. */
const WIDTH = 4;
/** Hex digits of a digest: `digests` holds one per row, back to back. */
const HEX = 64;

/** The index as stored: paths, their stat numbers and digests, in columns. */
interface Columns {
  since: number;
  paths: string[];
  numbers: number[];
  digests: string;
}

export class StatIndex {
  /** Rows of the stored index this run kept (vouched for), by row number. */
  private readonly kept: Uint8Array;
  private keptCount = 0;
  /** Entries of files read this run: with the kept rows, what the next index holds. */
  private readonly recorded = new Map<string, StatEntry>();
  private dirty: boolean;

  /** Path to row in `numbers` (WIDTH per row) and `digests` (HEX per row); a path stored twice: its last row. */
  private readonly rows = new Map<string, number>();
  private readonly numbers: readonly number[];
  private readonly digests: string;
  /** When the stored snapshot began; entries not older than this are racily clean. */
  private readonly since: number;

  private constructor(
    stored: Columns,
    /** When this run's snapshot began: the `since` of the index it writes. */
    private readonly start: number,
  ) {
    ({ numbers: this.numbers, digests: this.digests, since: this.since } = stored);
    stored.paths.forEach((path, row) => this.rows.set(path, row));
    this.kept = new Uint8Array(stored.paths.length);
    this.dirty = stored.paths.length === 0;
  }

  /** An index that knows nothing (no cache wanted, or none readable). */
  static empty(): StatIndex {
    return new StatIndex({ since: 0, paths: [], numbers: [], digests: '' }, snapshotStart());
  }

  /** Read the index of the repo at `dir`; call before the first stat of the run. */
  static async read(dir: string): Promise<StatIndex> {
    const start = snapshotStart();
    const stored = await readColumns(join(dir, STAT_INDEX_FILE));
    return new StatIndex(stored ?? { since: 0, paths: [], numbers: [], digests: '' }, start);
  }

  /** Whether the index holds an entry for `path` at all: without one, a stat could not spare the read (a fresh checkout). */
  has(path: string): boolean {
    return this.rows.has(path);
  }

  /** The digest of the file at `path` whose stat is `stats`, when the index vouches for it (the entry is kept). */
  lookup(path: string, stats: StatData): string | undefined {
    const row = this.rows.get(path);
    if (row !== undefined) {
      const n = this.numbers;
      const at = row * WIDTH;
      if (vouches(n[at]!, n[at + 1]!, n[at + 2]!, n[at + 3]!, stats, this.since)) {
        if (this.kept[row] === 0) {
          this.kept[row] = 1;
          this.keptCount++;
        }
        return this.digests.slice(row * HEX, row * HEX + HEX);
      }
    }
    this.dirty = true;
    return undefined;
  }

  /** Remember that the file at `path`, with stat data `stats` taken before its bytes were read, has `digest`. */
  record(path: string, stats: StatData, digest: string): void {
    this.recorded.set(path, { size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino, digest });
    this.dirty = true;
  }

  /** Write this run's entries to the repo at `dir` when they differ from what was read. */
  async write(dir: string): Promise<boolean> {
    if (!this.dirty && this.keptCount === this.rows.size) return true;
    const paths: string[] = [];
    const numbers: number[] = [];
    const digests: string[] = [];
    const n = this.numbers;
    for (const [path, row] of this.rows) {
      if (this.kept[row] === 0 || this.recorded.has(path)) continue;
      paths.push(path);
      numbers.push(n[row * WIDTH]!, n[row * WIDTH + 1]!, n[row * WIDTH + 2]!, n[row * WIDTH + 3]!);
      digests.push(this.digests.slice(row * HEX, row * HEX + HEX));
    }
    for (const [path, e] of this.recorded) {
      paths.push(path);
      numbers.push(e.size, e.mtimeMs, e.ctimeMs, e.ino);
      digests.push(e.digest);
    }
    const text = `{"index":${JSON.stringify(indexField(this.start))},\n"paths":${JSON.stringify(paths)},\n"stats":${JSON.stringify(numbers)},\n"digests":"${digests.join('')}"}\n`;
    return writeCacheText(join(dir, STAT_INDEX_FILE), [text]);
  }
}

const HEX_DIGITS = /^[0-9a-f]*$/;
const WHOLE = /^\d+$/;

/**
 * Whether the stat index of the repo at `dir` may spare reading files: it is there, and the
 * repo's config (coursesync.yaml, else its state file) is older than the index. A checkout
 * writes every file anew, so an index restored after one (a CI cache) vouches for none: the
 * whole repo is then to be read, as on a fresh checkout (load/read-aside.ts reads it on another
 * core, and writes a new index). Reads the index's first line only. An edit of the config
 * alone is reason enough: that costs one plan a read of every file, and the next trusts the
 * new index.
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
  // The file starts with its `index` field (StatIndex.write): a JSON string with no escape or
  // control character in it, so JSON.parse cannot fail on it.
  const field = /^\{"index":("[^"\\\u0000-\u001f]*")/.exec(head)?.[1];
  const since = field === undefined ? undefined : sinceOf(JSON.parse(field));
  if (since === undefined) return false;
  for (const marker of ['coursesync.yaml', join('.coursesync', 'state.json')]) {
    const info = await stat(join(dir, marker)).catch(() => undefined);
    // As an entry vouches (`vouches`): changed before the index's snapshot, clock margin and all.
    if (info) return info.ctimeMs < since;
  }
  return true;
}

/** An index's `index` field: the tag of this format and when the snapshot began. */
const indexField = (since: number): string => `${TAG} ${since}`;

/** When the snapshot began, as an `index` field of this format says; undefined for any other. */
function sinceOf(index: unknown): number | undefined {
  if (typeof index !== 'string') return undefined;
  const [name, at, ...rest] = index.split(' ');
  const since = Number(at);
  return name === TAG && at !== undefined && WHOLE.test(at) && rest.length === 0 && Number.isSafeInteger(since) ? since : undefined;
}

/**
 * The index stored in `file`, or undefined when it is missing, unreadable, not a regular file
 * (a FIFO would hang the read), of another version, or not in this shape.
 */
async function readColumns(file: string): Promise<Columns | undefined> {
  let text: string;
  try {
    const handle = await openRegularFile(file);
    try {
      text = readFileSync(handle.fd, 'utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  let top: unknown;
  try {
    top = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof top !== 'object' || top === null) return undefined;
  const { index, paths, stats, digests } = top as Record<string, unknown>;
  const since = sinceOf(index);
  if (since === undefined) return undefined;
  if (!Array.isArray(paths) || !Array.isArray(stats) || typeof digests !== 'string') return undefined;
  if (stats.length !== paths.length * WIDTH || digests.length !== paths.length * HEX || !HEX_DIGITS.test(digests)) return undefined;
  for (const path of paths) if (typeof path !== 'string') return undefined;
  for (const v of stats) if (typeof v !== 'number' || !(v >= 0) || !Number.isFinite(v)) return undefined;
  return { since, paths: paths as string[], numbers: stats as number[], digests };
}
