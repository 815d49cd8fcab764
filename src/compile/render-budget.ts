/**
 * The budget of one rendering (PURE: numbers and messages; load/render-pool.ts enforces it).
 * Whatever a lesson holds, rendering its body (or description) may take at most
 * RENDER_BASE_MS + RENDER_MS_PER_CHAR × its length of wall-clock time and RENDER_HEAP_MB of
 * heap, in a worker thread that is stopped past either: 11 s for the longest lesson the school
 * accepts. A realistic lesson renders at about 10 µs per character on a quiet machine and 30 on
 * a loaded one, so the limit leaves room for a busy CI runner, while text that makes the
 * parser slow down quadratically (runs of `a](`, say: a minute for 150,000 characters) is
 * stopped at about the time the longest realistic lesson takes.
 */

export const RENDER_BASE_MS = 1_000;
export const RENDER_MS_PER_CHAR = 0.05;
/**
 * A rendering is stopped once both its wall-clock time and the process's CPU time since it
 * started pass its limit; on a machine that gives the process almost no CPU (a niced job on a
 * busy runner), at this many limits of wall-clock time whatever the CPU. At twice, a first
 * apply of 100,000 lessons at `nice 19` on a 2-core machine running other work at load 9 had
 * an ordinary 4 KB lesson stopped; a hostile text is still stopped within its limit wherever
 * the process gets an eighth of a core.
 */
export const STARVED_LIMITS = 8;
/** Old-generation heap of a rendering worker: a 200,000-character lesson needs under 100 MB. */
export const RENDER_HEAP_MB = 128;

/**
 * The budget of a whole run for renderings that get stopped: each hostile lesson may take its
 * own budget (11 s at the longest), so without this ten of them would keep a CI job busy for
 * minutes. Once the budgets of the renderings stopped in one run add up to this (two of the
 * longest lessons), nothing more is rendered in that run: the texts being rendered and every
 * text left are reported as not rendered ('run'), and the run ends with the slow lessons
 * named. A text stopped over its time counts its budget, not the time measured, so a loaded
 * machine meets the same bound (one stopped over its memory counts the time it took). A
 * realistic course never stops a rendering, so never meets it.
 */
export const RUN_SLOW_MS = 20_000;

/** Why a rendering was stopped. */
export interface RenderStop {
  /** 'run': not rendered at all, the run's budget for slow renderings being spent (RUN_SLOW_MS). */
  reason: 'time' | 'memory' | 'stack' | 'run';
  /** The limit it hit, for the message: "6.0 s", "160 MB" ('' for the stack). */
  limit: string;
}

/** Wall-clock limit for rendering a text of `length` characters. */
export function renderTimeLimitMs(length: number): number {
  return RENDER_BASE_MS + RENDER_MS_PER_CHAR * length;
}

export function timeStop(length: number): RenderStop {
  return { reason: 'time', limit: `${(renderTimeLimitMs(length) / 1000).toFixed(1)} s` };
}

export function runStop(): RenderStop {
  return { reason: 'run', limit: `${RUN_SLOW_MS / 1000} s` };
}

export function memoryStop(): RenderStop {
  return { reason: 'memory', limit: `${RENDER_HEAP_MB} MB` };
}

/** The message of a diagnostic for a stopped rendering of the `what` ("body", "description"). */
export function renderStoppedMessage(stop: RenderStop, what: string): string {
  if (stop.reason === 'run') {
    return `the ${what} was not rendered: lessons stopped over their budget (their errors name them) used up this run's ${stop.limit} for slow renderings; fix those and run again`;
  }
  const did =
    stop.reason === 'time' ? `did not finish within ${stop.limit}` : stop.reason === 'memory' ? `needed more than ${stop.limit} of memory` : `overflowed the parser's stack`;
  return `rendering the ${what} ${did} (the budget of one lesson); it was stopped. Some construct makes the Markdown parser slow: look for long runs of unclosed brackets, links or tags`;
}

/**
 * Texts may render in the calling thread, where nothing can stop them, only when all of them
 * together cannot reach half the smallest budget (RENDER_BASE_MS) even if each were the worst
 * known input: remark's quadratic runs (`<a` + newline, `a](`) took 830 ms for 8,000
 * characters on the loaded 2-core test machine, ~1.3e-5 ms per character squared, so the sum
 * of the squared lengths is bounded. One edited lesson of a few KB then skips a worker's
 * start-up (loading the renderer: 100–300 ms), and anything larger still renders in a worker.
 */
export const IN_THREAD_CHARS_SQUARED = 32_000_000;

/** Whether `lengths` (characters of each text) are few and short enough to render in this thread. */
export function safeInThread(lengths: readonly number[]): boolean {
  let sum = 0;
  for (const n of lengths) sum += n * n;
  return sum <= IN_THREAD_CHARS_SQUARED;
}
