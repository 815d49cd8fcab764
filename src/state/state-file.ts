/**
 * Reading and writing `.coursesync/state.json`. Reads are zod-parsed; anything unreadable is a
 * clear error naming the file and the file is left as it is. Writes are atomic (temp file in
 * the same folder, fsync, rename, fsync the folder), so a kill at any instant leaves either the
 * old file or the new one, never half of one.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { STATE_DIR, STATE_FILE, STATE_VERSION, StateSchema, emptyState, protoKeyIn, type StateData } from './schema.js';
import { NotRegularFileError, readRegularFile } from './read-regular-file.js';
import { serializeState } from './serialize-state.js';
import { migrateV1, StateV1Schema } from './state-v1.js';

/** Absolute path of the state file of a course repo. */
export function statePath(dir: string): string {
  return join(dir, STATE_DIR, STATE_FILE);
}

/**
 * Load the state of a repo. A missing file is an empty state with a new lineage (first run);
 * `exists` says which it was.
 */
export async function readStateFile(dir: string): Promise<{ state: StateData; exists: boolean }> {
  const file = statePath(dir);
  let text: string;
  try {
    text = await readRegularFile(file);
  } catch (e) {
    if (e instanceof NotRegularFileError) {
      throw failure('state/not-a-file', { file, kind: e.kind });
    }
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { state: emptyState(randomUUID()), exists: false };
    const blocked = (e as NodeJS.ErrnoException).code === 'ENOTDIR';
    const reason = blocked ? `${join(dir, STATE_DIR)} is a file, not a folder` : (e as Error).message;
    throw failure('state/unreadable', { file, reason, blocked }, { cause: e });
  }
  return { state: parseStateText(text, file), exists: true };
}

/** Parse state JSON; every failure names the file and says what to do. Never writes. */
export function parseStateText(text: string, file: string): StateData {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw failure('state/corrupt', { file, reason: (e as Error).message });
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > STATE_VERSION) {
    throw failure('state/newer-version', { file, version, supported: STATE_VERSION });
  }
  const proto = protoKeyIn(raw);
  if (proto !== undefined) {
    const problem = '"__proto__" is not a lesson key, section folder or call id (coursesync never writes it; the entry was edited by hand)';
    throw failure('state/invalid', { file, where: proto, problem, more: 0 });
  }
  // A version-1 file is migrated in memory; it is written as version 2 by the next write.
  const parsed = version === 1 ? StateV1Schema.transform(migrateV1).safeParse(raw) : StateSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? first.path.join('.') : '(top level)';
    throw failure('state/invalid', { file, where, problem: first?.message ?? 'invalid', more: parsed.error.issues.length - 1 });
  }
  return parsed.data;
}

/** Write `state` atomically to the repo's state file (creating `.coursesync/` when needed). */
export async function writeStateFile(dir: string, state: StateData): Promise<void> {
  await writeFileAtomic(statePath(dir), serializeState(state));
}

/**
 * Remove temp files of state writes that never reached their rename: a process killed
 * mid-write (SIGKILL, power loss) leaves one, and nothing else would ever remove it (found by
 * the crash-loop test). Call only with the state lock held, so no write of another process is
 * in progress. Best effort: a file that cannot be removed is left.
 */
export async function removeStaleTempFiles(dir: string): Promise<void> {
  const folder = join(dir, STATE_DIR);
  const names = await readdir(folder).catch(() => [] as string[]);
  const pattern = new RegExp(`^${STATE_FILE.replace(/\./g, '\\.')}\\.\\d+\\.[0-9a-f]{8}\\.tmp$`);
  await Promise.all(names.filter((n) => pattern.test(n)).map((n) => rm(join(folder, n), { force: true }).catch(() => undefined)));
}

/** temp file in the same folder → fsync → rename over the target → fsync the folder. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const folder = join(file, '..');
  await mkdir(folder, { recursive: true });
  const temp = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true });
    throw failure('state/write-failed', { file, reason: (e as Error).message }, { cause: e });
  }
  await syncFolder(folder);
}

/** fsync a directory so the rename itself is durable (not supported everywhere: best effort). */
async function syncFolder(folder: string): Promise<void> {
  let handle;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows, some network filesystems) cannot fsync a directory.
  } finally {
    await handle?.close();
  }
}
