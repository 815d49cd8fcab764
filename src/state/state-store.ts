/**
 * StateStore: the one object apply uses to change state. Every change goes through `update()`,
 * which resolves once the change is written (serial bumped), so apply can record a pending call
 * before its request and the result after it (write-ahead). Concurrent chains share one store.
 *
 * A write appends one record to the journal (state/journal.ts) holding only what changed, found
 * through the draft `update()` hands out: every key read or written through it is marked
 * (state/track-changes.ts), so the cost of a write follows the change, not the state. The
 * journal is folded into state.json by `close()` and, after a kill, by the next `load()`.
 *
 * Two levels of "written" (docs/guarantees.md#what-is-durable-before-a-request-leaves):
 * - `written`: the record is appended (a `write` to the journal) when `update()` resolves, so a
 *   killed process (SIGKILL, a crash) loses nothing; only the operating system or the power
 *   failing can still lose it.
 * - `synced`: the journal is also fsynced. fsyncs are group commits: one in flight, one queued
 *   behind it for every record appended meanwhile. Records written without waiting are fsynced
 *   in the background within a few milliseconds (one fsync for a burst of them).
 */
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { failure } from '../diagnostics/error-codes/index.js';
import { CoursesyncError } from '../diagnostics/errors.js';
import { encodeRecord, journalPath } from './journal.js';
import { acquireStateLock, type AcquireLockOptions, type StateLock } from './lock-state.js';
import { stateFolderOf, type PendingCall, type StateData } from '../model/state/schema.js';
import { compactStateFile, readStateFile, removeStaleTempFiles, statePath, syncFolder, writeStateFile } from './state-file.js';
import { ChangeTracker } from './track-changes.js';

/** fdatasync, looked up at each call (a test puts a slow disk in its place). */
const datasync = (fd: number) => new Promise<void>((resolve, reject) => fdatasync(fd, (e) => (e ? reject(e) : resolve())));

/**
 * What `update()` waits for: `synced` (fsynced: survives a power loss) or `written` (appended:
 * survives the process being killed, and is fsynced in the background).
 */
export type Durability = 'synced' | 'written';

/** How long a record written without waiting may stay un-fsynced (the background group commit). */
const SYNC_SOON_MS = 5;

export class StateStore {
  private readonly tracker: ChangeTracker;
  /** The first write of a repo without state.json (it writes the file whole), and the record after it. */
  private creating: Promise<void> | undefined;
  private afterCreate: Promise<void> | undefined;
  /** The background fsync, once scheduled. */
  private soon: ReturnType<typeof setTimeout> | undefined;
  /** The fsync in progress, and the one queued behind it (group commit). */
  private syncing: Promise<void> | undefined;
  private syncQueued: Promise<void> | undefined;
  /** Records appended to the journal, and how many of them an fsync has covered. */
  private appended = 0;
  private synced = 0;
  /** Set when a write failed: the files no longer match memory, so nothing more is written. */
  private failure: unknown;
  /** The open journal (a file descriptor), once this store has appended to it. */
  private journal: number | undefined;
  /** Whether the folder was fsynced since the journal was created (its name is durable). */
  private journalNamed = false;
  /** Whether state.json is on disk (a first write creates it whole; later ones append). */
  private onDisk: boolean;
  private readonly journalPathname: string;
  /** Why close() could not fold the journal into state.json (it stays, for the next load). */
  foldError: Error | undefined;

  private constructor(
    readonly dir: string,
    private readonly current: StateData,
    /** Whether the file existed when loaded. */
    readonly existed: boolean,
    private lock: StateLock | undefined,
    /** The environment whose state this is (its own folder), in a repo with environments. */
    readonly environment: string | undefined,
  ) {
    this.onDisk = existed;
    this.journalPathname = journalPath(dir, environment);
    this.tracker = new ChangeTracker(current);
  }

  /**
   * Load the state of a repo (empty when there is no file yet), folding in a journal a killed
   * process left. With `lock`, take the state lock first; release it with `close()`.
   */
  static async load(dir: string, options: { lock?: boolean } & AcquireLockOptions = {}): Promise<StateStore> {
    const lock = options.lock ? await acquireStateLock(dir, options) : undefined;
    try {
      if (lock) await removeStaleTempFiles(dir, options.environment);
      // Only the lock holder folds the journal in: a reader must not rewrite state.json under a live writer.
      const { state, exists, tornBytes } = lock ? await compactStateFile(dir, options.environment) : await readStateFile(dir, { environment: options.environment });
      // Said only by the lock holder: a reader may see the tail of an append still in progress.
      if (lock && tornBytes) options.warn?.(`the state journal ended in ${tornBytes} bytes of a record a killed process never finished writing (no newline): dropped (that write was never acknowledged, so it held no call that was sent)`);
      return new StateStore(dir, state, exists, lock, options.environment);
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
    return statePath(this.dir, this.environment);
  }

  get journalFile(): string {
    return this.journalPathname;
  }

  /** Write the current state (bumping serial), e.g. to create the file on a first apply. */
  async save(): Promise<void> {
    await this.update(() => {});
  }

  /**
   * Apply `mutate` to the state now and resolve once a write that includes it is `durability`
   * (default `synced`; see the file header). Each update is one record, appended before this
   * returns, and `serial` goes up by one per record; updates made while state.json is first
   * written share the record after it. Change the state only through `draft` (an entry taken
   * from `data` and edited is not written). A lesson entry's `applied`, `response` and
   * `uncertain` objects are frozen once written: replace them, never edit them in place. After
   * a failed write the store refuses further updates (the files hold the last good state;
   * memory does not).
   */
  update(mutate: (draft: StateData) => void, durability: Durability = 'synced'): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    try {
      mutate(this.tracker.draft);
    } finally {
      this.tracker.settle();
    }
    let written: Promise<void>;
    try {
      written = this.append();
    } catch (e) {
      return Promise.reject(e);
    }
    if (durability === 'synced') return written.then(() => this.sync());
    return written.then(() => this.syncSoon());
  }

  /**
   * Durable soon: one background fsync for the records of the next few milliseconds (a burst of
   * results shares it), unless a caller's own fsync covers them first.
   */
  private syncSoon(): void {
    this.soon ??= setTimeout(() => {
      this.soon = undefined;
      this.sync().catch(() => undefined);
    }, SYNC_SOON_MS);
  }

  /** Append what was marked since the last record, or write state.json whole first. */
  private append(): Promise<void> {
    if (this.onDisk) {
      this.appendRecord();
      return Promise.resolve();
    }
    if (this.creating === undefined) {
      // No state.json yet: the first write creates it whole (it fixes the lineage), fsynced.
      this.current.serial += 1;
      this.tracker.take(this.current.serial);
      this.creating = writeStateFile(this.dir, this.current, this.environment).then(
        () => {
          this.onDisk = true;
        },
        (e: unknown) => {
          this.failure = e;
          throw e;
        },
      );
      return this.creating;
    }
    // Written while state.json is created: one record after it, for all of them.
    this.afterCreate ??= this.creating.then(() => this.appendRecord());
    return this.afterCreate;
  }

  /**
   * One record, appended synchronously: nothing can change the state between taking the marks
   * and the write, and records reach the file in serial order.
   */
  private appendRecord(): void {
    const file = this.journalPathname;
    try {
      this.current.serial += 1;
      let text = encodeRecord(this.tracker.take(this.current.serial));
      if (this.journal === undefined) {
        this.journal = openSync(file, 'wx', 0o644);
        text = encodeRecord({ journal: 1, lineage: this.current.lineage, base: this.current.serial - 1 }) + text;
      }
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length; ) at += writeSync(this.journal, bytes, at);
      this.appended += 1;
    } catch (e) {
      this.failure = failure('state/write-failed', { file, reason: (e as Error).message }, { cause: e });
      throw this.failure;
    }
  }

  /** Resolve once every record appended so far is fsynced (group commit). */
  private sync(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.synced >= this.appended) return Promise.resolve();
    if (this.syncing === undefined) {
      const upTo = this.appended;
      this.syncing = this.syncNow()
        .then(() => {
          this.synced = Math.max(this.synced, upTo);
        })
        .finally(() => {
          this.syncing = undefined;
        });
      return this.syncing;
    }
    // Records appended while an fsync runs may not be covered by it: one more, for all of them.
    this.syncQueued ??= this.syncing
      .catch(() => undefined)
      .then(() => {
        this.syncQueued = undefined;
        return this.sync();
      });
    return this.syncQueued;
  }

  private async syncNow(): Promise<void> {
    const file = this.journalFile;
    try {
      await datasync(this.journal!);
      if (!this.journalNamed) {
        await syncFolder(join(this.dir, stateFolderOf(this.environment)));
        this.journalNamed = true;
      }
    } catch (e) {
      this.failure ??= e instanceof CoursesyncError ? e : failure('state/write-failed', { file, reason: (e as Error).message }, { cause: e });
      throw this.failure;
    }
  }

  /** Write-ahead: record a call before its request is sent. */
  async beginCall(callId: string, call: PendingCall, durability: Durability = 'synced'): Promise<void> {
    await this.update((s) => {
      s.pending[callId] = call;
    }, durability);
  }

  /** Record a call's outcome and drop its pending record, in one write. */
  async endCall(callId: string, record: (draft: StateData) => void, durability: Durability = 'synced'): Promise<void> {
    await this.update((s) => {
      record(s);
      delete s.pending[callId];
    }, durability);
  }

  /**
   * Wait for writes in progress, fold the journal into state.json (replayed from the files, not
   * from memory: what was not journaled is not kept), then release the lock (when one was taken).
   * A compaction that fails leaves the journal, which the next load folds in, and is kept in
   * `foldError` for the caller to report (apply fails on it). Never throws.
   */
  async close(): Promise<void> {
    await this.creating?.catch(() => undefined);
    await this.afterCreate?.catch(() => undefined);
    try {
      if (this.journal !== undefined) {
        // Everything recorded is fsynced before the journal is folded in (or left for the next load).
        clearTimeout(this.soon);
        this.soon = undefined;
        await this.sync().catch(() => undefined);
        try {
          closeSync(this.journal);
        } catch {
          // Closing a descriptor whose data is fsynced loses nothing.
        }
        this.journal = undefined;
        // The journal is durable and the next load folds it in; a caller that commits state.json
        // must not go on as if it were whole: foldError says it is not.
        if (this.failure === undefined) await compactStateFile(this.dir, this.environment).catch((e: unknown) => (this.foldError = e instanceof Error ? e : new Error(String(e))));
      }
    } finally {
      await this.lock?.release();
      this.lock = undefined;
    }
  }
}
