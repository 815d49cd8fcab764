/**
 * A damaged state journal through the built CLI against the emulator: a last record that ends in
 * its newline and fails its checksum is corruption (said, never dropped), `state compact
 * --salvage` keeps what is intact and turns the pending create it cannot confirm into an
 * uncertain one, and nothing is ever created twice on the way.
 */
import { existsSync } from 'node:fs';
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { encodeRecord } from '../../src/state/journal.js';
import { BASE_REPO } from '../apply/course-files.js';
import { clientOf, schoolSections, useTestSchool } from '../apply/helpers.js';
import { lesson, runCli, writeRepo } from './helpers.js';

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

const OMEGA = lesson('name: Omega\nlesson_type: text', '## Wrap-up\n\nSee the [summary table](https://example.com/summary):\n\n| week | topic |\n|---|---|\n| 1 | setup |\n| 2 | review |\n');
const omegas = async () => (await schoolSections(emu)).get('sec_start')!.filter((l) => l.name === 'Omega');

/**
 * BASE_REPO applied, then a file omega added whose create an apply recorded as pending (fsynced)
 * and sent, the school creating it, before the process was killed: the journal's last record is
 * that pending create.
 */
async function killedDuringCreate(): Promise<{ dir: string; journal: string; omega: string }> {
  const dir = await writeRepo(BASE_REPO);
  const r = await runCli(['apply', '--yes'], env, dir);
  expect(r.code, r.stderr).toBe(0);
  await writeFile(join(dir, 'intro/a/5-omega.md'), OMEGA);
  const state = JSON.parse(await readFile(join(dir, '.coursesync/state.json'), 'utf8')) as { lineage: string; serial: number };
  const journal = join(dir, '.coursesync/state.journal');
  const pending = { action: 'create', key: 'omega', lesson_id: null, request: 'POST /lessons', fields: ['section_id', 'name', 'body'], started_at: new Date().toISOString(), name: 'Omega', section_id: 'sec_start' };
  await writeFile(journal, encodeRecord({ journal: 1, lineage: state.lineage, base: state.serial }) + encodeRecord({ serial: state.serial + 1, pending: { call_1: pending } }));
  const created = await clientOf(emu).lessons.create({ section_id: 'sec_start', name: 'Omega', body: '<h2>Wrap-up</h2>' });
  return { dir, journal, omega: created.id };
}

describe('a damaged last journal record', () => {
  it('is corruption, not a torn append: apply refuses and sends nothing; --salvage makes the create uncertain; nothing is created twice', async () => {
    const { dir, journal, omega } = await killedDuringCreate();
    // One byte of the last record damaged on disk; the line still ends in its newline.
    const text = await readFile(journal, 'utf8');
    const damaged = text.replace('"name":"Omega"', '"name":"Omegb"');
    await writeFile(journal, damaged);
    const stateBefore = await readFile(join(dir, '.coursesync/state.json'), 'utf8');

    const before = emu.stats().requests;
    const refused = await runCli(['apply', '--yes'], env, dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`coursesync: the state journal ${journal} is damaged at record 2: it ends in a newline, so it was written whole, but its length or checksum does not match its content`);
    expect(refused.stderr).toContain('hint: run `coursesync state compact --salvage`');
    expect(refused.stderr).not.toMatch(/remove the journal if|restore \.coursesync\/ from git \(state\.json/);
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(emu.stats().requests).toBe(before);
    expect(await readFile(journal, 'utf8')).toBe(damaged);
    expect(await readFile(join(dir, '.coursesync/state.json'), 'utf8')).toBe(stateBefore);

    // Salvage keeps the intact records (here only the header) and the create the damaged one names.
    const salvaged = await runCli(['state', 'compact', '--salvage'], env, dir);
    expect(salvaged.code, salvaged.stderr).toBe(0);
    expect(salvaged.stdout).toContain('Salvaged the state journal: folded its 0 intact record(s) into the state');
    expect(salvaged.stdout).toContain('left out record 2 (it ends in a newline');
    expect(salvaged.stdout).toContain('now recorded as uncertain: omega.');
    const kept = (await readdir(join(dir, '.coursesync'))).filter((n) => n.startsWith('state.journal.damaged-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(join(dir, '.coursesync', kept[0]!), 'utf8')).toBe(damaged);
    expect(existsSync(journal)).toBe(false);
    const next = await runCli(['apply', '--yes'], env, dir);
    expect(next.code).toBe(1);
    expect(next.stdout + next.stderr).toContain('--key omega');
    expect(await omegas()).toEqual([expect.objectContaining({ id: omega })]);
  });

  it('an intact pending create salvaged with a damaged record after it becomes uncertain, and the next applies never create it again', async () => {
    const { dir, journal, omega } = await killedDuringCreate();
    const state = JSON.parse(await readFile(join(dir, '.coursesync/state.json'), 'utf8')) as { serial: number };
    // A later record (the create's answer, say) was written whole and damaged since.
    const answer = encodeRecord({ serial: state.serial + 2, pending: { call_1: null } });
    await appendFile(journal, answer.replace('null', 'nul!'));
    const refused = await runCli(['apply', '--yes'], env, dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is damaged at record 3');

    const salvaged = await runCli(['state', 'compact', '--salvage'], env, dir);
    expect(salvaged.code, salvaged.stderr).toBe(0);
    expect(salvaged.stdout).toContain('folded its 1 intact record(s)');
    expect(salvaged.stdout).toContain('The journal left 1 create(s) pending, now recorded as uncertain: omega.');

    for (let i = 0; i < 2; i++) {
      const again = await runCli(['apply', '--yes'], env, dir);
      expect(again.code).toBe(1);
      expect(again.stdout + again.stderr).toMatch(/coursesync import <lesson id> --key omega/);
    }
    expect(await omegas()).toHaveLength(1);
    const adopted = await runCli(['import', omega, '--key', 'omega'], env, dir);
    expect(adopted.code, adopted.stderr).toBe(0);
    const done = await runCli(['apply', '--yes'], env, dir);
    expect(done.code, done.stderr).toBe(0);
    expect(await omegas()).toHaveLength(1);
  });
});
