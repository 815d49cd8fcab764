import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordSuccess, recordUncertainCreate } from '../../src/apply/record-call.js';
import { appliedOf } from '../../src/model/state/fingerprint.js';
import { encodeRecord, journalPath, parseJournal } from '../../src/state/journal.js';
import type { LessonState, StateData } from '../../src/model/state/schema.js';
import { readStateFile, statePath } from '../../src/state/state-file.js';
import { StateStore } from '../../src/state/state-store.js';
import { lessonsInSection } from '../../src/state/track-changes.js';
import type { CallStep } from '../../src/plan/plan-schema.js';
import { fieldsOf } from '../plan/build-course.js';

const DIST = join(dirname(dirname(dirname(fileURLToPath(import.meta.url)))), 'dist');
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coursesync-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lesson = (key: string, position: number, section = 's1'): LessonState => ({
  id: `les_${key}`,
  program_id: 'p',
  section_id: section,
  position,
  path: `p/${section}/${key}.md`,
  applied: appliedOf(fieldsOf(key)),
  response: '',
});

/** A state.json with `n` lessons in s1, and no journal. */
async function seeded(n: number): Promise<StateStore> {
  const store = await StateStore.load(dir, { lock: true });
  await store.update((d) => {
    d.base_url = 'http://127.0.0.1:4010/api/v1';
    for (let i = 1; i <= n; i++) d.lessons[`l${i}`] = lesson(`l${i}`, i);
  });
  await store.close();
  return StateStore.load(dir, { lock: true });
}

const folder = () => readdir(join(dir, '.coursesync'));

describe('state journal', () => {
  it('a write appends only what changed (O(change), not O(state)); close folds it into state.json and removes it', async () => {
    const store = await seeded(2000);
    const before = (await readFile(statePath(dir))).length;
    await store.update((d) => {
      d.lessons.l5 = { ...d.lessons.l5!, path: 'p/s1/renamed.md' };
      delete d.lessons.l7;
      d.pending['update:l9'] = { action: 'update', key: 'l9', lesson_id: 'les_l9', request: 'PATCH /lessons/les_l9', fields: ['name'], started_at: '2026-11-24T00:00:00Z' };
    });
    // state.json is untouched; the journal holds a header and one small record.
    expect((await readFile(statePath(dir))).length).toBe(before);
    const text = await readFile(journalPath(dir), 'utf8');
    expect(text.length).toBeLessThan(2000);
    const parsed = parseJournal(text, journalPath(dir))!;
    expect(parsed.records).toHaveLength(1);
    expect(Object.keys(parsed.records[0]!.lessons!).sort()).toEqual(['l5', 'l7']);
    expect(parsed.records[0]!.lessons!.l7).toBeNull();
    // A reader without the lock sees the journal replayed.
    const read = await readStateFile(dir);
    expect(read.state.lessons.l5!.path).toBe('p/s1/renamed.md');
    expect(read.state.lessons.l7).toBeUndefined();
    expect(read.state.serial).toBe(store.data.serial);
    await store.close();
    expect(await folder()).toEqual(['state.json']);
    const after = await readStateFile(dir);
    expect(after.state).toEqual(store.data);
    expect(after.journaled).toBe(false);
  });

  it('a kill between a journal append and compaction loses nothing: readers replay it, the next load compacts it', async () => {
    await (await seeded(3)).close();
    // A process that writes two records and is SIGKILLed before it closes its store.
    const script = `
      import { StateStore } from ${JSON.stringify(join(DIST, 'state/state-store.js'))};
      const store = await StateStore.load(${JSON.stringify(dir)}, { lock: true });
      await store.update((d) => { d.lessons.l2 = { ...d.lessons.l2, position: 9 }; });
      await store.update((d) => { d.pending['create:x'] = { action: 'create', key: 'x', lesson_id: null, request: 'POST /lessons', fields: ['name'], started_at: '2026-11-24T00:00:00Z', name: 'X', section_id: 's1' }; });
      process.kill(process.pid, 'SIGKILL');`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.signal).toBe('SIGKILL');
    expect(await folder()).toEqual(expect.arrayContaining(['state.journal', 'state.lock', 'state.json']));
    const read = await readStateFile(dir);
    expect(read.state.serial).toBe(3);
    expect(read.state.lessons.l2!.position).toBe(9);
    expect(read.state.pending['create:x']).toMatchObject({ name: 'X' });
    // The next locked load (the stale lock of the dead pid is taken over) compacts.
    const warnings: string[] = [];
    const store = await StateStore.load(dir, { lock: true, warn: (m) => warnings.push(m) });
    expect(store.data).toEqual(read.state);
    expect((await folder()).sort()).toEqual(['state.json', 'state.lock']);
    expect(JSON.parse(await readFile(statePath(dir), 'utf8')).serial).toBe(3);
    expect(warnings.join('\n')).toMatch(/taking over the state lock/);
    await store.close();
  });

  it('a torn last record (a kill mid-append, no newline) is dropped and reported; a damaged whole line, last or not, is refused naming the file, both files left as they are', async () => {
    const store = await seeded(3);
    await store.update((d) => {
      d.lessons.l1 = { ...d.lessons.l1!, position: 5 };
    });
    await store.update((d) => {
      d.lessons.l3 = { ...d.lessons.l3!, position: 6 };
    });
    // The store is abandoned here (as by a kill): the journal stays.
    const good = await readFile(journalPath(dir), 'utf8');
    const torn = good + encodeRecord({ serial: 4, lessons: { l2: null } }).slice(0, 30);
    await writeFile(journalPath(dir), torn);
    const read = await readStateFile(dir);
    expect(read.state.serial).toBe(3);
    expect([read.state.lessons.l1!.position, read.state.lessons.l2!.position, read.state.lessons.l3!.position]).toEqual([5, 2, 6]);
    // A complete last line (it ends in its newline) whose checksum fails was written whole and
    // damaged since: corruption, never dropped (it may hold a create fsynced before its request).
    const lines = good.split('\n');
    const flipped = lines[2]!.replace('"position":6', '"position":7');
    await writeFile(journalPath(dir), [lines[0], lines[1], flipped, ''].join('\n'));
    await expect(readStateFile(dir)).rejects.toThrow(`the state journal ${journalPath(dir)} is damaged at record 3: it ends in a newline, so it was written whole`);
    // The same damage before the last record is corruption.
    const damaged = [lines[0], lines[1]!.replace('"position":5', '"position":8'), lines[2], ''].join('\n');
    await writeFile(journalPath(dir), damaged);
    const stateText = await readFile(statePath(dir), 'utf8');
    await expect(readStateFile(dir)).rejects.toThrow(`the state journal ${journalPath(dir)} is damaged at record 2`);
    await expect(StateStore.load(dir)).rejects.toThrow(journalPath(dir));
    expect(await readFile(journalPath(dir), 'utf8')).toBe(damaged);
    expect(await readFile(statePath(dir), 'utf8')).toBe(stateText);
    // The torn one compacts at the next locked load (the abandoned store's lock taken over):
    // the state is the acknowledged prefix. A load without the lock only reads.
    await writeFile(journalPath(dir), torn);
    expect((await StateStore.load(dir)).data.serial).toBe(3);
    expect(await readFile(journalPath(dir), 'utf8')).toBe(torn);
    const warnings: string[] = [];
    const reloaded = await StateStore.load(dir, { lock: true, force: true, warn: (m) => warnings.push(m) });
    expect(reloaded.data.serial).toBe(3);
    expect(warnings).toContain('the state journal ended in 30 bytes of a record a killed process never finished writing (no newline): dropped (that write was never acknowledged, so it held no call that was sent)');
    expect(await folder()).not.toContain('state.journal');
    await reloaded.close();
  });

  it('a "__proto__" entry in a journal record is refused naming the record, never dropped; state.json is left as it is', async () => {
    const store = await seeded(2);
    await store.update((d) => {
      d.lessons.l1 = { ...d.lessons.l1!, position: 5 };
    });
    const text = await readFile(journalPath(dir), 'utf8');
    const stateText = await readFile(statePath(dir), 'utf8');
    // As JSON.parse makes it: an own "__proto__" key, which replaying would drop (or make a prototype).
    const record = JSON.parse(`{"serial":${store.data.serial + 1},"lessons":{"__proto__":${JSON.stringify(lesson('l9', 9))}}}`) as { serial: number };
    await writeFile(journalPath(dir), text + encodeRecord(record));
    await expect(readStateFile(dir)).rejects.toThrow(`the state journal ${journalPath(dir)} is damaged at record 3: it holds a "lessons.__proto__" entry, which coursesync never writes`);
    await expect(StateStore.load(dir, { lock: true, force: true })).rejects.toThrow('lessons.__proto__');
    expect(await readFile(statePath(dir), 'utf8')).toBe(stateText);
  });

  it('a journal close() cannot fold into state.json is kept and reported in foldError (apply fails on it)', async () => {
    const store = await seeded(2);
    await store.update((d) => {
      d.lessons.l1 = { ...d.lessons.l1!, position: 5 };
    });
    // state.json replaced by a folder while the run goes on: the fold cannot read or replace it.
    await rm(statePath(dir));
    await mkdir(statePath(dir));
    await store.close();
    expect(store.foldError?.message).toContain('state.json');
    expect(await folder()).toContain('state.journal');
  });

  it('a journal of another lineage, or of another serial, is refused with an error naming the journal; nothing is written', async () => {
    const store = await seeded(2);
    await store.update((d) => {
      d.lessons.l1 = { ...d.lessons.l1!, position: 3 };
    });
    const journal = await readFile(journalPath(dir), 'utf8');
    const lineage = store.data.lineage;
    const other = journal.split('\n');
    const foreign = encodeRecord({ journal: 1, lineage: '22222222-2222-4222-8222-222222222222', base: 1 });
    await writeFile(journalPath(dir), foreign + other.slice(1).join('\n'));
    // (Loaded without the lock: the abandoned store above still holds it.)
    await expect(StateStore.load(dir)).rejects.toThrow(
      `the state journal ${journalPath(dir)} does not continue the state file: it belongs to the state of lineage 22222222-2222-4222-8222-222222222222, and ${statePath(dir)} has lineage ${lineage}`,
    );
    await expect(readStateFile(dir)).rejects.toThrow(journalPath(dir));
    // Same lineage, but it continues serial 7 while state.json has serial 1.
    const later = encodeRecord({ journal: 1, lineage, base: 7 }) + encodeRecord({ serial: 8, lessons: { l2: null } });
    await writeFile(journalPath(dir), later);
    await expect(StateStore.load(dir)).rejects.toThrow(/does not continue the state file: it continues serial 7 \(up to 8\).* has serial 1/);
    expect(await readFile(journalPath(dir), 'utf8')).toBe(later);
    expect(JSON.parse(await readFile(statePath(dir), 'utf8')).serial).toBe(1);
  });

  it('a journal state.json already holds (a kill between compaction and removing it) is dropped at the next load', async () => {
    const store = await seeded(2);
    await store.update((d) => {
      d.lessons.l2 = { ...d.lessons.l2!, position: 4 };
    });
    const journal = await readFile(journalPath(dir), 'utf8');
    await store.close();
    await writeFile(journalPath(dir), journal);
    expect((await readStateFile(dir)).state.lessons.l2!.position).toBe(4);
    const again = await StateStore.load(dir, { lock: true });
    expect(again.data.serial).toBe(2);
    expect((await folder()).sort()).toEqual(['state.json', 'state.lock']);
    await again.close();
  });

  it("every writer's change is journaled: state.json after close (replayed from the files) equals memory", async () => {
    const store = await seeded(6);
    const step = (key: string, action: 'create' | 'move', position: number | null, section = 's1'): CallStep =>
      ({ action, key, state_key: key, call_id: `${action}:${key}`, lesson_id: action === 'create' ? null : `les_${key}`, program_id: 'p', section_id: section, position, path: `p/${section}/${key}.md`, request: { name: key }, fields: [{ field: 'name', before: null, after: key }] }) as unknown as CallStep;
    const answer = (key: string, section: string, position: number) => ({ ...fieldsOf(key), id: `les_${key}`, section_id: section, position }) as never;
    await store.update((d) => recordSuccess(d, step('n1', 'create', 1), answer('n1', 's1', 1))); // shifts l1..l6
    await store.update((d) => recordSuccess(d, step('l3', 'move', 1, 's2'), answer('l3', 's2', 1))); // leaves a gap in s1
    await store.update((d) => recordSuccess(d, step('n2', 'create', 2, 's2'), answer('n2', 's2', 2)));
    await store.update((d) => recordUncertainCreate(d, step('n3', 'create', null), '2026-11-24T00:00:00Z'));
    // The index answers as a scan of the state does, after every kind of change.
    const scan = (state: StateData, section: string) =>
      Object.entries(state.lessons).filter(([, l]) => l.id !== null && l.section_id === section).map(([k]) => k).sort();
    for (const section of ['s1', 's2']) expect(lessonsInSection(store.data, section).map(([k]) => k).sort()).toEqual(scan(structuredClone(store.data), section));
    const memory = structuredClone(store.data);
    await store.close();
    expect((await readStateFile(dir)).state).toEqual(memory);
    expect(memory.lessons.l1!.position).toBe(2);
    expect(memory.lessons.l3).toMatchObject({ section_id: 's2', position: 1 });
  });

  it('a change made to an entry taken from `data` rather than the draft is not kept (the draft is the only way to write)', async () => {
    const store = await seeded(2);
    const entry = store.data.lessons.l1 as LessonState;
    await store.update(() => {
      entry.path = 'edited/outside/the/draft.md';
    });
    await store.close();
    expect((await readStateFile(dir)).state.lessons.l1!.path).toBe('p/s1/l1.md');
  });
});
