import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RENDER_HEAP_MB, renderTimeLimitMs, RUN_SLOW_MS, safeInThread } from '../../src/compile/render-budget.js';
import { renderMarkdown } from '../../src/compile/render.js';
import { renderAll, renderThreadsFromEnv } from '../../src/load/render-pool.js';

// Worker threads run built JavaScript, so the worker path is tested on dist/ (npm test builds first).
const POOL = join(import.meta.dirname, '../../dist/load/render-pool.js');
const texts = Array.from({ length: 100 }, (_, i) => `# Lesson ${i}\n\n| a | b |\n|---|---|\n| ${i} | x |\n\n> q ${i}\n\n<script>${i}</script>\n`);
/** Short lessons (~620 characters): together more than safeInThread lets this thread render. */
const lessons = texts.map((t, i) => `${t}\n## Details\n\n${`- A step with \`code\`, a [link](https://example.com/${i}) and *emphasis*.\n`.repeat(8)}`);

/** renderAll of the built pool in a child process (the texts go through a temp file: they can be large). */
async function renderInWorkers(input: string[], threads: number, nodeOptions: string[] = []): Promise<any> {
  const { cpuMs: _, ...out } = await renderInChild(input, threads, nodeOptions);
  return out;
}

/** renderInWorkers, with the CPU time the child process used (every thread's, the stopped workers' too). */
async function renderInChild(input: string[], threads: number, nodeOptions: string[] = []): Promise<any> {
  const dir = await mkdtemp(join(tmpdir(), 'coursesync-pool-'));
  try {
    const file = join(dir, 'texts.json');
    await writeFile(file, JSON.stringify(input));
    const script = `const { renderAll } = await import(${JSON.stringify(POOL)}); const { readFileSync } = await import('node:fs'); const out = await renderAll(JSON.parse(readFileSync(process.argv[1], 'utf8')), ${threads}); const { user, system } = process.cpuUsage(); process.stdout.write(JSON.stringify({ ...out, cpuMs: (user + system) / 1000 }));`;
    const { stdout } = await promisify(execFile)(process.execPath, [...nodeOptions, '--input-type=module', '-e', script, file], { maxBuffer: 1 << 26 });
    return JSON.parse(stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('rendering on worker threads', () => {
  it('gives, in order, exactly what rendering in this thread gives, problems included', async () => {
    expect(safeInThread(lessons.map((t) => t.length))).toBe(false);
    const expected = lessons.map((t) => renderMarkdown(t));
    expect(expected[0]!.problems.length).toBeGreaterThan(0);
    expect(await renderInWorkers(lessons, 2)).toEqual({ results: expected, inWorkers: lessons.length });
  });

  it('one thread still renders in a worker (so a text can be stopped) when the work could reach a budget', async () => {
    const long = lessons[0]!.repeat(12);
    expect(safeInThread([long.length])).toBe(false);
    expect(await renderInWorkers([long], 1)).toEqual({ results: [renderMarkdown(long)], inWorkers: 1 });
  });

  it('starts its workers when the process runs with V8 options a worker refuses (node --max-semi-space-size=8)', async () => {
    expect(await renderInWorkers(lessons, 1, ['--max-semi-space-size=8'])).toEqual({ results: lessons.map((t) => renderMarkdown(t)), inWorkers: lessons.length });
  });

  it('renders work too small to reach any budget in this thread (no worker start-up): one edited lesson', async () => {
    expect(safeInThread([lessons[0]!.length, texts[1]!.length])).toBe(true);
    expect(await renderInWorkers([lessons[0]!, texts[1]!], 2)).toEqual({ results: [lessons[0]!, texts[1]!].map((t) => renderMarkdown(t)), inWorkers: 0 });
  });

  it.each([1, 2])('with %i thread(s), a text past its time budget is stopped; the others, before and after it, render', async (threads) => {
    // Quadratic in remark: about 17 s of CPU on the test machine, well past the budget of these 105,000 characters (6.25 s).
    const slow = 'a]('.repeat(35_000);
    const input = [texts[0]!, slow, texts[1]!, texts[2]!];
    const { cpuMs, ...out } = await renderInChild(input, threads);
    expect(out.results[1]).toEqual({ html: '', problems: [], anchors: [], refs: [], stopped: { reason: 'time', limit: `${(renderTimeLimitMs(slow.length) / 1000).toFixed(1)} s` } });
    expect([out.results[0], out.results[2], out.results[3]]).toEqual([texts[0], texts[1], texts[2]].map((t) => renderMarkdown(t!)));
    // Stopped at its limit, not rendered to the end. CPU time, not wall-clock time: a loaded
    // machine stretches the wall clock (the pool then waits for the CPU the limit grants), while
    // the CPU a stopped rendering may use is its limit whatever the load.
    expect(cpuMs).toBeLessThan(1.5 * renderTimeLimitMs(slow.length) + 1_000);
  });

  it('a text that needs more than the heap of a worker is stopped as such; the next one renders', async () => {
    // A million characters of emphasis: far more syntax-tree nodes than 128 MB holds.
    const huge = '*a* '.repeat(249_000);
    const out = await renderInWorkers([huge, texts[0]!], 1);
    expect(out.results[0]).toEqual({ html: '', problems: [], anchors: [], refs: [], stopped: { reason: 'memory', limit: `${RENDER_HEAP_MB} MB` } });
    expect(out.results[1]).toEqual(renderMarkdown(texts[0]!));
  });

  it("keeps one ledger across a run's calls: once stopped renderings use the run's budget up, a later call renders nothing", async () => {
    // Two calls of the built pool sharing a ledger, as a load's render ahead and its link targets do.
    const slow = 'a]('.repeat(25_000);
    const dir = await mkdtemp(join(tmpdir(), 'coursesync-pool-'));
    try {
      const file = join(dir, 'texts.json');
      await writeFile(file, JSON.stringify({ first: [slow, texts[0]!], second: [texts[1]!] }));
      const script = `const { renderAll } = await import(${JSON.stringify(POOL)}); const { readFileSync } = await import('node:fs');
        const { first, second } = JSON.parse(readFileSync(process.argv[1], 'utf8')); const spent = { ms: ${RUN_SLOW_MS - 1} };
        const a = await renderAll(first, 1, { spent }); const after = spent.ms; const b = await renderAll(second, 1, { spent });
        process.stdout.write(JSON.stringify({ a, b, after }));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, file], { maxBuffer: 1 << 26 });
      const { a, b, after } = JSON.parse(stdout);
      const run = { html: '', problems: [], anchors: [], refs: [], stopped: { reason: 'run', limit: `${RUN_SLOW_MS / 1000} s` } };
      expect(a.results[0].stopped.reason).toBe('time');
      expect(after).toBe(RUN_SLOW_MS - 1 + renderTimeLimitMs(slow.length));
      // The rest of the first call and all of the second: not rendered, the run's budget being spent.
      expect(a.results[1]).toEqual(run);
      expect(b).toEqual({ results: [run], inWorkers: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('renders in this thread when running from TypeScript', async () => {
    expect(await renderAll(texts.slice(0, 3), 2)).toEqual({ results: texts.slice(0, 3).map((t) => renderMarkdown(t)), inWorkers: 0 });
  });
});

describe('COURSESYNC_RENDER_THREADS (plan and validate)', () => {
  it('is a whole number of threads from 1 up; anything else means every core', () => {
    expect(renderThreadsFromEnv({ COURSESYNC_RENDER_THREADS: '1' })).toBe(1);
    expect(renderThreadsFromEnv({ COURSESYNC_RENDER_THREADS: '3' })).toBe(3);
    for (const value of [undefined, '', '0', '-2', '1.5', 'two', ' ']) expect(renderThreadsFromEnv({ COURSESYNC_RENDER_THREADS: value }), String(value)).toBeUndefined();
  });
});
