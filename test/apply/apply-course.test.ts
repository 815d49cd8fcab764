/**
 * applyCourse (what `coursesync apply --yes` runs) against the emulator, in-process, on course
 * repos written to temp folders: every field edited, a reorder, moves between sections and
 * between programs, a rename through `aliases`, and a removed lesson under each
 * `removed_lessons` policy. Each converges in one apply with one request per planned call, and
 * the next plan has no changes.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyCourse, type ApplyCourseResult } from '../../src/apply/apply-course.js';
import { buildPlan } from '../../src/sync/build-plan.js';
import { readStateFile } from '../../src/state/state-file.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { hasChanges } from '../../src/plan/describe-change.js';
import { lesson, writeRepo } from '../e2e/helpers.js';
import { ALPHA_2, BASE_REPO as base } from './course-files.js';
import { lessonCalls, type SchoolLesson, schoolSections, useTestSchool } from './helpers.js';

/** Requests about lessons: all but the section listings apply makes to check section ids first. */

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

function expectDone(r: ApplyCourseResult) {
  expect(r.result?.outcomes.filter((o) => o.status !== 'done').map((o) => o.step.call_id)).toEqual([]);
  expect(r.result?.mismatches).toEqual([]);
  expect(r.pendingLeft).toBe(0);
}

async function expectNoChanges(dir: string) {
  const built = await buildPlan(dir, { env });
  expect(hasChanges(built.plan)).toBe(false);
  return built;
}

async function namesIn(sectionId: string): Promise<string[]> {
  return ((await schoolSections(emu)).get(sectionId) ?? []).map((l) => l.name);
}

async function stateText(dir: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(join(dir, '.coursesync/state.json'), 'utf8');
}

describe('applyCourse: edits, moves, renames, removals', () => {
  it('every field, a reorder, moves between sections and programs, a rename through aliases: one apply, then no changes', async () => {
    const dir = await writeRepo(base);
    expectDone(await applyCourse(dir, { env }));
    const ids = new Map([...(await schoolSections(emu)).values()].flat().map((l) => [l.name, l.id]));
    await writeRepo(
      {
        'intro/a/section.yaml': 'id: sec_start\nlessons: [delta, alpha, epsilon, beta, gamma]\n',
        'intro/a/1-alpha.md': ALPHA_2,
        'intro/a/2-beta.md': lesson('name: Beta\nlesson_type: pdf'),
        'intro/a/3-gamma.md': lesson('name: Gamma\nlesson_type: embed\nembed_code: <div>two</div>'),
        'intro/a/5-epsilon.md': lesson('name: Epsilon\nlesson_type: text'),
        'adv/g/0-zeta.md': lesson('name: Zeta\nlesson_type: text'),
        'adv/g/2-eta-renamed.md': lesson('name: Eta\nlesson_type: text\nkey: eta2\naliases: [eta]'),
      },
      dir,
    );
    await rm(join(dir, 'intro/b/1-epsilon.md'));
    await rm(join(dir, 'intro/b/2-zeta.md'));
    await rm(join(dir, 'adv/g/1-eta.md'));
    const before = lessonCalls(emu);
    const applied = await applyCourse(dir, { env });
    expectDone(applied);
    expect(applied.plan.renames).toEqual([{ from: 'eta', to: 'eta2' }]);
    // epsilon and zeta move (zeta to another program), alpha/beta/gamma change fields; delta's
    // reorder is a move; eta's rename sends nothing.
    expect(applied.result!.outcomes.map((o) => o.step.call_id).sort()).toEqual(['move:delta', 'move:epsilon', 'move:zeta', 'update:alpha', 'update:beta', 'update:gamma']);
    expect(lessonCalls(emu) - before).toBe(applied.result!.outcomes.length);

    const school = await schoolSections(emu);
    const byName = (section: string) => new Map(school.get(section)!.map((l) => [l.name, l] as [string, SchoolLesson & Record<string, unknown>]));
    expect(await namesIn('sec_start')).toEqual(['Delta', 'Alpha renamed', 'Epsilon', 'Beta', 'Gamma']);
    expect(await namesIn('sec_types')).toEqual([]);
    expect(await namesIn('sec_generics')).toEqual(['Zeta', 'Eta']);
    const alpha = byName('sec_start').get('Alpha renamed')!;
    expect(alpha).toMatchObject({
      id: ids.get('Alpha'),
      lesson_type: 'video',
      drip_delay: 5,
      is_published: false,
      is_progression_locked: true,
      settings_embed_host_c: null,
      settings_embed_code: '<div class="player">v2</div>',
    });
    expect(alpha.description).toContain('<strong>description</strong>');
    expect(alpha.body).toContain('<blockquote>');
    expect(byName('sec_start').get('Beta')).toMatchObject({ lesson_type: 'pdf' });
    expect(byName('sec_start').get('Gamma')).toMatchObject({ embed_code: '<div>two</div>' });
    // Moves and the rename keep the remote lessons.
    expect(byName('sec_start').get('Epsilon')!.id).toBe(ids.get('Epsilon'));
    expect(byName('sec_generics').get('Zeta')!.id).toBe(ids.get('Zeta'));
    expect(byName('sec_generics').get('Eta')!.id).toBe(ids.get('Eta'));
    const { state } = await readStateFile(dir);
    expect(Object.keys(state.lessons).sort()).toEqual(['alpha', 'beta', 'delta', 'epsilon', 'eta2', 'gamma', 'zeta']);
    expect(state.lessons.zeta).toMatchObject({ program_id: 'prog_advanced', section_id: 'sec_generics', position: 1 });

    await expectNoChanges(dir);
  });

  it.each([
    ['keep', 'removed_lessons: keep\n', { section: 'sec_start', published: true, calls: 0 }],
    ['unpublish', 'removed_lessons: unpublish\nacknowledge: [{rule: unpublished, lesson: beta}]\n', { section: 'sec_start', published: false, calls: 1 }],
    ['unpublish + archive', 'removed_lessons: unpublish\narchive: sec_archive\nacknowledge: [{rule: archived, lesson: beta}]\n', { section: 'sec_archive', published: false, calls: 1 }],
  ])('a removed lesson under removed_lessons: %s', async (_name, config, want) => {
    const dir = await writeRepo({ ...base, 'coursesync.yaml': config });
    expectDone(await applyCourse(dir, { env }));
    await rm(join(dir, 'intro/a/2-beta.md'));
    const before = lessonCalls(emu);
    const applied = await applyCourse(dir, { env });
    expect(applied.result?.outcomes.every((o) => o.status === 'done') ?? true).toBe(true);
    expect(lessonCalls(emu) - before).toBe(want.calls);
    const school = await schoolSections(emu);
    const beta = [...school.values()].flat().find((l) => l.name === 'Beta')!;
    expect({ section: beta.section_id, published: beta.is_published }).toEqual({ section: want.section, published: want.published });
    const remaining = (await namesIn('sec_start')).filter((n) => n !== 'Beta');
    expect(remaining).toEqual(['Alpha', 'Gamma', 'Delta']);
    const { plan } = await expectNoChanges(dir);
    expect(plan.summary.orphan).toBe(want.calls === 0 ? 1 : 0);
  });
});

describe('applyCourse: nothing to do', () => {
  it('with no changes: no call, no state write, and the lock is released', async () => {
    const dir = await writeRepo(base);
    expectDone(await applyCourse(dir, { env }));
    const before = { requests: lessonCalls(emu), state: await stateText(dir) };
    const again = await applyCourse(dir, { env, confirm: async () => expect.unreachable('nothing to confirm') });
    expect(again.result).toBeNull();
    expect(again.plan.summary).toMatchObject({ create: 0, update: 0, move: 0, unpublish: 0, unchanged: 7 });
    expect({ requests: lessonCalls(emu), state: await stateText(dir) }).toEqual(before);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dir, '.coursesync/state.lock'))).toBe(false);
  });
});

describe('applyCourse: a saved plan is checked against the plan built now', () => {
  it('one made for an environment is refused in a repo without environments before any request; a current one is applied; one of an older repo is refused', async () => {
    const dir = await writeRepo(base);
    const file = join(dir, 'plan.json');
    const saved = (await buildPlan(dir, { env })).plan;
    const requests = emu.stats().requests;
    await expect(applyCourse(dir, { env, savedPlan: { plan: { ...saved, environment: 'staging' }, file } })).rejects.toMatchObject({
      code: 'apply/stale-plan',
      message: expect.stringContaining('it was made for the environment staging, not a repo without environments'),
    });
    expect(emu.stats().requests).toBe(requests);

    expectDone(await applyCourse(dir, { env, savedPlan: { plan: saved, file } }));
    const older = (await buildPlan(dir, { env })).plan;
    await writeRepo({ 'intro/a/2-beta.md': lesson('name: Beta renamed\nlesson_type: text') }, dir);
    const before = lessonCalls(emu);
    await expect(applyCourse(dir, { env, savedPlan: { plan: older, file } })).rejects.toMatchObject({ code: 'apply/stale-plan', message: expect.stringContaining('the repo changed since the plan was made') });
    expect(lessonCalls(emu)).toBe(before);
  });
});
