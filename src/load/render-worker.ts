/**
 * Worker-thread entry of the render pool (I/O edge): says it is ready once the renderer is
 * loaded (so loading is not counted against a text's time budget), then receives batches of
 * Markdown texts and answers each batch with one message. Which text it is on, and since
 * when, it writes to memory shared with the pool (`workerData.progress`), so the pool can time
 * each text without a message per text. Started only by render-pool.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { renderMarkdown, type RenderResult } from '../compile/render.js';

export type WorkerAnswer =
  | { kind: 'ready' }
  | { kind: 'rendered'; results: RenderResult[] }
  /** Text `index` of the batch failed (the ones before it rendered); `stack`: the parser overflowed the stack. */
  | { kind: 'failed'; results: RenderResult[]; stack: boolean; message: string };

/**
 * The shared progress: [0] index in the batch of the text being rendered (-1 between batches),
 * [1] when it started (Date.now()), [2] the process's CPU time then (µs, every thread); the pool
 * sizes it (render-pool.ts PROGRESS_SLOTS).
 */
const progress = new BigInt64Array(workerData.progress as SharedArrayBuffer);
const answer = (a: WorkerAnswer) => parentPort?.postMessage(a);

parentPort?.on('message', (batch: string[]) => {
  const results: RenderResult[] = [];
  for (let i = 0; i < batch.length; i++) {
    const cpu = process.cpuUsage();
    Atomics.store(progress, 2, BigInt(cpu.user + cpu.system));
    Atomics.store(progress, 1, BigInt(Date.now()));
    Atomics.store(progress, 0, BigInt(i));
    try {
      results.push(renderMarkdown(batch[i]!));
    } catch (e) {
      return answer({ kind: 'failed', results, stack: e instanceof RangeError, message: e instanceof Error ? e.message : String(e) });
    }
  }
  Atomics.store(progress, 0, -1n);
  answer({ kind: 'rendered', results });
});
answer({ kind: 'ready' });
