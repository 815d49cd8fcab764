/**
 * Both shipped workflows restore the lesson cache before coursesync runs, from the folder the
 * built CLI really writes, keyed by the lockfile (a new coursesync version starts a new key
 * line), with restore-keys that find the newest earlier run of the same lockfile.
 */
import { readdir } from 'node:fs/promises';
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
  it('restores the cache folder coursesync writes, keyed by the lockfile, before any coursesync step', async () => {
    const steps = await workflowSteps(file, job);
    const cache = steps.findIndex((s) => s.uses?.startsWith('actions/cache@'));
    expect(cache).toBeGreaterThanOrEqual(0);
    expect(cache).toBeLessThan(steps.findIndex(runsCoursesync));
    const { path, key = '', 'restore-keys': restoreKeys } = steps[cache]!.with as Record<string, string | undefined>;
    expect(path).toBe('.coursesync/cache');
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
