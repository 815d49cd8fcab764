/**
 * The read worker of a plan (read-aside.ts), started as early as the command line allows: the
 * entry (cli/index.ts) starts it for `plan` before the commands load, so the walk of a fresh
 * checkout begins ~60 ms sooner, beside that load. The entry and the commands are two bundles
 * with a copy each of this module: the read started is handed over through a global symbol.
 * A read nobody takes (the plan failed first, or read another folder) holds no run open: its
 * worker is unreferenced until taken, and is stopped when another folder is read.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { indexMaySpare } from '../source/stat-index.js';
import type { ReadAnswer } from './read-worker.js';
import { startWorker } from './start-worker.js';

/** A read worker at work on `dir`, and its one answer. */
export interface RepoRead {
  dir: string;
  worker: Worker;
  answer: Promise<ReadAnswer>;
}

const EARLY = Symbol.for('coursesync.early-read');
type Holder = { [EARLY]?: RepoRead };

/**
 * Whether the repo at `dir` is read on a worker: there are two cores, and no stat index may
 * spare the reads (a fresh checkout, or an index restored from before the checkout).
 */
export async function readsAside(dir: string): Promise<boolean> {
  return availableParallelism() >= 2 && !(await indexMaySpare(dir));
}

/** Start the read worker on the repo at `dir` (its root); `failed` is its answer when it errs or exits unanswered. */
export function startRead(dir: string): RepoRead {
  const worker = startWorker(new URL('./read-worker.js', import.meta.url), { workerData: { dir } });
  const answer = new Promise<ReadAnswer>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', () => resolve({ kind: 'failed' }));
    worker.once('exit', () => resolve({ kind: 'failed' }));
  });
  return { dir, worker, answer };
}

/** Start the read of `dir` now, for the plan to take (takeEarlyRead). */
export function startEarlyRead(dir: string): void {
  const read = startRead(dir);
  read.worker.unref();
  (globalThis as Holder)[EARLY] = read;
}

/** The read started early, when it reads `dir` (it then holds the run open again, as any worker); one of another folder is stopped. */
export function takeEarlyRead(dir: string): RepoRead | undefined {
  const holder = globalThis as Holder;
  const read = holder[EARLY];
  delete holder[EARLY];
  if (read === undefined) return undefined;
  if (read.dir !== dir) {
    void read.worker.terminate();
    return undefined;
  }
  read.worker.ref();
  return read;
}
