/**
 * Reading and writing `.coursesync/state.json`. Reads are checked against the state schema
 * (model/state/parse-state.ts: StateSchema's answer, faster); anything unreadable is a
 * clear error naming the file and the file is left as it is. Writes are atomic (temp file in
 * the same folder, fsync, rename, fsync the folder), so a kill at any instant leaves either the
 * old file or the new one, never half of one.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { STATE_FILE, STATE_VERSION, emptyState, protoKeyIn, type StateData, stateFolderOf } from '../model/state/schema.js';
import { parseState } from '../model/state/parse-state.js';
import { NotRegularFileError, readRegularFile } from './read-regular-file.js';
import { serializeState } from './serialize-state.js';
import { journalFits, journalPath, parseJournal, replayJournal } from './journal.js';
import { migrateV1, StateV1Schema } from './state-v1.js';

/** Absolute path of the state file of a course repo. */
export function statePath(dir: string, environment?: string): string {
  return join(dir, stateFolderOf(environment), STATE_FILE);
}

/** Read a file of the state folder: its text, or null when it does not exist. */
async function readStateFolderFile(folder: string, file: string): Promise<string | null> {
  try {
    return await readRegularFile(file);
  } catch (e) {
    if (e instanceof NotRegularFileError) {
      throw failure('state/not-a-file', { file, kind: e.kind });
    }
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    const blocked = (e as NodeJS.ErrnoException).code === 'ENOTDIR';
    const reason = blocked ? `${folder} is a file, not a folder` : (e as Error).message;
    throw failure('state/unreadable', { file, reason, blocked }, { cause: e });
  }
}

export interface LoadedState {
  state: StateData;
  exists: boolean;
  /** Whether a journal was found next to state.json (replayed into `state`, or already in it). */
  journaled: boolean;
  /** Bytes of a torn tail dropped from the journal (an append a kill cut short), 0 when none. */
  tornBytes?: number;
}

/**
 * Load the state of a repo: state.json with its journal replayed (state/journal.ts). A missing
 * file is an empty state with a new lineage (first run); `exists` says which it was. Never
 * writes. `locked`: the caller holds the state lock, so no compaction can run between the two
 * reads; without it the journal is read first, so a compaction between the reads shows as a
 * journal state.json already holds.
 */
export async function readStateFile(dir: string, options: { locked?: boolean; environment?: string | undefined } = {}): Promise<LoadedState> {
  const file = statePath(dir, options.environment);
  const journalFile = journalPath(dir, options.environment);
  const folder = join(dir, stateFolderOf(options.environment));
  const journalText = await readStateFolderFile(folder, journalFile);
  const text = await readStateFolderFile(folder, file);
  const journal = journalText === null ? null : parseJournal(journalText, journalFile);
  if (text === null) {
    if (journal !== null) throw failure('state/journal-mismatch', { file: journalFile, stateFile: file, why: `${file} does not exist` });
    return { state: emptyState(randomUUID()), exists: false, journaled: false };
  }
  const state = parseStateText(text, file);
  if (journal === null) return { state, exists: true, journaled: journalText !== null };
  const fits = journalFits(state, journal, journalFile, file, options.locked === true);
  return { state: fits === 'replay' ? replayJournal(state, journal, journalFile) : state, exists: true, journaled: true, tornBytes: journal.tornBytes };
}

/**
 * Fold a journal left next to state.json into it (a kill before compaction), then remove the
 * journal: state.json is written whole and atomically first, so a kill at any instant leaves a
 * state that reads the same. Call only with the state lock held.
 */
export async function compactStateFile(dir: string, environment?: string): Promise<LoadedState> {
  const loaded = await readStateFile(dir, { locked: true, environment });
  if (!loaded.journaled) return loaded;
  await writeStateFile(dir, loaded.state, environment);
  await rm(journalPath(dir, environment), { force: true });
  await syncFolder(join(dir, stateFolderOf(environment)));
  return { ...loaded, journaled: false };
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
  // Version 1 is migrated in memory, version 2 read as it is (StateSchema, checked fast by
  // parseState); either is written as the current version by the next write.
  const parsed = version === 1 ? StateV1Schema.transform(migrateV1).safeParse(raw) : parseState(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? first.path.join('.') : '(top level)';
    throw failure('state/invalid', { file, where, problem: first?.message ?? 'invalid', more: parsed.error.issues.length - 1 });
  }
  return parsed.data;
}

/** Write `state` atomically to the repo's state file (creating `.coursesync/` when needed). */
export async function writeStateFile(dir: string, state: StateData, environment?: string): Promise<void> {
  await writeFileAtomic(statePath(dir, environment), serializeState(state));
}

/**
 * Remove temp files of state writes that never reached their rename: a process killed
 * mid-write (SIGKILL, power loss) leaves one, and nothing else would ever remove it (found by
 * the crash-loop test). Call only with the state lock held, so no write of another process is
 * in progress. Best effort: a file that cannot be removed is left.
 */
export async function removeStaleTempFiles(dir: string, environment?: string): Promise<void> {
  const folder = join(dir, stateFolderOf(environment));
  const names = await readdir(folder).catch(() => [] as string[]);
  const pattern = new RegExp(`^${STATE_FILE.replace(/\./g, '\\.')}\\.\\d+\\.[0-9a-f]{8}\\.tmp$`);
  await Promise.all(names.filter((n) => pattern.test(n)).map((n) => rm(join(folder, n), { force: true }).catch(() => undefined)));
}

/** temp file in the same folder → fsync → rename over the target → fsync the folder. */
export async function writeFileAtomic(file: string, text: string | Iterable<string>): Promise<void> {
  const folder = join(file, '..');
  await mkdir(folder, { recursive: true });
  const temp = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    const handle = await open(temp, 'wx', 0o644);
    try {
      if (typeof text === 'string') await handle.writeFile(text, 'utf8');
      else for (const part of text) await handle.write(part, null, 'utf8');
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
export async function syncFolder(folder: string): Promise<void> {
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
