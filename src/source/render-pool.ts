/**
 * Render many Markdown texts on every core (I/O edge): worker threads (render-worker.ts) take
 * small batches from one queue until it is empty, so a slow batch never leaves a core idle.
 * node:worker_threads directly, not a pool library: the work is one known batch, started and
 * finished inside one call, so a queue index and a message loop are the whole pool.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { renderMarkdown, type RenderResult } from '../compile/render.js';

/** Texts per message: large enough to amortise messaging, small enough to balance the load. */
const BATCH = 16;

/** Below this many texts, starting workers (each loads the renderer) costs more than it saves. */
export const MIN_TEXTS_FOR_WORKERS = 64;

/** Threads to render with by default: every core. */
export function defaultRenderThreads(): number {
  return availableParallelism();
}

/**
 * Render `texts` with up to `threads` worker threads; results in the order of `texts`.
 * With one thread, few texts, or where the worker cannot be started (sources run from
 * TypeScript, as under a test runner), renders in this thread instead.
 */
export async function renderAll(texts: readonly string[], threads: number): Promise<RenderResult[]> {
  const count = Math.min(Math.floor(threads), Math.ceil(texts.length / BATCH));
  if (count <= 1 || texts.length < MIN_TEXTS_FOR_WORKERS || import.meta.url.endsWith('.ts')) return texts.map((t) => renderMarkdown(t));
  try {
    return await renderInWorkers(texts, count);
  } catch {
    return texts.map((t) => renderMarkdown(t));
  }
}

/** Render `texts` on `count` worker threads (built JavaScript only); rejects when a worker fails. */
export function renderInWorkers(texts: readonly string[], threads: number): Promise<RenderResult[]> {
  if (texts.length === 0) return Promise.resolve([]);
  const count = Math.max(1, Math.min(Math.floor(threads), Math.ceil(texts.length / BATCH)));
  const workerUrl = new URL('./render-worker.js', import.meta.url);
  const results = new Array<RenderResult>(texts.length);
  const workers: Worker[] = [];
  let next = 0;
  let done = 0;
  return new Promise<RenderResult[]>((resolve, reject) => {
    const stop = () => Promise.all(workers.map((w) => w.terminate()));
    const feed = (worker: Worker) => {
      const start = next;
      next = Math.min(texts.length, next + BATCH);
      worker.once('message', (batch: RenderResult[]) => {
        batch.forEach((r, i) => (results[start + i] = r));
        done += batch.length;
        if (done === texts.length) void stop().then(() => resolve(results), reject);
        else if (next < texts.length) feed(worker);
      });
      worker.postMessage(texts.slice(start, next));
    };
    for (let i = 0; i < count; i++) {
      // The worker runs a file: a parent's --input-type (for `node -e`) would make it fail to start.
      const worker = new Worker(workerUrl, { execArgv: process.execArgv.filter((a) => !a.startsWith('--input-type')) });
      workers.push(worker);
      worker.on('error', (e) => void stop().finally(() => reject(e)));
      worker.on('exit', (code) => {
        if (done < texts.length) reject(new Error(`a render worker stopped (exit code ${code}) before the work was done`));
      });
      feed(worker);
    }
  });
}
