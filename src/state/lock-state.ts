/**
 * The lock file `.coursesync/state.lock` (pid, host, started_at) that stops two applies from
 * writing one state at once. Created with O_EXCL, so taking it is atomic. A lock left by a
 * process that no longer runs on this host is stale and is taken over with a warning.
 */
import { hostname } from 'node:os';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { CoursesyncError } from '../diagnostics/errors.js';
import { LOCK_FILE, STATE_DIR } from './schema.js';

const LockSchema = z.object({ pid: z.int(), host: z.string(), started_at: z.string() });
export type LockInfo = z.output<typeof LockSchema>;

export interface AcquireLockOptions {
  /** `--force-unlock`: take the lock even when another process holds it. */
  force?: boolean;
  /** Told about a stale lock being taken over. */
  warn?: (message: string) => void;
}

/** A held lock; `release()` removes the file (idempotent). */
export interface StateLock {
  readonly file: string;
  release(): Promise<void>;
}

export function lockPath(dir: string): string {
  return join(dir, STATE_DIR, LOCK_FILE);
}

/** Whether a process with this pid runs on this host (EPERM: it runs, as another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readLock(file: string): Promise<LockInfo | undefined> {
  try {
    const parsed = LockSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Take the state lock of a repo. Held by a live process (or by another host, which we cannot
 * check) → CoursesyncError naming the holder and the two ways to break it.
 */
export async function acquireStateLock(dir: string, options: AcquireLockOptions = {}): Promise<StateLock> {
  const file = lockPath(dir);
  await mkdir(join(dir, STATE_DIR), { recursive: true });
  const me: LockInfo = { pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o644);
      try {
        await handle.writeFile(JSON.stringify(me) + '\n', 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      let released = false;
      return {
        file,
        async release() {
          if (released) return;
          released = true;
          await rm(file, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = await readLock(file);
    const stale = holder !== undefined && holder.host === me.host && !isAlive(holder.pid);
    if (options.force || stale || holder === undefined) {
      // An unreadable lock is a half-written one from a crash: as stale as a dead pid.
      const who = holder ? `pid ${holder.pid} on ${holder.host} since ${holder.started_at}` : 'an unreadable lock file';
      options.warn?.(`taking over the state lock held by ${who}${options.force ? ' (--force-unlock)' : ' (that process is gone)'}`);
      await rm(file, { force: true });
      continue;
    }
    throw new CoursesyncError(
      `the state is locked by pid ${holder.pid} on ${holder.host} since ${holder.started_at} (${file})`,
      {
        code: 'state/locked',
        hint: 'wait for that apply to finish; if it is gone, run again with --force-unlock or delete the lock file',
      },
    );
  }
  throw new CoursesyncError(`cannot take the state lock ${file}: another process keeps taking it`, {
    code: 'state/locked',
    hint: 'make sure only one apply runs at a time',
  });
}
