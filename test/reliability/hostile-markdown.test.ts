/**
 * Hostile Markdown through the built CLI, each run in a child process under a wall-clock and a
 * peak-memory ceiling enforced here (the child is killed past the clock; its peak resident
 * memory is read from /proc while it runs): deep nesting that overflowed the parser's stack,
 * small bodies that took minutes, and a quadratic run of unclosed links, in bodies and in a
 * description. Every one is an error at the lesson's path:line:col naming the construct, the
 * school sees no request, and the well-formed lesson next to them compiles.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { renderTimeLimitMs, STARVED_LIMITS } from '../../src/compile/render-budget.js';
import { SECRET, startTestEmulator } from '../apply/helpers.js';
import { CLI, lesson, removeRepos, writeRepo } from '../e2e/helpers.js';

/** Peak memory of one CLI run: far above a healthy run, far below what these inputs took before. */
const RSS_MB = 400;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  peakMb: number;
  killed: boolean;
}

/** Run the CLI; kill it past WALL_MS; sample its peak RSS (VmHWM) every 25 ms. */
function runBounded(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakMb = 0;
    let killed = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const sample = setInterval(() => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peakMb = Math.max(peakMb, kb / 1024);
      } catch {
        // exited between samples
      }
    }, 25);
    const clock = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, WALL_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sample);
      clearTimeout(clock);
      resolve({ code, stdout, stderr, ms: Date.now() - t0, peakMb, killed });
    });
  });
}

const fm = (name: string, extra = '') => `name: ${name}\nlesson_type: text${extra}`;
const indented = (depth: number) => Array.from({ length: depth }, (_, i) => `${' '.repeat(2 * i)}- x`).join('\n');

/** File → [code, line, column] expected (the body starts on line 5: three front-matter lines). */
const HOSTILE: Record<string, { text: string; code: string; line: number; column: number }> = {
  'p/s/01-quotes.md': { text: lesson(fm('Quotes'), '>'.repeat(2_000) + ' deep'), code: 'lesson/nested-too-deep', line: 5, column: 33 },
  'p/s/02-quotes-900k.md': { text: lesson(fm('Huge quotes'), 'Intro.\n\n' + '>'.repeat(900_000)), code: 'lesson/nested-too-deep', line: 7, column: 33 },
  'p/s/03-list.md': { text: lesson(fm('List'), '- '.repeat(10_000) + 'x'), code: 'lesson/nested-too-deep', line: 5, column: 65 },
  'p/s/04-indented.md': { text: lesson(fm('Indented'), indented(600)), code: 'lesson/nested-too-deep', line: 37, column: 65 },
  'p/s/05-divs.md': { text: lesson(fm('Divs'), '<div>'.repeat(2_000)), code: 'lesson/nested-too-deep', line: 5, column: 501 },
  'p/s/06-spans.md': { text: lesson(fm('Spans'), 'Text ' + '<span>'.repeat(2_000)), code: 'lesson/nested-too-deep', line: 5, column: 606 },
  // Quadratic in the parser: tens of seconds at 75,000 characters, several times the budget (4.75 s).
  'p/s/07-links.md': { text: lesson(fm('Links'), 'a]('.repeat(25_000)), code: 'lesson/render-budget', line: 5, column: 1 },
  'p/s/08-brackets.md': { text: lesson(fm('Brackets'), '[a](' + ']('.repeat(37_500)), code: 'lesson/render-budget', line: 5, column: 1 },
  'p/s/09-description.md': { text: lesson(fm('Description', `\ndescription: "${'a]('.repeat(25_000)}"`), 'Fine body.'), code: 'lesson/render-budget', line: 4, column: 14 },
  'p/s/10-deep-description.md': { text: lesson(fm('Deep description', `\ndescription: "${'> '.repeat(50)}x"`), 'Fine body.'), code: 'lesson/nested-too-deep', line: 4, column: 14 },
};
/**
 * Wall-clock ceiling of one CLI run: what the budgets promise on a machine that gives the run
 * an eighth of a core (each stopped rendering ends by STARVED_LIMITS times its limit, counted
 * here on the whole file), plus a minute for the rest. Not a timing margin: a run past it
 * broke that promise. That each slow text was stopped, not rendered, the render-budget errors
 * show (and test/load/render-pool.test.ts bounds the CPU a stopped rendering uses).
 */
const WALL_MS =
  60_000 + STARVED_LIMITS * Object.values(HOSTILE).reduce((sum, h) => sum + (h.code === 'lesson/render-budget' ? renderTimeLimitMs(h.text.length) : 0), 0);

const WELL_FORMED = lesson(fm('Fine'), '# Fine\n\n> A quote with a [link](https://example.com).\n\n- one\n  - two\n\n<details><summary>More</summary>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n</details>\n');

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  const files: Record<string, string> = { 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n', 'p/s/00-fine.md': WELL_FORMED };
  for (const [path, h] of Object.entries(HOSTILE)) files[path] = h.text;
  dir = await writeRepo(files);
});
afterAll(async () => {
  await emu?.close();
  await removeRepos();
});

describe('hostile Markdown: bounded time and memory, an error at the lesson', () => {
  it.each([
    ['validate, every core', ['validate'], {}],
    ['plan --refresh, COURSESYNC_RENDER_THREADS=1', ['plan', '--refresh'], { COURSESYNC_RENDER_THREADS: '1' }],
  ] as const)('%s', async (_name, [command, ...rest], extra) => {
    const r = await runBounded([command, dir, ...rest], { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url, ...extra });
    const out = r.stdout + r.stderr;
    expect(r.killed, `still running after ${WALL_MS} ms`).toBe(false);
    expect(r.peakMb, `peak RSS ${r.peakMb.toFixed(0)} MB`).toBeLessThan(RSS_MB);
    expect(r.code, out.slice(0, 2000)).toBe(1);
    expect(out).not.toMatch(/internal error|^\s+at .+:\d+:\d+\)?$/m);
    for (const [file, h] of Object.entries(HOSTILE)) expect(out).toContain(`${file}:${h.line}:${h.column} error`);
    for (const [file, h] of Object.entries(HOSTILE)) expect(out).toMatch(new RegExp(`^${file.replace(/\./g, '\\.')}:\\d+:\\d+ error .*\\[${h.code}\\]$`, 'm'));
    expect(out).not.toContain('00-fine.md');
    expect(out).not.toContain(SECRET);
    expect(emu.stats().requests).toBe(0);
    console.log(`${command}: ${r.ms} ms, peak RSS ${r.peakMb.toFixed(0)} MB`);
  }, WALL_MS + 15_000);
});
