/**
 * The stat index (I/O), like git's: `.coursesync/cache/stat-index.json` maps each course file
 * read by an earlier run to its size, mtime, ctime and inode (nanoseconds, from a bigint stat)
 * and the sha256 of its bytes, so a file whose stat data is unchanged is not even read: a
 * plan of an unchanged repo costs a stat per file.
 *
 * Never trusted blindly: an entry answers only when all four stat fields are equal, and only
 * when the file's mtime and ctime are both older than the moment the index's snapshot began
 * (`since`, taken before the first stat of the run that wrote it, minus a margin for the
 * kernel's coarse file clock). A file changed in the same clock tick as it was read would keep
 * its stat data; such "racily clean" entries are read and hashed again, as git does. An edit
 * that restores size and mtime (utimes) still moves ctime; a file replaced by a rename has a
 * new inode. Like every cache file: a missing, damaged or unreadable index is ignored and
 * rewritten, and a failed write is not an error.
 */
import type { BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { readCacheFile, writeCacheFile } from './cache-file.js';

/** Where the index lives inside a course repo. */
export const STAT_INDEX_FILE = join('.coursesync', 'cache', 'stat-index.json');
const TAG = 'coursesync-stat-index/1';

/** The kernel stamps files from a coarse clock (a few ms behind the real time): stay clear of it. */
const CLOCK_MARGIN_NS = 100_000_000n;

/** The stat data an entry is checked against. */
export interface StatData {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
}

export interface StatEntry extends StatData {
  digest: string;
}

function statData(stats: BigIntStats): StatData {
  return { size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs, ino: stats.ino };
}

/**
 * The digest `entry` vouches for when the file's stat data is now `now`, else undefined: same
 * size, mtime, ctime and inode, and not racily clean (mtime and ctime older than `since`).
 */
export function cleanDigest(entry: StatEntry | undefined, now: StatData, since: bigint): string | undefined {
  if (!entry) return undefined;
  if (entry.size !== now.size || entry.mtimeNs !== now.mtimeNs || entry.ctimeNs !== now.ctimeNs || entry.ino !== now.ino) return undefined;
  if (entry.mtimeNs >= since || entry.ctimeNs >= since) return undefined;
  return entry.digest;
}

/** The moment a snapshot starts, on the scale of file times (ns since the epoch), margin included. */
function snapshotStart(): bigint {
  return BigInt(Date.now()) * 1_000_000n - CLOCK_MARGIN_NS;
}

export class StatIndex {
  /** This run's entries: what the next index holds. */
  private readonly next = new Map<string, StatEntry>();
  private dirty: boolean;

  private constructor(
    private readonly stored: ReadonlyMap<string, StatEntry>,
    /** When the stored snapshot began; entries not older than this are racily clean. */
    private readonly since: bigint,
    /** When this run's snapshot began: the `since` of the index it writes. */
    private readonly start: bigint,
  ) {
    this.dirty = stored.size === 0;
  }

  /** An index that knows nothing (no cache wanted, or none readable). */
  static empty(): StatIndex {
    return new StatIndex(new Map(), 0n, snapshotStart());
  }

  /** Read the index of the repo at `dir`; call before the first stat of the run. */
  static async read(dir: string): Promise<StatIndex> {
    const start = snapshotStart();
    const entries = new Map<string, StatEntry>();
    let since = 0n;
    const accept = (tag: string) => {
      const [name, at, ...rest] = tag.split(' ');
      if (name !== TAG || at === undefined || !WHOLE.test(at) || rest.length > 0) return false;
      since = BigInt(at);
      return true;
    };
    const read = await readCacheFile(join(dir, STAT_INDEX_FILE), 'index', accept, (path, row) => {
      const entry = entryOf(row);
      if (entry) entries.set(path, entry);
    });
    return read ? new StatIndex(entries, since, start) : new StatIndex(new Map(), 0n, start);
  }

  /** Whether the index holds an entry for `path` at all: without one, a stat could not spare the read (a fresh checkout). */
  has(path: string): boolean {
    return this.stored.has(path);
  }

  /** The digest of the file at `path` whose stat is `stats`, when the index vouches for it (the entry is kept). */
  lookup(path: string, stats: BigIntStats): string | undefined {
    const entry = this.stored.get(path);
    const digest = cleanDigest(entry, statData(stats), this.since);
    if (digest !== undefined && entry) this.next.set(path, entry);
    else this.dirty = true;
    return digest;
  }

  /** Remember that the file at `path`, with stat data `stats` taken before its bytes were read, has `digest`. */
  record(path: string, stats: BigIntStats, digest: string): void {
    this.next.set(path, { ...statData(stats), digest });
    this.dirty = true;
  }

  /** Write this run's entries to the repo at `dir` when they differ from what was read. */
  async write(dir: string): Promise<boolean> {
    if (!this.dirty && this.next.size === this.stored.size) return true;
    const rows = new Map<string, string[]>();
    for (const [path, e] of this.next) rows.set(path, [String(e.size), String(e.mtimeNs), String(e.ctimeNs), String(e.ino), e.digest]);
    return writeCacheFile(join(dir, STAT_INDEX_FILE), 'index', `${TAG} ${this.start}`, rows);
  }
}

const DIGEST = /^[0-9a-f]{64}$/;
const WHOLE = /^\d+$/;

/** An entry as written (size, mtime, ctime, inode as decimal strings, then the digest), or undefined. */
function entryOf(row: unknown): StatEntry | undefined {
  if (!Array.isArray(row) || row.length !== 5) return undefined;
  const [size, mtime, ctime, ino, digest] = row as unknown[];
  if (![size, mtime, ctime, ino].every((v) => typeof v === 'string' && WHOLE.test(v)) || typeof digest !== 'string' || !DIGEST.test(digest)) return undefined;
  return { size: BigInt(size as string), mtimeNs: BigInt(mtime as string), ctimeNs: BigInt(ctime as string), ino: BigInt(ino as string), digest };
}
