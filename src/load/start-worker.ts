/**
 * A worker thread of this package (I/O edge), with this process's Node options except a
 * parent's --input-type (for `node -e`: the worker runs a file). A worker refuses V8 and
 * process-wide options (`node --trace-gc`, `--max-semi-space-size`…); those apply to the whole
 * process anyway, so the worker then starts with no options of its own rather than not at all.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startWorker(url: URL, options: Omit<WorkerOptions, 'execArgv'>): Worker {
  try {
    return new Worker(url, { ...options, execArgv: process.execArgv.filter((a) => !a.startsWith('--input-type')) });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
    return new Worker(url, { ...options, execArgv: [] });
  }
}
