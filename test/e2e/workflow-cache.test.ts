/**
 * Both shipped workflows restore the lesson cache and the code cache before coursesync runs,
 * from the folders the built CLI really writes, keyed by the lockfile (a new coursesync version
 * starts a new key line), with restore-keys that find the newest earlier run of the same lockfile.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyExamples, removeRepos, runCli } from './helpers.js';
import { workflowSteps, type WorkflowStep } from './workflow-steps.js';

afterAll(removeRepos);

const runsCoursesync = (s: WorkflowStep) => /\bcoursesync (plan|apply|assets|validate)\b/.test(s.run ?? '');

describe.each([
  ['coursesync-plan.yml', 'plan'],
  ['coursesync-apply.yml', 'apply'],
])('%s', (file, job) => {
  it('restores the cache folders coursesync writes, keyed by the lockfile, before any coursesync step', async () => {
    const steps = await workflowSteps(file, job);
    const cache = steps.findIndex((s) => s.uses?.startsWith('actions/cache@'));
    expect(cache).toBeGreaterThanOrEqual(0);
    expect(cache).toBeLessThan(steps.findIndex(runsCoursesync));
    const { path, key = '', 'restore-keys': restoreKeys } = steps[cache]!.with as Record<string, string | undefined>;
    expect(String(path).trim().split('\n')).toEqual(['.coursesync/cache', '~/.cache/coursesync']);
    expect(key).toContain("hashFiles('**/package-lock.json')");
    // Caches are immutable: each run saves under its own key; restore-keys is the key less the run.
    expect(key.endsWith('-${{ github.run_id }}')).toBe(true);
    expect(String(restoreKeys).trim()).toBe(key.slice(0, -'${{ github.run_id }}'.length));
  });
});

it('that folder is where coursesync keeps what it compiled and rendered', async () => {
  const dir = await copyExamples();
  const validate = await runCli(['validate', dir]);
  expect(validate.code, validate.stderr).toBe(0);
  expect((await readdir(join(dir, '.coursesync/cache'))).sort()).toEqual(expect.arrayContaining(['lessons.json', 'render.json']));
});

it('the other is where coursesync keeps the code it compiled, in a home folder as a runner has it', async () => {
  const dir = await copyExamples();
  const home = await mkdtemp(join(tmpdir(), 'coursesync-home-'));
  try {
    // As on a runner: HOME set, neither XDG_CACHE_HOME nor COURSESYNC_CODE_CACHE.
    const validate = await runCli(['validate', dir], { HOME: home, XDG_CACHE_HOME: '', COURSESYNC_CODE_CACHE: '' });
    expect(validate.code, validate.stderr).toBe(0);
    expect((await readdir(join(home, '.cache/coursesync/code'))).some((f) => f.endsWith('-validate.bin'))).toBe(true);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
