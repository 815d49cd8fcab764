/**
 * StateStore: the one object apply uses to change state. Every change goes through `update()`,
 * which resolves once the change is durable (serial bumped), so apply can record a pending call
 * before its request and the result after it (write-ahead) and a kill loses nothing. Concurrent
 * chains share one store; their writes are grouped, never interleaved.
 *
 * A write appends one record to the journal (state/journal.ts) holding only what changed, found
 * through the draft `update()` hands out: every key read or written through it is marked
 * (state/track-changes.ts), so the cost of a write follows the change, not the state. The
 * journal is folded into state.json by `close()` and, after a kill, by the next `load()`.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { failure } from '../diagnostics/error-codes/index.js';
import { CoursesyncError } from '../diagnostics/errors.js';
import { encodeRecord, journalPath, type JournalRecord } from './journal.js';
import { acquireStateLock, type AcquireLockOptions, type StateLock } from './lock-state.js';
import { STATE_DIR, type PendingCall, type StateData } from './schema.js';
import { compactStateFile, removeStaleTempFiles, statePath, syncFolder, writeStateFile } from './state-file.js';
import { ChangeTracker } from './track-changes.js';

/** Normalise a base URL for comparison: no trailing slash. */
function normaliseBaseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * Refuse a state that belongs to another school. A state with no base_url yet (never applied)
 * matches any school.
 */
export function checkBaseUrl(state: StateData, baseUrl: string, file: string): void {
  if (state.base_url === null) return;
  if (normaliseBaseUrl(state.base_url) === normaliseBaseUrl(baseUrl)) return;
  throw failure('state/base-url-mismatch', { file, stateUrl: state.base_url, baseUrl });
}

export class StateStore {
  private readonly tracker: ChangeTracker;
  /** The write in progress, and the one queued behind it (group commit). */
  private inFlight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** Set when a write failed: the files no longer match memory, so nothing more is written. */
  private failure: unknown;
  /** The open journal, once this store has appended to it. */
  private journal: FileHandle | undefined;
  /** Whether state.json is on disk (a first write creates it whole; later ones append). */
  private onDisk: boolean;

  private constructor(
    readonly dir: string,
    private readonly current: StateData,
    /** Whether the file existed when loaded. */
    readonly existed: boolean,
    private lock: StateLock | undefined,
  ) {
    this.onDisk = existed;
    this.tracker = new ChangeTracker(current);
  }

  /**
   * Load the state of a repo (empty when there is no file yet), folding in a journal a killed
   * process left. With `lock`, take the state lock first; release it with `close()`.
   */
  static async load(dir: string, options: { lock?: boolean } & AcquireLockOptions = {}): Promise<StateStore> {
    const lock = options.lock ? await acquireStateLock(dir, options) : undefined;
    try {
      if (lock) await removeStaleTempFiles(dir);
      const { state, exists } = await compactStateFile(dir);
      return new StateStore(dir, state, exists, lock);
    } catch (e) {
      await lock?.release();
      throw e;
    }
  }

  /** The current state. Treat as read-only: change it with `update()`. */
  get data(): Readonly<StateData> {
    return this.current;
  }

  get file(): string {
    return statePath(this.dir);
  }

  get journalFile(): string {
    return journalPath(this.dir);
  }

  /** Write the current state (bumping serial), e.g. to create the file on a first apply. */
  async save(): Promise<void> {
    await this.update(() => {});
  }

  /**
   * Apply `mutate` to the state now and resolve once a write that includes it is durable.
   * Writes never overlap: updates made while a write is in flight are written together by the
   * next one (group commit), and `serial` goes up by one per write. Change the state only
   * through `draft` (an entry taken from `data` and edited is not written). A lesson entry's
   * `applied`, `response` and `uncertain` objects are frozen once written: replace them, never
   * edit them in place. After a failed write the store refuses further updates (the files hold
   * the last good state; memory does not).
   */
  update(mutate: (draft: StateData) => void): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    try {
      mutate(this.tracker.draft);
    } finally {
      this.tracker.settle();
    }
    return this.flush();
  }

  private flush(): Promise<void> {
    if (this.inFlight === undefined) {
      this.inFlight = this.writeNow().finally(() => {
        this.inFlight = undefined;
      });
      return this.inFlight;
    }
    this.queued ??= this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.failure === undefined ? this.flush() : Promise.reject(this.failure);
      });
    return this.queued;
  }

  private async writeNow(): Promise<void> {
    this.current.serial += 1;
    // Taken synchronously: what changes while this write is in flight goes into the next one.
    const record: JournalRecord = this.tracker.take(this.current.serial);
    const file = this.onDisk ? this.journalFile : this.file;
    try {
      if (!this.onDisk) {
        // No state.json yet: the first write creates it whole (it fixes the lineage).
        await writeStateFile(this.dir, this.current);
        this.onDisk = true;
      } else if (this.journal === undefined) {
        const header = encodeRecord({ journal: 1, lineage: this.current.lineage, base: this.current.serial - 1 });
        this.journal = await open(file, 'wx', 0o644);
        await this.journal.writeFile(header + encodeRecord(record), 'utf8');
        await this.journal.datasync();
        await syncFolder(join(this.dir, STATE_DIR));
      } else {
        await this.journal.writeFile(encodeRecord(record), 'utf8');
        await this.journal.datasync();
      }
    } catch (e) {
      this.failure = e instanceof CoursesyncError ? e : failure('state/write-failed', { file, reason: (e as Error).message }, { cause: e });
      throw this.failure;
    }
  }

  /** Write-ahead: record a call before its request is sent. */
  async beginCall(callId: string, call: PendingCall): Promise<void> {
    await this.update((s) => {
      s.pending[callId] = call;
    });
  }

  /** Record a call's outcome and drop its pending record, in one write. */
  async endCall(callId: string, record: (draft: StateData) => void): Promise<void> {
    await this.update((s) => {
      record(s);
      delete s.pending[callId];
    });
  }

  /**
   * Wait for writes in progress, fold the journal into state.json (replayed from the files, not
   * from memory: what was not journaled is not kept), then release the lock (when one was taken).
   * A compaction that fails leaves the journal, which the next load folds in. Never throws.
   */
  async close(): Promise<void> {
    await this.queued?.catch(() => undefined);
    await this.inFlight?.catch(() => undefined);
    try {
      if (this.journal !== undefined) {
        await this.journal.close().catch(() => undefined);
        this.journal = undefined;
        // Best effort: the journal is durable, and the next load folds it in.
        if (this.failure === undefined) await compactStateFile(this.dir).catch(() => undefined);
      }
    } finally {
      await this.lock?.release();
      this.lock = undefined;
    }
  }
}
