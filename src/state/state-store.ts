/**
 * StateStore: the one object apply uses to change state. Every change goes through `update()`,
 * which bumps `serial` and writes the file atomically, so apply can record a pending call
 * before its request and the result after it (write-ahead) and a kill loses nothing.
 */
import { CoursesyncError } from '../diagnostics/errors.js';
import { acquireStateLock, type AcquireLockOptions, type StateLock } from './lock-state.js';
import type { PendingCall, StateData } from './schema.js';
import { readStateFile, statePath, writeStateFile } from './state-file.js';

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
  throw new CoursesyncError(`the state file ${file} belongs to ${state.base_url}, not to ${baseUrl}`, {
    code: 'state/base-url-mismatch',
    hint: 'a state belongs to one school: use --base-url / COURSESYNC_BASE_URL of that school, or keep a separate repo (or state) per school',
  });
}

export class StateStore {
  private constructor(
    readonly dir: string,
    private current: StateData,
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

  /** Write the current state as it is (no serial bump). */
  async save(): Promise<void> {
    await writeStateFile(this.dir, this.current);
  }

  /**
   * Apply `mutate` to a copy of the state, bump `serial`, and write it atomically. The
   * in-memory state changes only after the write succeeded.
   */
  async update(mutate: (draft: StateData) => void): Promise<StateData> {
    const draft = structuredClone(this.current);
    mutate(draft);
    draft.serial = this.current.serial + 1;
    await writeStateFile(this.dir, draft);
    this.current = draft;
    return draft;
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

  /** Release the lock, when one was taken. */
  async close(): Promise<void> {
    await this.lock?.release();
    this.lock = undefined;
  }
}
