/**
 * `plan --refresh` against a school that fails and rate-limits: it has apply's retry budget
 * (the same client and policy) and apply's `--concurrency`, which the rate-limit hint names,
 * through the built CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SECRET, startTestEmulator } from '../apply/helpers.js';
import { lesson, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';
import { createRng } from './random.js';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';

let faults = false;
const rng = createRng(0x5eed);
let emu: RunningEmulator;
beforeAll(async () => {
  // Faults only once `faults` is set: the repo is applied cleanly first.
  emu = await startTestEmulator({ failRate: 0.3, rateLimit: 6, random: () => (faults ? rng.next() : 0.99) });
});
afterAll(async () => {
  await emu?.close();
  await removeRepos();
});

describe('plan --refresh under faults', () => {
  it('retries 5xx and 429 like apply, takes --concurrency, and reports no drift', async () => {
    const files: Record<string, string> = { 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n' };
    for (let i = 1; i <= 8; i++) files[`p/s/0${i}-l${i}.md`] = lesson(`name: Lesson ${i}\nlesson_type: text`, `# Lesson ${i}\n\nSee [the docs](https://example.com/${i}).`);
    const dir = await writeRepo(files);
    const env = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url };
    const applied = await runCli(['apply', dir, '--yes', '--concurrency', '1'], env);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);

    faults = true;
    const before = emu.stats().byRoute['PATCH /lessons/:id'] ?? 0;
    const r = await runCli(['plan', dir, '--refresh', '--concurrency', '8', '--detailed-exitcode'], env);
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toBe('No changes. 8 lessons unchanged.\n');
    // Every tracked lesson read, some more than once: failed and rate-limited reads were retried.
    expect((emu.stats().byRoute['PATCH /lessons/:id'] ?? 0) - before).toBeGreaterThan(8);
  });

  it('--concurrency is checked like apply\'s and listed in the help', async () => {
    const bad = await runCli(['plan', '.', '--refresh', '--concurrency', '0']);
    expect(bad.code).toBe(ExitCode.Usage);
    expect(bad.stderr).toMatch(/--concurrency must be a whole number from 1 to 64, not "0"/);
    const help = await runCli(['plan', '--help']);
    expect(help.stdout).toMatch(/--concurrency <n>\s+at most this many requests in flight with --refresh/);
  });
});
