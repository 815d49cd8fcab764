/**
 * apply at the prompt and under signals, with the built CLI against the emulator: the prompt's
 * grammar, "no" (exit 3, cancelled), Ctrl-C at the prompt (exit 130, cleanly, lock released),
 * SIGTERM during the calls (as graceful as Ctrl-C: calls in flight finish and are recorded, exit
 * 143), and off a terminal: nothing to do exits 0 without --yes, something to do still refuses.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SECRET, lessonCalls, resetEmulator, schoolSections, startTestEmulator } from '../apply/helpers.js';
import { CLI, lesson, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';
import { runInPty } from './pty.js';

let emu: RunningEmulator;
let slow: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
  // Slow answers, so a signal arrives while calls are in flight.
  slow = await startTestEmulator({ latencyMs: 300 });
});
afterAll(async () => {
  await Promise.all([emu?.close(), slow?.close()]);
  await removeRepos();
});
beforeEach(async () => {
  await Promise.all([resetEmulator(emu), resetEmulator(slow)]);
});

const env = (school = emu) => ({ COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: school.url });
const lockFile = (dir: string) => join(dir, '.coursesync/state.lock');
const stateOf = async (dir: string) => JSON.parse(await readFile(join(dir, '.coursesync/state.json'), 'utf8'));

function repo(lessons: number): Promise<string> {
  const files: Record<string, string> = { 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n' };
  for (let i = 1; i <= lessons; i++) {
    files[`p/s/0${i}-part-${i}.md`] = lesson(`name: Part ${i}`, `# Part ${i}\n\nRead [the setup notes](https://example.com/setup) first.\n\n| step | time |\n|---|---|\n| ${i} | 5 min |\n`);
  }
  return writeRepo(files);
}

describe('the confirmation prompt (in a terminal)', () => {
  it('"this 1 call" and "these 3 calls"; answering no exits 3 with nothing sent', async () => {
    const one = runInPty(['apply', await repo(1)], env());
    await one.waitFor(/Apply this 1 call to http:\/\/127\.0\.0\.1:\d+\/api\/v1\? \[y\/N\] /);
    one.type('n\r');
    const r1 = await one.done;
    expect(r1.code).toBe(3);
    expect(r1.screen).toContain('Apply cancelled; nothing was changed.');

    const dir = await repo(3);
    const three = runInPty(['apply', dir], env());
    await three.waitFor(/Apply these 3 calls to .*\? \[y\/N\] /);
    three.type('\x04'); // Ctrl-D answers no
    expect((await three.done).code).toBe(3);
    expect(lessonCalls(emu)).toBe(0);
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('Ctrl-C at the prompt exits 130 cleanly: one message, no stack, nothing sent, lock released; the next apply works', async () => {
    const dir = await repo(2);
    const run = runInPty(['apply', dir], env());
    await run.waitFor(/\[y\/N\] /);
    run.type('\x03');
    const r = await run.done;
    expect(r.code).toBe(130);
    expect(r.screen).toMatch(/coursesync: interrupted before confirming \(Apply these 2 calls to .*\); nothing was changed$/m);
    expect(r.screen).not.toMatch(/\n\s+at |internal error/);
    expect(lessonCalls(emu)).toBe(0);
    expect(existsSync(lockFile(dir))).toBe(false);
    const yes = runInPty(['apply', dir], env());
    await yes.waitFor(/\[y\/N\] /);
    yes.type('y\r');
    expect((await yes.done).code).toBe(0);
    expect([...(await schoolSections(emu)).values()].flat().map((l) => l.name)).toEqual(expect.arrayContaining(['Part 1', 'Part 2']));
  });

  it('SIGTERM while the prompt waits stops it too: exit 143, nothing sent, lock released', async () => {
    const dir = await repo(1);
    const run = runInPty(['apply', dir], env());
    await run.waitFor(/\[y\/N\] /);
    run.signal('SIGTERM');
    const r = await run.done;
    expect(r.code).toBe(143);
    expect(r.screen).toMatch(/coursesync: interrupted before confirming \(Apply this 1 call to .*\); nothing was changed$/m);
    expect(r.screen).not.toContain('Stopping');
    expect(lessonCalls(emu)).toBe(0);
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('Ctrl-C at the prompt of another command (offers delete) exits 130 too, and deletes nothing', async () => {
    const run = runInPty(['offers', 'delete', 'off_pro'], env());
    await run.waitFor(/Delete offer "Pro" \(off_pro\)\? \[y\/N\] /);
    run.type('\x03');
    expect((await run.done).code).toBe(130);
    expect((await runCli(['offers', 'get', 'off_pro', '--json'], env())).code).toBe(0);
  });
});

describe('off a terminal', () => {
  it('apply with nothing to do exits 0 without --yes; with something to do it refuses (exit 1) and sends nothing', async () => {
    const dir = await repo(2);
    const refused = await runCli(['apply', dir], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not run in a terminal, so nobody can confirm: Apply these 2 calls to [^\n]*[^.]\n {2}hint: review the plan with `coursesync plan`, then re-run with --yes/);
    expect(lessonCalls(emu)).toBe(0);
    expect((await runCli(['apply', dir, '--yes'], env())).code).toBe(0);
    const again = await runCli(['apply', dir], env());
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/No changes/);
  });
});

describe('SIGTERM during apply', () => {
  it('is as graceful as Ctrl-C: no new call, the calls in flight finish and are recorded, lock released, exit 143; apply again converges', async () => {
    const dir = await repo(8);
    const child = spawn(process.execPath, [CLI, 'apply', dir, '--yes', '--concurrency', '2'], { env: { ...process.env, ...env(slow) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (/^\+ create /m.test(stdout) && child.signalCode === null && !stderr.includes('Stopping')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(143);
    expect(stderr).toMatch(/Stopping: no new calls will start; waiting for the calls in flight, then saving the state/);
    expect(stdout).toMatch(/^Apply interrupted: \d+ of 8 calls made/m);
    expect(existsSync(lockFile(dir))).toBe(false);
    const state = await stateOf(dir);
    expect(state.pending ?? {}).toEqual({});
    const inSchool = [...(await schoolSections(slow)).values()].flat();
    expect(inSchool.length).toBeLessThan(8);
    // Every lesson the school has is tracked: the calls in flight were waited for and recorded.
    const tracked = new Set(Object.values(state.lessons as Record<string, { id: string | null }>).map((l) => l.id));
    expect(inSchool.filter((l) => !tracked.has(l.id))).toEqual([]);
    expect((await runCli(['apply', dir, '--yes'], env(slow))).code).toBe(0);
    expect([...(await schoolSections(slow)).values()].flat()).toHaveLength(8);
    expect((await runCli(['plan', dir, '--detailed-exitcode'], env(slow))).code).toBe(0);
  });
});
