/**
 * Render many Markdown texts on every core (I/O edge). This thread and `threads − 1` worker
 * threads (render-worker.ts) take small batches from one queue until it is empty: this thread
 * starts at once while the workers load the renderer, a slow batch never leaves a core idle,
 * and a worker that fails gives its batch back (the work is done anyway, in this thread).
 * node:worker_threads directly, not a pool library: the work is one known list, started and
 * finished inside one call, so a queue index and a message loop are the whole pool.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { renderMarkdown, type RenderResult } from '../compile/render.js';

/** Texts per message: large enough to amortise messaging, small enough to balance the load. */
const BATCH = 16;

/** Below this many texts, starting a worker (it loads the renderer) costs more than it saves. */
export const MIN_TEXTS_FOR_WORKERS = 64;

/** Threads to render with by default: every core. */
export function defaultRenderThreads(): number {
  return availableParallelism();
}

export interface RenderAllOptions {
  /** Whether this thread renders too (default true); false leaves the work to the workers (tests). */
  mainThread?: boolean;
}

export interface RenderAllResult {
  /** In the order of the texts. */
  results: RenderResult[];
  /** How many texts worker threads rendered. */
  inWorkers: number;
}

/**
 * Render `texts` on up to `threads` threads (this one included); results in the order of
 * `texts`. Workers are started only for enough texts, and only from built JavaScript (under a
 * test runner running TypeScript sources, everything renders in this thread).
 */
export async function renderAll(texts: readonly string[], threads: number, options: RenderAllOptions = {}): Promise<RenderAllResult> {
  const results = new Array<RenderResult>(texts.length);
  let mainThread = options.mainThread ?? true;
  const batches = Math.ceil(texts.length / BATCH);
  const canStart = texts.length >= MIN_TEXTS_FOR_WORKERS && !import.meta.url.endsWith('.ts');
  const workerCount = canStart ? Math.max(0, Math.min(Math.floor(threads) - (mainThread ? 1 : 0), batches - (mainThread ? 1 : 0))) : 0;
  if (workerCount === 0) mainThread = true;

  let next = 0;
  let done = 0;
  let inWorkers = 0;
  const givenBack: number[] = [];
  /** The next batch [start, end), or undefined when every batch is taken. */
  const take = (): [number, number] | undefined => {
    const start = givenBack.pop() ?? (next < texts.length ? next : undefined);
    if (start === undefined) return undefined;
    if (start === next) next = Math.min(texts.length, next + BATCH);
    return [start, Math.min(texts.length, start + BATCH)];
  };
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };

  const workers = new Set<Worker>();
  const startWorker = () => {
    // The worker runs a file: a parent's --input-type (for `node -e`) would make it fail to start.
    const worker = new Worker(new URL('./render-worker.js', import.meta.url), { execArgv: process.execArgv.filter((a) => !a.startsWith('--input-type')) });
    workers.add(worker);
    let batch: [number, number] | undefined;
    const feed = () => {
      batch = take();
      if (batch) worker.postMessage(texts.slice(batch[0], batch[1]));
      else void worker.terminate();
    };
    worker.on('message', (rendered: RenderResult[]) => {
      if (!batch) return;
      rendered.forEach((r, i) => (results[batch![0] + i] = r));
      done += rendered.length;
      inWorkers += rendered.length;
      feed();
      notify();
    });
    const fail = () => {
      if (!workers.delete(worker)) return;
      if (batch) givenBack.push(batch[0]);
      batch = undefined;
      if (workers.size === 0) mainThread = true; // nobody else is left to do the work
      notify();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    feed();
  };
  for (let i = 0; i < workerCount; i++) startWorker();

  while (done < texts.length) {
    const batch = mainThread ? take() : undefined;
    if (batch) {
      for (let i = batch[0]; i < batch[1]; i++) results[i] = renderMarkdown(texts[i]!);
      done += batch[1] - batch[0];
      // Let the workers' answers in between batches.
      await new Promise<void>((resolve) => setImmediate(resolve));
    } else if (done < texts.length) {
      await new Promise<void>((resolve) => (wake = resolve));
    }
  }
  await Promise.all([...workers].map((w) => w.terminate()));
  return { results, inWorkers };
}
