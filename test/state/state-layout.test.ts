/**
 * State format 3 (state-layout.ts): each section's folder and program written once, lesson
 * paths and deps relative to them, fingerprints as 24 hex. A format-2 state.json, as the
 * previous release writes it, must read back with nothing lost and plan nothing.
 * test/fixtures/repos/state-v2-main: a 12-lesson course made by test/bench/generate-repo.ts
 * (seed 3, 2 programs, 4 sections, images and lesson links) with the state.json that the
 * format-2 code (d26bf64) wrote for it: every lesson applied, then its build recorded
 * (recordBuilds), as test/bench/fresh-plan.mjs sets up.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LESSON_FIELDS } from '../../src/school-api/school-rules.js';
import { readStateFile, statePath } from '../../src/state/state-file.js';
import { StateStore } from '../../src/state/state-store.js';
import { serializeState } from '../../src/state/serialize-state.js';
import { emptyState, STATE_VERSION, type LessonState, type StateData } from '../../src/model/state/schema.js';
import { buildPlan } from '../../src/sync/build-plan.js';
import { copyFixture, removeFixtureCopies } from '../cli/plan-helpers.js';
import { fieldsOf } from '../plan/build-course.js';
import { appliedOf } from '../../src/model/state/fingerprint.js';

afterAll(removeFixtureCopies);

const LINEAGE = '22222222-2222-4222-8222-222222222222';
const FIXTURE = 'state-v2-main';

/** What a format-2 entry says, as format 3 holds it in memory. */
function expectedFromV2(raw: Record<string, unknown>, topCompiler: string): LessonState {
  const { applied, response, ...rest } = raw as { applied: Record<string, unknown>; response?: string } & Record<string, unknown>;
  const full = { ...DEFAULT_LESSON_FIELDS, ...applied } as Record<string, unknown>;
  for (const f of ['body', 'description']) if (typeof full[f] === 'string' && full[f] !== '') full[f] = (full[f] as string).slice(0, 'sha256:'.length + 24);
  return { compiler: topCompiler, ...rest, response: response ?? '', applied: full } as unknown as LessonState;
}

async function plannedCalls(dir: string) {
  const built = await buildPlan(dir, { env: {} });
  return { summary: built.plan.summary, calls: built.plan.changes.filter((c) => 'action' in c && ['create', 'update', 'move', 'unpublish'].includes(String(c.action))) };
}

describe('state format 3', () => {
  it('reads the format-2 state.json the previous release wrote with nothing lost, and writes it as format 3 that reads back the same', async () => {
    const dir = await copyFixture(FIXTURE);
    const v2Text = await readFile(statePath(dir), 'utf8');
    const raw = JSON.parse(v2Text) as { version: number; compiler: string; serial: number; lineage: string; lessons: Record<string, Record<string, unknown>> };
    expect(raw.version).toBe(2);
    const { state } = await readStateFile(dir);
    expect(state.version).toBe(STATE_VERSION);
    expect([state.lineage, state.serial]).toEqual([raw.lineage, raw.serial]);
    expect(Object.keys(state.lessons).sort()).toEqual(Object.keys(raw.lessons).sort());
    for (const [key, entry] of Object.entries(raw.lessons)) expect(state.lessons[key], key).toEqual(expectedFromV2(entry, raw.compiler));

    const store = await StateStore.load(dir);
    await store.save();
    await store.close();
    const text = await readFile(statePath(dir), 'utf8');
    expect(JSON.parse(text).version).toBe(STATE_VERSION);
    expect(text).toContain('"lesson-11": {"applied":{"body":"927e0161ba6bd219267c3679","drip_delay":27,"lesson_type":"audio","name":"the async you 11"},"blob":"53fb0e81cd59f773043b0c7b67eb61cc2e8734ed","deps":["1-lesson-10.md","img/figure.png"],');
    expect(text).toContain('"sec_4": {"path":"02-program/02-section","program_id":"prog_2"}');
    // 12 lessons in 4 sections: the folders table costs more here than on a real course.
    expect(Buffer.byteLength(text)).toBeLessThan(0.85 * Buffer.byteLength(v2Text));
    expect((await readStateFile(dir)).state).toEqual({ ...state, serial: state.serial + 1 });
  });

  it('plans nothing for the unchanged course, before and after the format-3 write: no lesson created again, none updated', async () => {
    const dir = await copyFixture(FIXTURE);
    const before = await plannedCalls(dir);
    expect(before.calls).toEqual([]);
    expect(before.summary.unchanged).toBe(12);
    const store = await StateStore.load(dir);
    await store.save();
    await store.close();
    expect(JSON.parse(await readFile(statePath(dir), 'utf8')).version).toBe(STATE_VERSION);
    expect((await plannedCalls(dir)).calls).toEqual([]);
  });

  it('a format-2 state built by another compiler: every lesson is rendered and compared by fingerprint (32 hex against 24), still nothing to send', async () => {
    const dir = await copyFixture(FIXTURE);
    const text = await readFile(statePath(dir), 'utf8');
    await writeFile(statePath(dir), text.replace(/"compiler": "[0-9a-f]+"/, '"compiler": "000000000000"'));
    const { calls, summary } = await plannedCalls(dir);
    expect(calls).toEqual([]);
    expect(summary.unchanged).toBe(12);
  });

  it('writes a lesson outside its section folder, and deps outside the repo layout, from the root and reads them back', async () => {
    const state: StateData = emptyState(LINEAGE, 'http://127.0.0.1:4010/api/v1');
    const entry = (path: string, extra: Partial<LessonState> = {}): LessonState => ({ id: `les_${path}`, program_id: 'prog_a', section_id: 'sec_a', position: 1, path, applied: appliedOf(fieldsOf('x', { body: '<p>x</p>' })), response: '', ...extra });
    state.lessons.one = entry('a/s/one.md', { deps: ['a/s/img/one.png', 'a/t/two.md', 'shared/logo.svg'] });
    state.lessons.two = entry('a/s/two.md');
    state.lessons.odd = entry('a/s/deeper/odd.md', { program_id: 'prog_b', deps: ['a/s/one.md'] });
    state.lessons.root = entry('root.md', { section_id: 'sec_b', deps: ['a/s/img/one.png', 'two.md'] });
    const text = serializeState(state);
    expect(text).toContain('"sec_a": {"path":"a/s","program_id":"prog_a"}');
    expect(text).toContain('"deps":["img/one.png","../t/two.md","../../shared/logo.svg"]');
    expect(text).toContain('"deps":["../one.md"],"id":"les_a/s/deeper/odd.md","path":"/a/s/deeper/odd.md","position":1,"program_id":"prog_b"');
    expect(text).toContain('"sec_b": {"path":".","program_id":"prog_a"}');
    const dir = await copyFixture('empty');
    await mkdir(join(dir, '.coursesync'), { recursive: true });
    await writeFile(statePath(dir), text);
    expect((await readStateFile(dir)).state).toEqual(state);
  });

  it('refuses a hand-edited lesson whose program is in no folders entry, naming the file and the entry, file untouched', async () => {
    const state: StateData = emptyState(LINEAGE, 'http://127.0.0.1:4010/api/v1');
    state.lessons.one = { id: 'les_1', program_id: 'prog_a', section_id: 'sec_a', position: 1, path: 'a/s/one.md', applied: appliedOf(fieldsOf('one', { body: '<p>x</p>' })), response: '' };
    const text = serializeState(state).replace('"sec_a": {"path":"a/s","program_id":"prog_a"}', '"sec_b": {"path":"a/s","program_id":"prog_a"}');
    const dir = await copyFixture('empty');
    await mkdir(join(dir, '.coursesync'), { recursive: true });
    await writeFile(statePath(dir), text);
    await expect(readStateFile(dir)).rejects.toThrow(/state\.json is not a valid coursesync state: at lessons\.one\.program_id: no program_id, and no folders entry for its section/);
    expect(await readFile(statePath(dir), 'utf8')).toBe(text);
    // A `__proto__` section in the table would be dropped by the parse: refused instead.
    const proto = serializeState(state).replace('"folders": {', '"folders": {\n    "__proto__": {"path":"a/s","program_id":"prog_a"},');
    await writeFile(statePath(dir), proto);
    await expect(readStateFile(dir)).rejects.toThrow(/at folders\.__proto__: "__proto__" is not a lesson key/);
  });
});
