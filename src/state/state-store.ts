/**
 * StateStore: the one object apply uses to change state. Every change goes through `update()`,
 * which resolves once the change is written atomically (serial bumped), so apply can record a
 * pending call before its request and the result after it (write-ahead) and a kill loses
 * nothing. Concurrent chains share one store; their writes are grouped, never interleaved.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { acquireStateLock, type AcquireLockOptions, type StateLock } from './lock-state.js';
import type { PendingCall, StateData } from './schema.js';
import { readStateFile, removeStaleTempFiles, statePath, writeFileAtomic } from './state-file.js';
import { StateSerializer } from './serialize-state.js';

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
  private readonly serializer = new StateSerializer();
  /** The write in progress, and the one queued behind it (group commit). */
  private inFlight: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** Set when a write failed: the file no longer matches memory, so nothing more is written. */
  private failure: unknown;

  private constructor(
    readonly dir: string,
    private readonly current: StateData,
    /** Whether the file existed when loaded. */
    readonly existed: boolean,
    private lock: StateLock | undefined,
  ) {}

  /**
   * Load the state of a repo (empty when there is no file yet). With `lock`, take the state
   * lock first; release it with `close()`.
   */
  static async load(dir: string, options: { lock?: boolean } & AcquireLockOptions = {}): Promise<StateStore> {
    const lock = options.lock ? await acquireStateLock(dir, options) : undefined;
    try {
      if (lock) await removeStaleTempFiles(dir);
      const { state, exists } = await readStateFile(dir);
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

  /** Write the current state (bumping serial), e.g. to create the file on a first apply. */
  async save(): Promise<void> {
    await this.update(() => {});
  }

  /**
   * Apply `mutate` to the state now and resolve once a write that includes it is durable.
   * Writes never overlap: updates made while a write is in flight are written together by the
   * next one (group commit), and `serial` goes up by one per write. A lesson entry's `applied`,
   * `response` and `uncertain` objects are frozen once written: replace them, never edit them in
   * place. After a failed write the store refuses further updates (the file is the last good
   * state; memory is not).
   */
  update(mutate: (draft: StateData) => void): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    mutate(this.current);
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
    const text = this.serializer.serialize(this.current);
    try {
      await writeFileAtomic(this.file, text);
    } catch (e) {
      this.failure = e;
      throw e;
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

  /** Wait for writes in progress, then release the lock (when one was taken). */
  async close(): Promise<void> {
    await this.queued?.catch(() => undefined);
    await this.inFlight?.catch(() => undefined);
    await this.lock?.release();
    this.lock = undefined;
  }
}
