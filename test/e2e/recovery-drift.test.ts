/**
 * Workflow accidents, continued (see workflow-accidents.test.ts), end to end through the built
 * CLI and the emulator: a lesson deleted in the school is recovered with the state commands, and
 * drift settles either way.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { acquireStateLock } from '../../src/state/lock-state.js';
import { BASE_REPO } from '../apply/course-files.js';
import { clientOf, deleteInSchool, schoolSections, useTestSchool } from '../apply/helpers.js';
import { lesson, runCli, writeRepo } from './helpers.js';

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

/** BASE_REPO applied, and the ids of its beta and gamma lessons. */
async function appliedBase(): Promise<{ dir: string; beta: string; gamma: string }> {
  const dir = await writeRepo(BASE_REPO);
  const r = await runCli(['apply', '--yes'], env, dir);
  expect(r.code, r.stderr).toBe(0);
  const state = JSON.parse(await readFile(join(dir, '.coursesync/state.json'), 'utf8')) as { lessons: Record<string, { id: string }> };
  return { dir, beta: state.lessons.beta!.id, gamma: state.lessons.gamma!.id };
}

describe('a lesson deleted in the school can be recovered', () => {
  it('a 404 names the lesson and the exact commands; state list/show; apply --replace creates it once, and everything converges', async () => {
    const { dir, beta } = await appliedBase();
    await deleteInSchool(emu, beta);
    const refresh = await runCli(['plan', '--refresh'], env, dir);
    expect(refresh.code).toBe(1);
    expect(refresh.stderr).toContain(`coursesync: the school has no lesson ${beta} (key beta, intro/a/2-beta.md): deleted in the school, or the state points elsewhere; nothing was changed`);
    expect(refresh.stderr).toContain(
      'hint: to create it anew from the repo: `coursesync apply --replace beta`; to stop managing it: delete the file and run `coursesync state rm beta`; `coursesync state show beta` shows what the state holds',
    );
    // An edit of the deleted lesson fails on the 404 with the same advice.
    await writeFile(join(dir, 'intro/a/2-beta.md'), lesson('name: Beta, second edition\nlesson_type: text', 'See the [changelog](https://example.com/changes).'));
    const failed = await runCli(['apply', '--yes'], env, dir);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('`coursesync apply --replace beta`');

    const list = await runCli(['state', 'list'], env, join(dir, 'intro'));
    expect(list.stdout).toContain(`beta\t${beta}\tsec_start\t2\tintro/a/2-beta.md\n`);
    const show = await runCli(['state', 'show', 'beta'], env, dir);
    expect(show.stdout).toContain(`id\t${beta}\n`);
    expect(show.stdout).toContain('applied.name\tBeta\n');
    const typo = await runCli(['state', 'show', 'bta'], env, dir);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('hint: did you mean beta?');

    const replaced = await runCli(['apply', '--replace', 'beta', '--yes'], env, dir);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stderr).toContain(`coursesync: beta (${beta}) is gone from the school: this apply creates it anew`);
    expect(replaced.stdout).toMatch(/^\+ create beta → sec_start #2 \(lesson les_\d+\)/m);
    const names = (await schoolSections(emu)).get('sec_start')!.map((l) => l.name);
    expect(names.filter((n) => n.startsWith('Beta'))).toEqual(['Beta, second edition']);
    const again = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(again.stdout).toBe('No changes. 7 lessons unchanged.\n');
    expect(again.code).toBe(0);
  });

  it('state rm forgets a lesson under the lock (the school is untouched); with its file deleted the plan is empty', async () => {
    const { dir, gamma } = await appliedBase();
    await deleteInSchool(emu, gamma);
    const held = await acquireStateLock(dir);
    const locked = await runCli(['state', 'rm', 'gamma'], env, dir);
    await held.release();
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(/^coursesync: the state is locked by pid \d+/m);
    expect(await readFile(join(dir, '.coursesync/state.json'), 'utf8')).toContain(gamma);
    const before = emu.stats().requests;
    const r = await runCli(['state', 'rm', 'gamma'], env, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Removed gamma from the state (lesson ${gamma} in sec_start, intro/a/3-gamma.md).`);
    expect(emu.stats().requests).toBe(before);
    const state = await readFile(join(dir, '.coursesync/state.json'), 'utf8');
    expect(state).not.toContain(gamma);
    expect(existsSync(join(dir, '.coursesync/state.lock'))).toBe(false);
    const withFile = await runCli(['plan'], env, dir);
    expect(withFile.stdout).toContain('Plan: 1 to create, 6 unchanged.');
    await rm(join(dir, 'intro/a/3-gamma.md'));
    const plan = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(plan.stdout).toBe('No changes. 6 lessons unchanged.\n');
    expect(plan.code).toBe(0);
  });
});

describe('drift settles', () => {
  it('plan --refresh shows the repo winning; apply --refresh sends it back; the next plan is "No changes" with exit 0', async () => {
    const { dir, beta } = await appliedBase();
    await clientOf(emu).lessons.update(beta, { name: 'Beta (fixed in the school)', body: '<p>Edited <strong>online</strong>.</p>', content_format: 'html' });
    const plan = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain(`~ intro/a/2-beta.md (${beta}) will be updated in place\n      name: "Beta (fixed in the school)" → "Beta"`);
    expect(plan.stdout).toContain(`! intro/a/2-beta.md (${beta}) was changed in the school since the last apply: name, body`);
    expect(plan.stdout).toContain('Plan: 1 to update, 1 drifted, 6 unchanged.');
    expect(plan.stderr).toContain(`Note: 1 lesson was changed in the school since the last apply: beta (${beta}: name, body). \`coursesync apply --refresh\` sends the repo's values back (the repo wins); to keep the school's version of a lesson instead, write it into its file with \`coursesync import ${beta} --key beta --write-file\`.`);
    expect(plan.stdout).not.toMatch(/No changes/);
    const apply = await runCli(['apply', '--refresh', '--yes'], env, dir);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/^~ update beta/m);
    const live = await clientOf(emu).lessons.update(beta, {});
    expect(live.name).toBe('Beta');
    expect(live.body).toBe('<p>Some text.</p>\n');
    const again = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(again.stdout).toBe('No changes. 7 lessons unchanged.\n');
    expect(again.code).toBe(0);
  });

  it('a lesson added in the school shifts tracked ones: drift with no call to make, which apply --refresh records, so CI turns green', async () => {
    const { dir } = await appliedBase();
    await clientOf(emu).lessons.create({ section_id: 'sec_start', name: 'Added in the UI', position: 1 });
    const plan = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('Plan: 4 drifted, 7 unchanged.');
    expect(plan.stdout).not.toMatch(/No changes/);
    const before = emu.stats().byRoute['PATCH /lessons/:id'] ?? 0;
    const apply = await runCli(['apply', '--refresh', '--yes'], env, dir);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toBe('Plan: 4 drifted, 7 unchanged. Nothing to send: recorded 4 drifted lessons as the school has them (alpha, beta, delta, gamma).\n');
    // Only the refresh's reads (PATCH {} per tracked lesson): nothing is moved back.
    expect((emu.stats().byRoute['PATCH /lessons/:id'] ?? 0) - before).toBe(7);
    const again = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(again.stdout).toBe('No changes. 7 lessons unchanged.\n');
    expect(again.code).toBe(0);
    expect((await schoolSections(emu)).get('sec_start')!.map((l) => l.name)).toEqual(['Added in the UI', 'Alpha', 'Beta', 'Gamma', 'Delta']);
  });

  it("import --key KEY --write-file takes the school's version into the file; the next plan --refresh is empty and nothing is sent", async () => {
    const { dir, beta } = await appliedBase();
    await clientOf(emu).lessons.update(beta, { name: 'Beta, improved', body: '<h2>Why</h2>\n<p>A <a href="https://example.com/why">reason</a>.</p>', content_format: 'html' });
    const r = await runCli(['import', beta, '--key', 'beta', '--write-file'], env, join(dir, 'intro'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Wrote the school's version of lesson ${beta} "Beta, improved" into intro/a/2-beta.md (Markdown) and recorded it as beta.`);
    const file = await readFile(join(dir, 'intro/a/2-beta.md'), 'utf8');
    expect(file).toContain('name: Beta, improved');
    expect(file).toContain('[reason](https://example.com/why)');
    const before = emu.stats().requests;
    const plan = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(plan.stdout).toBe('No changes. 7 lessons unchanged.\n');
    expect(plan.code).toBe(0);
    const apply = await runCli(['apply', '--yes'], env, dir);
    expect(apply.stdout).toBe('No changes. 7 lessons unchanged.\n');
    // Only reads: the refresh's 7 and plan's section listing per program (2); apply, with
    // nothing to send, sends nothing.
    expect(emu.stats().requests - before).toBe(7 + 2);
  });
});

