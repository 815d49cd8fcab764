/**
 * `coursesync apply` end to end: the built CLI in a child process against the emulator on a
 * free port, for what only the real command shows: examples/ (apply, then plan says no
 * changes), --yes off a terminal, 403 naming the files, a server 422 with its message and file,
 * stale saved plans, an uncertain create and --recreate, Ctrl-C, and that the token never shows
 * up in output or state. Edits, moves, renames and removal policies: test/apply/apply-course.test.ts.
 */
import { existsSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { PARTNER, schoolSections, SECRET, startTestEmulator, useTestSchool } from '../apply/helpers.js';
import { BASE_REPO as base } from '../apply/course-files.js';
import { copyExamples, lesson, runCli, writeRepo, type CliResult } from './helpers.js';

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

/** The token appears nowhere in a command's output. */
function expectNoToken(...results: CliResult[]) {
  for (const r of results) {
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stderr).not.toContain(SECRET);
  }
}

async function stateText(dir: string): Promise<string> {
  return readFile(join(dir, '.coursesync/state.json'), 'utf8');
}

/** Lessons of a section in the school, by name. */
async function namesIn(sectionId: string): Promise<string[]> {
  return ((await schoolSections(emu)).get(sectionId) ?? []).map((l) => l.name);
}

describe('coursesync apply: examples/', () => {
  it('applies every lesson, one line per call; a second plan has no changes (exit 0); the token is nowhere', async () => {
    const dir = await copyExamples();
    const applied = await runCli(['apply', dir, '--yes'], env);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^\+ create welcome → sec_start #1 \(lesson les_\d+\) \d+ ms$/m);
    expect(applied.stdout).toMatch(/^Apply complete: 22 created \(22 calls in [\d.]+ s, concurrency 4\)\.$/m);
    const plan = await runCli(['plan', dir, '--detailed-exitcode'], env);
    expect(plan.stdout).toBe('No changes. 22 lessons unchanged.\n');
    expect(plan.code).toBe(0);
    const again = await runCli(['apply', dir, '--yes'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('No changes. 22 lessons unchanged.\n');
    expect(await namesIn('sec_start')).toEqual(['Welcome to the course', 'Cheat sheet (PDF)', 'Installing Node.js and TypeScript', 'Hello, world', 'Setting up your editor']);
    expectNoToken(applied, plan, again);
    expect(await stateText(dir)).not.toContain(SECRET);
  });

  it('off a terminal, without --yes: with calls to make, refuses before any write (only the section check reads), and says to add --yes', async () => {
    const dir = await copyExamples();
    const before = emu.stats().byRoute;
    const r = await runCli(['apply', dir], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nobody can confirm/);
    expect(r.stderr).toMatch(/hint: .*--yes/);
    const after = emu.stats().byRoute;
    const called = Object.keys(after).filter((route) => after[route] !== before[route]);
    expect(called.every((route) => /^GET /.test(route)), called.join(', ')).toBe(true);
    expect(existsSync(join(dir, '.coursesync/state.json'))).toBe(false);
  });
});

describe('coursesync apply: failures', () => {
  it('403 on a program the key may not edit: a clear error naming the files; the token never shows', async () => {
    const dir = await writeRepo(base);
    const r = await runCli(['apply', dir, '--yes'], { ...env, COURSESYNC_TOKEN: PARTNER });
    expect(r.code).toBe(1);
    // Found by the check before any write: no call is made, no state written.
    expect(r.stderr).toMatch(/^adv\/program\.yaml:\d+:\d+ error the school has no program prog_advanced that this API token may see .*\[program\/not-found\]/m);
    expect(r.stderr).toMatch(/^intro\/program\.yaml:\d+:\d+ error the school has no program prog_intro that this API token may see .*\[program\/not-found\]/m);
    expect(r.stderr).toMatch(/hint: check the program id, and that the API key has access to that program/);
    expect(r.stdout).toBe('');
    expect(existsSync(join(dir, '.coursesync/state.json'))).toBe(false);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.stdout + r.stderr).not.toContain(PARTNER);
  });

  it('a 422 from the school is reported with its message and the file; a second apply converges', async () => {
    const dir = await writeRepo(base);
    const planFile = join(dir, 'plan.json');
    expect((await runCli(['plan', dir, '--out', planFile], env)).code).toBe(0);
    // A body the school rejects (the client checks shape only): injected into a saved plan.
    const plan = JSON.parse(await readFile(planFile, 'utf8'));
    const gamma = plan.changes.find((c: { key: string }) => c.key === 'gamma');
    gamma.request.body = '<p>ok</p><script>alert(1)</script>';
    await writeFile(planFile, JSON.stringify(plan));
    const r = await runCli(['apply', planFile, '--dir', dir, '--yes'], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/✗ create gamma \(intro\/a\/3-gamma\.md\) failed after \d+ ms: POST \/lessons answered 422: Invalid arguments: \/body not/);
    expect(r.stdout).toMatch(/✗ intro\/a\/3-gamma\.md: create gamma: POST \/lessons answered 422: Invalid arguments: \/body not/);
    expect(r.stdout).toMatch(/not started: intro\/a\/4-delta\.md/);
    expect(await namesIn('sec_start')).toEqual(['Alpha', 'Beta']);
    expect(await namesIn('sec_generics')).toEqual(['Eta']);
    expectNoToken(r);
    const again = await runCli(['apply', dir, '--yes'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Apply complete: 2 created/);
    expect(await namesIn('sec_start')).toEqual(['Alpha', 'Beta', 'Gamma', 'Delta']);
    expect((await runCli(['plan', dir, '--detailed-exitcode'], env)).code).toBe(0);
  });

  it('a stale saved plan is refused (repo changed, state changed); a current one is applied', async () => {
    const dir = await writeRepo(base);
    const planFile = join(dir, 'plan.json');
    expect((await runCli(['plan', dir, '--out', planFile], env)).code).toBe(0);
    // Before the first apply: the plan is current, even though there is no state file yet.
    await writeFile(join(dir, 'intro/a/2-beta.md'), lesson('name: Beta changed\nlesson_type: text'));
    const before = emu.stats().requests; // the plan listed the sections of each program
    const changedRepo = await runCli(['apply', planFile, '--dir', dir, '--yes'], env);
    expect(changedRepo.code).toBe(1);
    expect(changedRepo.stderr).toMatch(/the saved plan .*plan\.json is stale: the repo changed since the plan was made/);
    expect(changedRepo.stderr).toMatch(/hint: make a new plan with `coursesync plan --out plan\.json`/);
    expect(emu.stats().requests).toBe(before);

    expect((await runCli(['plan', dir, '--out', planFile], env)).code).toBe(0);
    const current = await runCli(['apply', planFile, '--dir', dir, '--yes'], env);
    expect(current.code).toBe(0);
    expect(current.stdout).toMatch(/Apply complete: 7 created/);
    // The same plan again: the state moved on.
    const stale = await runCli(['apply', planFile, '--dir', dir, '--yes'], env);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/is stale: the state changed since the plan was made \(serial \d+, now \d+\): another apply ran/);
  });

  it('a saved plan larger than a string may hold is refused by name, before any request, with no stack trace', async () => {
    const dir = await writeRepo(base);
    const planFile = join(dir, 'plan.json');
    // Sparse: 600 MB on paper, nothing on disk (a plan of some 100,000 creates is that size).
    const handle = await open(planFile, 'w');
    await handle.truncate(600_000_000);
    await handle.close();
    const before = emu.stats().requests;
    const r = await runCli(['apply', planFile, '--dir', dir, '--yes'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the plan file .*plan\.json is 600 MB, more than the \d+ MB a saved plan may have/);
    expect(r.stderr).toMatch(/hint: apply without a saved plan/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(emu.stats().requests).toBe(before);
  });

  it('a create whose answer is lost becomes uncertain; plan says what to do; --recreate creates it again', async () => {
    // The first request lists the sections (the check before any write); the second, the first
    // create, is saved, then its connection dropped.
    let n = 0;
    const flaky = await startTestEmulator({ dropAfterCommitRate: 0.5, random: () => (n++ === 1 ? 0 : 0.99) });
    try {
      const flakyEnv = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: flaky.url };
      const files = Object.fromEntries(Object.entries(base).filter(([path]) => !path.startsWith('adv/') && !path.startsWith('intro/b/')));
      const dir = await writeRepo(files);
      const r = await runCli(['apply', dir, '--yes', '--concurrency', '1'], flakyEnv);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/\? intro\/a\/1-alpha\.md: create alpha in sec_start may or may not exist/);
      expect(r.stdout).toMatch(/coursesync apply --recreate alpha/);
      const state = JSON.parse(await stateText(dir));
      expect(state.lessons.alpha).toMatchObject({ id: null, uncertain: { name: 'Alpha', section_id: 'sec_start' } });
      const plan = await runCli(['plan', dir, '--detailed-exitcode'], flakyEnv);
      expect(plan.code).toBe(2);
      expect(plan.stdout).toMatch(/key alpha: .*coursesync import <lesson id> --key alpha.*coursesync apply --recreate alpha/);
      const recreated = await runCli(['apply', dir, '--yes', '--recreate', 'alpha'], flakyEnv);
      expect(recreated.stderr).toMatch(/dropped the uncertain create\(s\) alpha/);
      expect(recreated.code).toBe(0);
      const lessons = (await (await fetch(flaky.url.replace(/\/api\/v1$/, '/__emulator/state'), { headers: { authorization: `Bearer ${SECRET}` } })).json()) as {
        programs: Array<{ sections: Array<{ id: string; lessons: Array<{ name: string }> }> }>;
      };
      const start = lessons.programs.flatMap((p) => p.sections).find((s) => s.id === 'sec_start')!;
      // The lost create did happen (the fault saves, then drops): --recreate made a second copy, as
      // asked, and the first one (untracked) was pushed down by the new creates.
      expect(start.lessons.map((l) => l.name)).toEqual(['Alpha', 'Beta', 'Gamma', 'Delta', 'Alpha']);
      expect((await runCli(['plan', dir, '--detailed-exitcode'], flakyEnv)).code).toBe(0);
    } finally {
      await flaky.close();
    }
  });
});

describe('coursesync apply: Ctrl-C', () => {
  it('the first SIGINT stops starting calls, lets those in flight finish, saves the state and exits 130; apply again converges', async () => {
    const slow = await startTestEmulator({ latencyMs: 150 });
    try {
      const slowEnv = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: slow.url };
      const dir = await copyExamples();
      const { spawn } = await import('node:child_process');
      const { CLI } = await import('./helpers.js');
      const child = spawn(process.execPath, [CLI, 'apply', dir, '--yes', '--concurrency', '2'], { env: { ...process.env, ...slowEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let signalled = false;
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (!signalled && /^\+ create /m.test(stdout)) {
          signalled = true;
          child.kill('SIGINT');
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(130);
      expect(stderr).toMatch(/Stopping: no new calls will start/);
      expect(stdout).toMatch(/^Apply interrupted: \d+ of 22 calls made/m);
      const state = JSON.parse(await stateText(dir));
      expect(state.pending).toEqual({});
      const made = Object.keys(state.lessons).length;
      expect(made).toBeGreaterThan(0);
      expect(made).toBeLessThan(22);
      const school = await (await fetch(slow.url.replace(/\/api\/v1$/, '/__emulator/state'), { headers: { authorization: `Bearer ${SECRET}` } })).json();
      const inSchool = (school as { programs: Array<{ sections: Array<{ lessons: unknown[] }> }> }).programs.flatMap((p) => p.sections).reduce((n, s) => n + s.lessons.length, 0);
      expect(inSchool).toBe(made);
      // The lessons made before the interrupt are live: the rest of the plan may put a progression
      // lock in front of them, which apply refuses as learner impact unless accepted.
      const again = await runCli(['apply', dir, '--yes', '--concurrency', '8', '--accept-impact'], slowEnv);
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(new RegExp(`Apply complete: ${22 - made} created`));
      expect((await runCli(['plan', dir, '--detailed-exitcode'], slowEnv)).code).toBe(0);
    } finally {
      await slow.close();
    }
  });
});
