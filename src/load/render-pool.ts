/**
 * Render many Markdown texts in worker threads, each within the budget of one lesson
 * (compile/render-budget.ts), on up to `threads` threads (I/O edge). Texts render in a
 * worker, even with one thread, so they can be stopped (only work too small to reach any
 * budget renders in this thread: safeInThread): a worker whose current text passes its time
 * limit is terminated, one that runs out of its heap dies; that text is reported as stopped,
 * the rest of its batch goes back to the queue and a fresh worker takes over. Workers take
 * batches from one queue, so a slow batch never leaves a core idle, and answer once per batch;
 * the text each is on and since when are in shared memory, which the per-text timer reads.
 * A text is stopped once both its wall-clock time and the CPU time the process spent since it
 * started pass its limit, or at STARVED_LIMITS times its limit of wall-clock time whatever the
 * CPU: on a machine so loaded that a worker gets a fraction of a core, a real lesson is not
 * stopped for waiting its turn, and a hostile one still is.
 * This thread only hands out work.
 * node:worker_threads directly, not a pool library: the work is one known list, started and
 * finished inside one call, so a queue and a message loop are the whole pool.
 */
import { availableParallelism } from 'node:os';
import { memoryStop, RENDER_HEAP_MB, renderTimeLimitMs, RUN_SLOW_MS, runStop, safeInThread, STARVED_LIMITS, timeStop, type RenderStop } from '../compile/render-budget.js';
import type { RenderResult } from '../compile/rendered-html.js';
import type { WorkerAnswer } from './render-worker.js';
import { startWorker as workerThread } from './start-worker.js';

/** Texts per message at most: large enough to amortise messaging, small enough to balance the load. */
const BATCH = 32;
/** BigInt64 slots of a worker's shared progress (their meaning: render-worker.ts). */
const PROGRESS_SLOTS = 3;

/** CPU time of this process, every thread, in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Threads to render with by default: every core. */
export function defaultRenderThreads(): number {
  return availableParallelism();
}

/** The threads COURSESYNC_RENDER_THREADS asks for (a whole number ≥ 1), else undefined: every core. */
export function renderThreadsFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const threads = Number(env.COURSESYNC_RENDER_THREADS);
  return Number.isInteger(threads) && threads >= 1 ? threads : undefined;
}

/**
 * The budgets (ms) of the renderings stopped so far in one run, shared by its renderAll calls
 * (a load renders the lessons it compiles, then the lessons their links need anchors of):
 * past RUN_SLOW_MS the run renders nothing more, however many calls it makes.
 */
export interface SlowSpent {
  ms: number;
}

export interface RenderAllOptions {
  /** The run's ledger of stopped renderings (default: this call's own). */
  spent?: SlowSpent;
}

export interface RenderAllResult {
  /** In the order of the texts. */
  results: RenderResult[];
  /** How many texts worker threads rendered (or stopped). */
  inWorkers: number;
}

/** Render in this thread, loading the renderer (remark, micromark) now: a run that renders nothing never loads it. */
async function renderHere(texts: readonly string[]): Promise<RenderResult[]> {
  const { renderMarkdown } = await import('../compile/render.js');
  return texts.map((t) => renderMarkdown(t));
}

const stopped = (stop: RenderStop): RenderResult => ({ html: '', problems: [], anchors: [], refs: [], stopped: stop });

/**
 * Render `texts` on up to `threads` worker threads; results in the order of `texts`. Workers
 * run built JavaScript only: under a test runner running TypeScript sources, or when no worker
 * can start at all, the texts render in this thread (without a budget).
 */
export async function renderAll(texts: readonly string[], threads: number, { spent = { ms: 0 } }: RenderAllOptions = {}): Promise<RenderAllResult> {
  const results = new Array<RenderResult>(texts.length);
  if (texts.length === 0) return { results, inWorkers: 0 };
  if (spent.ms >= RUN_SLOW_MS) return { results: texts.map(() => stopped(runStop())), inWorkers: 0 };
  if (import.meta.url.endsWith('.ts') || safeInThread(texts.map((t) => t.length))) return { results: await renderHere(texts), inWorkers: 0 };

  // Few texts: smaller batches, so every thread gets some (and one slow text holds up few).
  const size = Math.max(1, Math.min(BATCH, Math.ceil(texts.length / (4 * Math.max(1, threads)))));
  /** Ranges [start, end) not yet given to a worker. */
  const queue: Array<[number, number]> = [];
  for (let i = 0; i < texts.length; i += size) queue.push([i, Math.min(texts.length, i + size)]);
  const wanted = Math.max(1, Math.min(Math.floor(threads) || 1, queue.length));
  let done = 0;
  let inWorkers = 0;
  let running = 0;
  let everReady = false;
  let failure: Error | undefined;
  let exhausted = false;
  /** Stop the text a running worker is on (used once the run's budget is spent). */
  const active = new Set<(why: RenderStop) => void>();

  return new Promise<RenderAllResult>((resolve, reject) => {
    const finish = () => {
      if (failure) return reject(failure);
      if (exhausted) for (const [start, end] of queue.splice(0)) for (let i = start; i < end; i++) settle(i, stopped(runStop()));
      if (done < texts.length) {
        // No worker could start (a platform without them, say): render here rather than fail.
        if (running > 0 || everReady) return;
        const left = queue.splice(0).flatMap(([start, end]) => Array.from({ length: end - start }, (_, k) => start + k));
        done = texts.length;
        renderHere(left.map((i) => texts[i]!)).then((here) => {
          left.forEach((i, k) => (results[i] = here[k]!));
          resolve({ results, inWorkers });
        }, reject);
        return;
      }
      resolve({ results, inWorkers });
    };
    const settle = (index: number, result: RenderResult) => {
      results[index] = result;
      done++;
      inWorkers++;
    };

    let starts = 0;
    const startWorker = () => {
      running++;
      starts++;
      const shared = new SharedArrayBuffer(PROGRESS_SLOTS * BigInt64Array.BYTES_PER_ELEMENT);
      const progress = new BigInt64Array(shared);
      const worker = workerThread(new URL('./render-worker.js', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: RENDER_HEAP_MB }, workerData: { progress: shared } });
      let batch: [number, number] | undefined;
      let timer: NodeJS.Timeout | undefined;
      let ended = false;
      /** The text the worker is on (index into `texts`), since when and the process's CPU ms then, as it last wrote them. */
      const current = (): { index: number; since: number; cpu: number; started: boolean } => {
        const at = Number(Atomics.load(progress, 0));
        if (at < 0) return { index: batch![0], since: Date.now(), cpu: cpuMs(), started: false };
        return { index: batch![0] + at, since: Number(Atomics.load(progress, 1)), cpu: Number(Atomics.load(progress, 2)) / 1000, started: true };
      };
      /** Wake when the current text's time is up; then stop it, or wait for its CPU time or for the text it moved on to. */
      const check = () => {
        if (ended || !batch) return;
        const { index, since, cpu, started } = current();
        const limit = renderTimeLimitMs(texts[index]!.length);
        const wall = since + limit - Date.now();
        const left = Math.min(Math.max(wall, cpu + limit - cpuMs()), wall + (STARVED_LIMITS - 1) * limit);
        if (left <= 0 && started) return stop(index, timeStop(texts[index]!.length));
        timer = setTimeout(check, Math.max(left, 10));
      };
      const feed = () => {
        batch = exhausted ? undefined : queue.shift();
        if (!batch) return end(true);
        Atomics.store(progress, 0, -1n);
        worker.postMessage(texts.slice(batch[0], batch[1]));
        clearTimeout(timer);
        timer = setTimeout(check, renderTimeLimitMs(texts[batch[0]]!.length));
      };
      /** Text `index` was stopped: report it, give the rest of its batch back (answers come per batch), replace the worker. */
      const stop = (index: number, why: RenderStop) => {
        if (ended || !batch) return;
        const took = Date.now() - current().since;
        settle(index, stopped(why));
        if (index + 1 < batch[1]) queue.unshift([index + 1, batch[1]]);
        if (batch[0] < index) queue.unshift([batch[0], index]);
        batch = undefined;
        // A text over its time is counted by its budget, not by the clock, so the same repo meets
        // the bound however loaded the machine; one over its memory (fast) by the time it took.
        if (why.reason === 'time') spent.ms += renderTimeLimitMs(texts[index]!.length);
        else if (why.reason !== 'run') spent.ms += took;
        if (!exhausted && spent.ms >= RUN_SLOW_MS) {
          // The run's budget for slow lessons is spent: stop every other worker's text too.
          exhausted = true;
          for (const other of [...active]) if (other !== stopCurrent) other(runStop());
        }
        end(true);
      };
      const stopCurrent = (why: RenderStop) => {
        if (batch) stop(current().index, why);
      };
      active.add(stopCurrent);
      const end = (terminate: boolean) => {
        if (ended) return;
        ended = true;
        active.delete(stopCurrent);
        clearTimeout(timer);
        running--;
        if (terminate) void worker.terminate();
        // Replace a worker that was stopped or died while work remains (a bounded number of times).
        if (!failure && !exhausted && queue.length > 0 && everReady && running < wanted && starts < wanted + texts.length) return startWorker();
        if (running === 0) finish();
      };
      worker.on('message', (answer: WorkerAnswer) => {
        if (ended) return;
        if (answer.kind === 'ready') {
          everReady = true;
          return feed();
        }
        if (!batch) return;
        answer.results.forEach((result, i) => settle(batch![0] + i, result));
        if (answer.kind === 'failed') {
          const index = batch[0] + answer.results.length;
          if (answer.stack) return stop(index, { reason: 'stack', limit: '' });
          failure = new Error(`rendering failed: ${answer.message}`);
          queue.length = 0;
          return end(true);
        }
        feed();
      });
      const died = (error?: Error) => {
        if (ended) return;
        if (batch && (error as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') return stop(current().index, memoryStop());
        if (batch) {
          // Died in the middle of a text for another reason: a bug, reported as one.
          failure = error ?? new Error('a rendering worker exited unexpectedly');
          queue.length = 0;
        }
        // Died before taking work (could not start, say): the others, or this thread, do it.
        end(false);
      };
      worker.on('error', died);
      worker.on('exit', () => died());
    };
    for (let i = 0; i < wanted; i++) startWorker();
  });
}
