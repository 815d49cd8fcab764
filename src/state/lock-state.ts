/**
 * The lock file `.coursesync/state.lock` (pid, host, started_at) that stops two applies from
 * writing one state at once. It is written whole to a temp file and then hard-linked into
 * place, which fails when a lock exists: so taking it is atomic and a lock file is never seen
 * half-written. A lock left by a process that no longer runs on this host is stale; breaking
 * it takes a second lock (`state.lock.break`) and re-reads the lock first, so two processes
 * breaking the same stale lock cannot remove each other's fresh one.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { readFileSync } from 'node:fs';
import { link, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { CoursesyncError } from '../diagnostics/errors.js';
import { LOCK_FILE, stateFolderOf } from '../model/state/schema.js';
import { NotRegularFileError, readRegularFile } from './read-regular-file.js';
import { ensureWritableStateFolder } from './state-folder.js';

const LockSchema = z.object({ pid: z.int(), host: z.string(), started_at: z.string() });
export type LockInfo = z.output<typeof LockSchema>;

export interface AcquireLockOptions {
  /** `--force-unlock`: take the lock even when another process holds it. */
  force?: boolean;
  /** Told about a stale lock being taken over. */
  warn?: (message: string) => void;
  /** The environment whose state is locked (each has its own lock). */
  environment?: string | undefined;
}

/** A held lock; `release()` removes the file (idempotent). */
export interface StateLock {
  readonly file: string;
  release(): Promise<void>;
}

export function lockPath(dir: string, environment?: string): string {
  return join(dir, stateFolderOf(environment), LOCK_FILE);
}

/**
 * Whether a process with this pid runs on this host (EPERM: it runs, as another user). A
 * zombie (exited, not yet reaped by its parent) still answers signal 0 but will never release
 * its lock: on Linux its /proc state says so (`Z`, or `X` while being reaped).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false; // no /proc (not Linux), or it just went: signal 0 decided
  }
  // `pid (comm) S …`: comm may hold spaces and parentheses, the state follows the last `)`.
  const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  return state === 'Z' || state === 'X';
}

/** The temp file name a process uses while creating `file` (see createExclusive). */
const tempName = (file: string, pid: number): string => `${file}.${pid}.${randomUUID().slice(0, 8)}.tmp`;

/**
 * Remove the temp files of lock and break-lock creations whose process is gone: a process
 * killed between writing its temp file and removing it leaves one, which nothing else would
 * ever remove. Temp files of live processes are theirs to remove. Best effort.
 */
async function removeDeadTempFiles(folder: string): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const pattern = new RegExp(`^${LOCK_FILE.replace(/\./g, '\\.')}(?:\\.break)?\\.(\\d+)\\.[0-9a-f]{8}\\.tmp$`);
  await Promise.all(
    names.map(async (name) => {
      const pid = pattern.exec(name)?.[1];
      if (pid !== undefined && !isAlive(Number(pid))) await rm(join(folder, name), { force: true }).catch(() => undefined);
    }),
  );
}

/** The lock file's text, or null when there is none. */
async function readLockText(file: string): Promise<string | null> {
  try {
    return await readRegularFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    if (e instanceof NotRegularFileError) return ''; // not a lock coursesync wrote: unreadable, so stale
    throw e;
  }
}

function parseLock(text: string): LockInfo | undefined {
  try {
    const parsed = LockSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Create `file` holding `text`, atomically and only if it does not exist. */
async function createExclusive(file: string, text: string): Promise<boolean> {
  const temp = tempName(file, process.pid);
  const handle = await open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    await rm(temp, { force: true });
  }
}

/** A break lock older than this was left by a crash in the middle of breaking a lock. */
const BREAK_TIMEOUT_MS = 10_000;

/**
 * Remove the lock file if it still holds `seen` (the stale text we judged), under the break
 * lock. Returns without removing anything when another process is breaking it right now.
 */
async function breakLock(file: string, seen: string, me: LockInfo): Promise<void> {
  const breaker = `${file}.break`;
  if (!(await createExclusive(breaker, JSON.stringify(me) + '\n'))) {
    const age = await stat(breaker).then((st) => Date.now() - st.mtimeMs, () => 0);
    if (age > BREAK_TIMEOUT_MS) await rm(breaker, { force: true });
    await new Promise((r) => setTimeout(r, 20));
    return;
  }
  try {
    if ((await readLockText(file)) === seen) await rm(file, { force: true });
  } finally {
    await rm(breaker, { force: true });
  }
}

/**
 * Take the state lock of a repo. Held by a live process (or by another host, which we cannot
 * check) → CoursesyncError naming the holder and the two ways to break it.
 */
export async function acquireStateLock(dir: string, options: AcquireLockOptions = {}): Promise<StateLock> {
  const file = lockPath(dir, options.environment);
  const folder = await ensureWritableStateFolder(dir, options.environment);
  await removeDeadTempFiles(folder);
  const me: LockInfo = { pid: process.pid, host: hostname(), started_at: new Date().toISOString() };
  for (let attempt = 0; attempt < 20; attempt++) {
    if (await createExclusive(file, JSON.stringify(me) + '\n')) {
      let released = false;
      return {
        file,
        async release() {
          if (released) return;
          released = true;
          await rm(file, { force: true });
        },
      };
    }
    const text = await readLockText(file);
    if (text === null) continue; // released meanwhile: try again
    const holder = parseLock(text);
    const stale = holder !== undefined && holder.host === me.host && !isAlive(holder.pid);
    if (options.force || stale || holder === undefined) {
      // An unreadable lock was not written by coursesync (ours are never half-written): stale.
      const who = holder ? `pid ${holder.pid} on ${holder.host} since ${holder.started_at}` : 'an unreadable lock file';
      options.warn?.(`taking over the state lock held by ${who}${options.force ? ' (--force-unlock)' : ' (that process is gone)'}`);
      await breakLock(file, text, me);
      continue;
    }
    throw failure('state/locked', { file, holder });
  }
  throw failure('state/locked', { file });
}
