/**
 * validate, plan and apply in-process with injected I/O, like the other commands: they write
 * only to the streams they are given and read only the environment they are given.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runApply } from '../../src/cli/apply.js';
import { runPlan } from '../../src/cli/plan.js';
import type { CommandIo } from '../../src/cli/school-command.js';
import { runValidate } from '../../src/cli/validate.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BASE_REPO } from '../apply/course-files.js';
import { SECRET, startTestEmulator } from '../apply/helpers.js';
import { lesson, removeRepos, writeRepo } from '../e2e/helpers.js';
import { collector, type Collected } from './school-helpers.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu?.close();
  await removeRepos();
});

function ioWith(env: NodeJS.ProcessEnv, interactive = false): CommandIo & { stdout: Collected; stderr: Collected } {
  return { stdout: collector(), stderr: collector(), env, interactive };
}

const WARNED = { ...BASE_REPO, 'intro/a/5-links.md': lesson('name: Links\nlesson_type: text', '[docs](javascript:void(0))') };

describe('validate, plan and apply with injected I/O', () => {
  it('validate writes its report and annotations to the given streams, reading GITHUB_ACTIONS from the given env', async () => {
    const dir = await writeRepo(WARNED);
    const io = ioWith({ GITHUB_ACTIONS: 'true' });
    expect(await runValidate(dir, { format: 'text' }, io)).toBe(0);
    // Diagnostics on stderr, the verdict on stdout.
    expect(io.stderr.text).toMatch(/^intro\/a\/5-links\.md:\d+:\d+ warning .*\[lesson\/javascript-url\]$/m);
    expect(io.stdout.text).toBe('2 programs, 3 sections, 8 lessons: valid (1 warning)\n');
    expect(io.stderr.text).toMatch(/^::warning file=intro\/a\/5-links\.md,/m);
  });

  it('plan uses the given env for the token and the step summary; notes and annotations go to the given stderr', async () => {
    const dir = await writeRepo(WARNED);
    const summary = join(dir, 'summary.md');
    const io = ioWith({ COURSESYNC_BASE_URL: emu.url, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
    expect(await runPlan(dir, { detailedExitcode: true }, io)).toBe(2);
    expect(io.stdout.text).toMatch(/Plan: 8 to create, 0 unchanged\.\n$/);
    expect(io.stderr.text).toMatch(/^::warning file=intro\/a\/5-links\.md,.*title=lesson\/javascript-url::/m);
    expect(io.stderr.text).toContain('Note: Section ids were not checked against the school (no API token)');
    expect(await readFile(summary, 'utf8')).toContain('**Plan: 8 to create, 0 unchanged.**');
    const withToken = ioWith({ COURSESYNC_BASE_URL: emu.url, COURSESYNC_TOKEN: SECRET });
    expect(await runPlan(dir, { format: 'json' }, withToken)).toBe(0);
    expect(JSON.parse(withToken.stdout.text).notes).toBeUndefined();
  });

  it('apply refuses without --yes when the given I/O is not interactive, and otherwise reports to the given stdout', async () => {
    const dir = await writeRepo(BASE_REPO);
    const env = { COURSESYNC_BASE_URL: emu.url, COURSESYNC_TOKEN: SECRET };
    await expect(runApply(dir, {}, ioWith(env))).rejects.toMatchObject({ code: 'cli/needs-yes' });
    const io = ioWith(env);
    expect(await runApply(dir, { yes: true }, io)).toBe(0);
    expect(io.stdout.text).toMatch(/^Apply complete: 7 created/m);
    const again = ioWith(env);
    expect(await runApply(dir, { yes: true }, again)).toBe(0);
    expect(again.stdout.text).toBe('No changes. 7 lessons unchanged.\n');
  });
});
