/**
 * `apply --replace KEY` through the built CLI against the emulator: a refused or cancelled run
 * forgets nothing (so the next apply creates no second lesson), and a lesson the school still
 * has is never replaced (one read, then a refusal with the way out).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { BASE_REPO } from '../apply/course-files.js';
import { deleteInSchool, schoolSections, useTestSchool } from '../apply/helpers.js';
import { runInPty } from '../cli/pty.js';
import { runCli, writeRepo } from './helpers.js';

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

const stateText = (dir: string) => readFile(join(dir, '.coursesync/state.json'), 'utf8');
const betas = async () => (await schoolSections(emu)).get('sec_start')!.filter((l) => l.name === 'Beta');
const creates = () => emu.stats().byRoute['POST /lessons'] ?? 0;

async function appliedBase(): Promise<{ dir: string; beta: string }> {
  const dir = await writeRepo(BASE_REPO);
  const r = await runCli(['apply', '--yes'], env, dir);
  expect(r.code, r.stderr).toBe(0);
  return { dir, beta: (JSON.parse(await stateText(dir)) as { lessons: Record<string, { id: string }> }).lessons.beta!.id };
}

describe('apply --replace forgets nothing until the apply runs', () => {
  it('refused off a terminal, then cancelled at the prompt: the state is untouched and the next apply creates nothing', async () => {
    const { dir, beta } = await appliedBase();
    await deleteInSchool(emu, beta);
    const before = await stateText(dir);

    const refused = await runCli(['apply', '--replace', 'beta'], env, dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not run in a terminal, so nobody can confirm');
    expect(await stateText(dir)).toBe(before);

    const atTty = runInPty(['apply', dir, '--replace', 'beta'], env);
    await atTty.waitFor(/\[y\/N\] /);
    atTty.type('n\r');
    const cancelled = await atTty.done;
    expect(cancelled.code).toBe(3);
    expect(cancelled.screen).toContain('Apply cancelled; nothing was changed.');
    expect(await stateText(dir)).toBe(before);

    // Without --replace, beta is still tracked: nothing is created behind the author's back.
    const next = await runCli(['apply', '--yes'], env, dir);
    expect(next.code, next.stderr).toBe(0);
    expect(creates()).toBe(7);
    expect(await betas()).toEqual([]);

    // Confirmed, it creates beta once and records the new id.
    const replaced = await runCli(['apply', '--replace', 'beta', '--yes'], env, dir);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stderr).toContain(`coursesync: beta (${beta}) is gone from the school: this apply creates it anew`);
    expect(await betas()).toHaveLength(1);
    expect(await stateText(dir)).not.toContain(`"${beta}"`);
  });

  it('a lesson the school still has is refused after one read, with the way out; nothing is sent or forgotten', async () => {
    const { dir, beta } = await appliedBase();
    const before = await stateText(dir);
    const reads = emu.stats().byRoute['PATCH /lessons/:id'] ?? 0;
    const r = await runCli(['apply', '--replace', 'beta', '--yes'], env, dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`coursesync: --replace beta: the school still has lesson ${beta} (intro/a/2-beta.md); creating it anew would leave two copies`);
    expect(r.stderr).toContain(`hint: to keep it, run \`coursesync apply\` without --replace (it updates ${beta} in place); to start over, delete lesson ${beta} in the school first`);
    expect((emu.stats().byRoute['PATCH /lessons/:id'] ?? 0) - reads).toBe(1);
    expect(creates()).toBe(7);
    expect(await betas()).toHaveLength(1);
    expect(await stateText(dir)).toBe(before);
    const again = await runCli(['apply', '--yes'], env, dir);
    expect(again.code, again.stderr).toBe(0);
    expect(await betas()).toHaveLength(1);
  });
});
