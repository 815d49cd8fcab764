/**
 * `COURSESYNC_DEBUG=timing` through the built CLI, on a fresh checkout of an applied course (the
 * committed state, no cache) with one lesson edited: one line per step of the plan's path, in
 * the order the steps end, in ms since the process started, on stderr only; the plan itself is
 * the one a run without the variable prints, and, unlike any other debug value, the variable
 * leaves the plan memo on.
 */
import { appendFile, cp, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { memoizable } from '../../src/sync/plan-memo.js';
import { useTestSchool } from '../apply/helpers.js';
import { runCli } from './helpers.js';
import { appliedWorkspace, type OdinWorkspace } from './odin-workspace.js';

const BOOK = path.resolve(import.meta.dirname, '../fixtures/repos/includes');
const LESSON = 'book/01-getting-started/01-hello-world.md';

let emu: RunningEmulator;
let school: Record<string, string>;
let workspace: OdinWorkspace;

useTestSchool((e, vars) => {
  emu = e;
  school = vars;
});
beforeEach(async () => {
  workspace = await appliedWorkspace(emu, 'coursesync-timing-', BOOK, 'http://assets.test/book/', school);
});
afterEach(async () => {
  await workspace.close();
});

/** The steps a run marked, in the order printed, each with its time; and whatever else stderr held. */
function marks(stderr: string): { steps: string[]; ms: number[]; rest: string[] } {
  const steps: string[] = [];
  const ms: number[] = [];
  const rest: string[] = [];
  for (const line of stderr.split('\n')) {
    const m = /^debug: (\d+) ms (.+)$/.exec(line);
    if (m) {
      ms.push(Number(m[1]));
      steps.push(m[2]!);
    } else if (line !== '') rest.push(line);
  }
  return { steps, ms, rest };
}

describe('COURSESYNC_DEBUG=timing', () => {
  it('marks each step of a fresh checkout\'s plan, in order, beside the plan a run without it prints', async () => {
    const clone = path.join(workspace.work, 'checkout');
    await cp(workspace.repo, clone, { recursive: true, filter: (src) => path.basename(src) !== 'cache' && !src.endsWith('.lock') });
    await appendFile(path.join(clone, LESSON), '\nOne more paragraph, with a [link](https://example.com).\n');
    // Past the stat index's clock margin, so that the index the first run writes is trusted by the second.
    await sleep(150);
    const plain = await runCli(['plan', clone, '--detailed-exitcode'], { ...school, COURSESYNC_RENDER_THREADS: '1' });
    // The same plan with the repo read here (the stat index the first run wrote may spare reads).
    const here = await runCli(['plan', '--dir', clone, '--detailed-exitcode'], { ...school, COURSESYNC_RENDER_THREADS: '1', COURSESYNC_DEBUG: 'timing' });
    expect(marks(here.stderr).steps).toContain('read: repo read on this thread');
    await rm(path.join(clone, '.coursesync/cache'), { recursive: true, force: true });
    const timed = await runCli(['plan', clone, '--detailed-exitcode'], { ...school, COURSESYNC_RENDER_THREADS: '1', COURSESYNC_DEBUG: 'timing' });
    expect([plain.code, here.code, timed.code]).toEqual([2, 2, 2]);
    expect(timed.stdout).toBe(plain.stdout);
    expect(here.stdout).toBe(plain.stdout);

    const { steps, ms, rest } = marks(timed.stderr);
    expect(rest.join('\n')).toBe(marks(plain.stderr).rest.join('\n'));
    // The read: on the other core (started by the entry before the commands load: early-read.ts)
    // while this thread loads and reads the state, then makes what the state knows
    // (read-aside.ts), or here on one core.
    const read = availableParallelism() >= 2 ? ['read: worker started early, taken', 'read: this thread done meanwhile', 'read: this thread prepared while waiting', 'read: worker answered'] : ['read: repo read on this thread'];
    // The built command's code first: compiled from the code cache, or anew (cli/code-cache.ts).
    expect(steps[0]).toMatch(/^code cache: (none|used)$/);
    expect(steps.slice(1)).toEqual([
      'plan: started',
      ...read,
      'plan: inputs read and digested',
      'compile: framed (known lessons checked)',
      'compile: rendered ahead',
      'compile: compiled',
      'plan: diffed',
      'plan: printed',
    ]);
    expect(ms.every((t, i) => i === 0 || t >= ms[i - 1]!)).toBe(true);
    expect(ms[0]).toBeGreaterThan(0);
  }, 60_000);

  it('leaves the plan memo on; any other debug value turns it off', () => {
    const question = (debug: string | undefined) => memoizable({ env: debug === undefined ? {} : { COURSESYNC_DEBUG: debug } });
    expect([undefined, '', 'timing', 'timing,'].map(question)).toEqual([true, true, true, true]);
    expect(['compile', 'timing,compile', 'compile,timing', 'anything'].map(question)).toEqual([false, false, false, false]);
  });
});
