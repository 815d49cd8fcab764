/**
 * The read worker, started with the process (I/O edge). A worker thread takes ~40 ms to start
 * and load its code; a plan's read on a fresh checkout (read-aside.ts) would otherwise wait for
 * that after the commands have loaded. The entry starts one for a plan that will read on it
 * (cli/plan-folder.ts), idle until it is told a folder (read-worker.ts), and hands it to the
 * commands, which hold it here until the read takes it; one not taken is stopped when the
 * command ends, and never keeps a run alive meanwhile.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from './start-worker.js';

/** Whether a second core could read while this thread works. */
export const canReadAside = (): boolean => availableParallelism() >= 2;

/** A read worker, idle until it is posted a folder; unreferenced: it keeps no run alive. */
export function startReadWorker(): Worker {
  const worker = startWorker(new URL('./read-worker.js', import.meta.url), {});
  worker.unref();
  // Heard even while nobody reads: an 'error' with no listener would end the process.
  worker.on('error', () => {});
  return worker;
}

let spare: Worker | undefined;

/** Hold `worker`, started with the process, until a read takes it (takeReadWorker) or the command ends (dropSpare). */
export function holdSpare(worker: Worker | undefined): void {
  dropSpare();
  spare = worker;
}

/**
 * The worker held, when it has not ended, else a new one: referenced, for a read to use now.
 * A worker's threadId is -1 once it has said 'exit' (Node sets it as it does): one that has not
 * yet said it will, to the listeners the read adds now. The entry and the commands are two
 * bundles (two copies of this module), so nothing but the worker itself can say it ended.
 */
export function takeReadWorker(): Worker {
  const held = spare;
  spare = undefined;
  const worker = held && held.threadId !== -1 ? held : startReadWorker();
  worker.ref();
  return worker;
}

/** Stop the worker held, if any: no read took it. */
export function dropSpare(): void {
  void spare?.terminate();
  spare = undefined;
}
