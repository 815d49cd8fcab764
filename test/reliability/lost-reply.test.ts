/**
 * The fault that matters most: the school commits and the reply is lost — and its
 * twin, the connection dropped before the school did anything. At the level of one call:
 * - a create whose reply was lost is `uncertain`, exactly one lesson exists, and it is never
 *   re-sent (not by the client, not by the next apply); `import --key` settles it;
 * - a create dropped before processing is `uncertain` too, with no lesson; `--recreate` makes one;
 * - a PATCH re-sent after a lost reply does not shift lessons twice (client and apply level).
 * The emulator's random() is scripted, so exactly the chosen request is faulted.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { OutcomeUnknownError } from '../../src/school/errors.js';
import { SECRET, clientOf, resetEmulator, schoolSections, startTestEmulator } from '../apply/helpers.js';
import { lesson, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';

/** The next requests to fault: each entry is one request; true = faulted. Then no faults. */
let script: boolean[] = [];
const scripted = () => (script.shift() === true ? 0 : 0.99);

let afterCommit: RunningEmulator;
let beforeProcess: RunningEmulator;
beforeAll(async () => {
  // Each emulator has one fault kind enabled, so each request draws exactly one number.
  afterCommit = await startTestEmulator({ dropAfterCommitRate: 0.5, random: scripted });
  beforeProcess = await startTestEmulator({ dropBeforeProcessRate: 0.5, random: scripted });
});
afterAll(async () => {
  await afterCommit?.close();
  await beforeProcess?.close();
  await removeRepos();
});
beforeEach(async () => {
  script = [];
  await resetEmulator(afterCommit);
  await resetEmulator(beforeProcess);
});

const names = async (emu: RunningEmulator, section = 'sec_start') => ((await schoolSections(emu)).get(section) ?? []).map((l) => `${l.position}:${l.name}`);

describe('one call, with the client', () => {
  it('a create whose reply is lost: OutcomeUnknownError naming the lesson, one POST, exactly one lesson', async () => {
    script = [true];
    const err = await clientOf(afterCommit).lessons.create({ section_id: 'sec_start', name: 'Lost reply' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).lesson).toEqual({ name: 'Lost reply', section_id: 'sec_start' });
    expect(afterCommit.stats().byRoute['POST /lessons']).toBe(1);
    expect(await names(afterCommit)).toEqual(['1:Lost reply']);
  });

  it('a create dropped before processing: OutcomeUnknownError too (the client cannot tell), one POST, no lesson', async () => {
    script = [true];
    const err = await clientOf(beforeProcess).lessons.create({ section_id: 'sec_start', name: 'Never made' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(beforeProcess.stats().byRoute['POST /lessons']).toBe(1);
    expect(await names(beforeProcess)).toEqual([]);
  });

  it.each([
    ['after commit', () => afterCommit],
    ['before processing', () => beforeProcess],
  ])('a PATCH whose connection drops %s is re-sent once and shifts the others only once', async (_kind, emuOf) => {
    const emu = emuOf();
    const client = clientOf(emu);
    const ids: string[] = [];
    for (const n of ['A', 'B', 'C', 'D']) ids.push((await client.lessons.create({ section_id: 'sec_start', name: n })).id);
    script = [true];
    const moved = await client.lessons.update(ids[3]!, { position: 1, name: 'D moved' });
    expect(moved.position).toBe(1);
    expect(emu.stats().byRoute['PATCH /lessons/:id']).toBe(2);
    expect(await names(emu)).toEqual(['1:D moved', '2:A', '3:B', '4:C']);
  });
});

describe('one call, through apply (the built CLI)', () => {
  const repo = () =>
    writeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\n',
      'p/s/01-alpha.md': lesson('name: Alpha'),
    });
  const envOf = (emu: RunningEmulator) => ({ COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url });
  // Each apply starts with one GET /sections (one program): the faulted call is the next request.

  it('a lost create reply: uncertain, exactly one lesson; later applies never re-send it; import --key settles it', async () => {
    const dir = await repo();
    script = [false, true]; // apply first lists the program's sections (the check before any write)
    const first = await runCli(['apply', dir, '--yes'], envOf(afterCommit));
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/\? p\/s\/01-alpha\.md: create alpha in sec_start may or may not exist/);
    expect(await names(afterCommit)).toEqual(['1:Alpha']);
    // The summary must not claim nothing changed: the lesson exists.
    expect(first.stdout).not.toMatch(/nothing changed/);
    expect(first.stdout).toMatch(/^Apply failed: 0 of 1 calls made \(none confirmed; 1 create may have been made\); 0 failed, 1 uncertain, 0 not started\.$/m);
    expect(first.stdout).toMatch(/The school has the changes listed as made, may have the uncertain creates, and none of the others\.$/m);
    const state = JSON.parse(await readFile(join(dir, '.coursesync/state.json'), 'utf8'));
    expect(state.lessons.alpha).toMatchObject({ id: null, uncertain: { name: 'Alpha', section_id: 'sec_start' } });
    expect(state.pending).toEqual({});
    // Apply again, twice: refused with the way out, and no second POST.
    for (let i = 0; i < 2; i++) {
      const again = await runCli(['apply', dir, '--yes'], envOf(afterCommit));
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/unknown outcome and were not applied/);
    }
    expect(afterCommit.stats().byRoute['POST /lessons']).toBe(1);
    // The author finds the lesson and adopts it.
    const id = (await schoolSections(afterCommit)).get('sec_start')![0]!.id;
    const adopted = await runCli(['import', id, '--key', 'alpha', '--dir', dir], envOf(afterCommit));
    expect(adopted.stderr).toBe('');
    expect(adopted.code).toBe(0);
    const plan = await runCli(['plan', dir, '--detailed-exitcode'], envOf(afterCommit));
    expect(plan.stdout).toBe('No changes. 1 lesson unchanged.\n');
    expect(plan.code).toBe(0);
    expect(await names(afterCommit)).toEqual(['1:Alpha']);
  });

  it('a create dropped before processing: uncertain, no lesson; --recreate makes exactly one', async () => {
    const dir = await repo();
    script = [false, true]; // apply first lists the program's sections (the check before any write)
    const first = await runCli(['apply', dir, '--yes'], envOf(beforeProcess));
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/may or may not exist/);
    expect(await names(beforeProcess)).toEqual([]);
    const recreated = await runCli(['apply', dir, '--yes', '--recreate', 'alpha'], envOf(beforeProcess));
    expect(recreated.code).toBe(0);
    expect(await names(beforeProcess)).toEqual(['1:Alpha']);
    expect(beforeProcess.stats().byRoute['POST /lessons']).toBe(2);
    expect((await runCli(['plan', dir, '--detailed-exitcode'], envOf(beforeProcess))).code).toBe(0);
  });

  it('a move whose reply is lost is re-sent by apply and lands once: the order is right and the next plan is empty', async () => {
    const dir = await writeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\n',
      ...Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k, i) => [`p/s/0${i + 1}-${k}.md`, lesson(`name: ${k.toUpperCase()}`)])),
    });
    expect((await runCli(['apply', dir, '--yes'], envOf(afterCommit))).code).toBe(0);
    // e goes first: one PATCH with position 1, whose first answer is lost.
    await writeRepo({ 'p/s/section.yaml': 'id: sec_start\nlessons: [e, a, b, c, d]\n' }, dir);
    const patchesBefore = afterCommit.stats().byRoute['PATCH /lessons/:id'] ?? 0;
    script = [false, true]; // apply first lists the program's sections (the check before any write)
    const moved = await runCli(['apply', dir, '--yes'], envOf(afterCommit));
    expect(moved.stderr).toBe('');
    expect(moved.code).toBe(0);
    expect((afterCommit.stats().byRoute['PATCH /lessons/:id'] ?? 0) - patchesBefore).toBe(2);
    expect(await names(afterCommit)).toEqual(['1:E', '2:A', '3:B', '4:C', '5:D']);
    expect((await runCli(['plan', dir, '--detailed-exitcode', '--refresh'], envOf(afterCommit))).code).toBe(0);
  });

  it('a lost create reply inserted before tracked lessons: their shifted positions are read back into the state', async () => {
    const dir = await writeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\nlessons: [a, b]\n',
      'p/s/a.md': lesson('name: A'),
      'p/s/b.md': lesson('name: B'),
    });
    expect((await runCli(['apply', dir, '--yes'], envOf(afterCommit))).code).toBe(0);
    await writeRepo({ 'p/s/section.yaml': 'id: sec_start\nlessons: [x, a, b]\n', 'p/s/x.md': lesson('name: X') }, dir);
    script = [false, true]; // apply first lists the program's sections (the check before any write)
    expect((await runCli(['apply', dir, '--yes'], envOf(afterCommit))).code).toBe(1);
    expect(await names(afterCommit)).toEqual(['1:X', '2:A', '3:B']);
    const state = JSON.parse(await readFile(join(dir, '.coursesync/state.json'), 'utf8'));
    expect([state.lessons.a.position, state.lessons.b.position]).toEqual([2, 3]);
    expect(state.pending).toEqual({});
  });

  it('a create left pending by a killed apply: the next start reads its section back, so shifted positions are known', async () => {
    const dir = await writeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\nlessons: [a, b]\n',
      'p/s/a.md': lesson('name: A'),
      'p/s/b.md': lesson('name: B'),
    });
    expect((await runCli(['apply', dir, '--yes'], envOf(afterCommit))).code).toBe(0);
    await writeRepo({ 'p/s/section.yaml': 'id: sec_start\nlessons: [x, a, b]\n', 'p/s/x.md': lesson('name: X') }, dir);
    // What a kill right after sending the create leaves: its pending record, and the lesson made.
    const file = join(dir, '.coursesync/state.json');
    const state = JSON.parse(await readFile(file, 'utf8'));
    state.pending['create:x'] = { action: 'create', key: 'x', lesson_id: null, request: 'POST /lessons', fields: ['name', 'position', 'section_id'], started_at: '2026-11-22T00:00:00.000Z', name: 'X', section_id: 'sec_start' };
    await writeFile(file, JSON.stringify(state, null, 2));
    await clientOf(afterCommit).lessons.create({ section_id: 'sec_start', name: 'X', position: 1 });
    const next = await runCli(['apply', dir, '--yes'], envOf(afterCommit));
    expect(next.stderr).toMatch(/left 1 create\(s\) whose outcome is unknown: x/);
    const after = JSON.parse(await readFile(file, 'utf8'));
    expect([after.lessons.a.position, after.lessons.b.position]).toEqual([2, 3]);
  });
});
