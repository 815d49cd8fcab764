import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyState, STATE_VERSION } from '../../src/model/state/schema.js';
import { readStateFile, statePath } from '../../src/state/state-file.js';
import { StateStore } from '../../src/state/state-store.js';
import { checkBaseUrl } from '../../src/state/check-environment.js';
import { serializeState } from '../../src/state/serialize-state.js';
import { changedResponseFields, responseRecord } from '../../src/model/state/hash-response.js';
import { appliedOf } from '../../src/model/state/fingerprint.js';
import { fieldsOf } from '../plan/build-course.js';

const LINEAGE = '11111111-1111-4111-8111-111111111111';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coursesync-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeState(text: string): Promise<void> {
  await mkdir(join(dir, '.coursesync'), { recursive: true });
  await writeFile(statePath(dir), text);
}

describe('state file', () => {
  it('a missing file is an empty state with a fresh lineage', async () => {
    const { state, exists } = await readStateFile(dir);
    expect(exists).toBe(false);
    expect(state).toMatchObject({ version: STATE_VERSION, serial: 0, base_url: null, lessons: {}, sections: {}, pending: {} });
    expect(state.lineage).toMatch(/^[0-9a-f-]{36}$/);
  });

  const good = serializeState(emptyState(LINEAGE, 'http://127.0.0.1:4010/api/v1'));
  it.each([
    ['truncated', good.slice(0, good.length / 2), /not valid JSON.*truncated or corrupted/],
    ['corrupted', good.replace('"lessons": {}', '"lessons": []'), /not a valid coursesync state: at lessons/],
    ['newer version', good.replace(`"version": ${STATE_VERSION}`, '"version": 9'), /format version 9, newer than this coursesync understands/],
    ['not an object', 'null', /not a valid coursesync state/],
  ])('%s: clear error naming the file, file untouched', async (_name, text, message) => {
    await writeState(text);
    await expect(StateStore.load(dir)).rejects.toThrow(message);
    await expect(StateStore.load(dir)).rejects.toThrow(statePath(dir));
    expect(await readFile(statePath(dir), 'utf8')).toBe(text);
  });

  it('update bumps serial, writes sorted keys with a trailing newline, and leaves no temp file', async () => {
    const store = await StateStore.load(dir);
    const lineage = store.data.lineage;
    await store.update((s) => {
      s.base_url = 'http://127.0.0.1:4010/api/v1';
      s.lessons.zeta = { id: 'l1', program_id: 'p', section_id: 's', position: 1, path: 'p/s/zeta.md', applied: appliedOf(fieldsOf('zeta')), response: '' };
    });
    await store.update((s) => {
      s.pending['create:alpha'] = { action: 'create', key: 'alpha', lesson_id: null, request: 'POST /lessons', fields: ['name'], started_at: '2026-01-01T00:00:00Z' };
    });
    await store.close();
    const text = await readFile(statePath(dir), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(text);
    expect(parsed.serial).toBe(2);
    expect(parsed.lineage).toBe(lineage);
    expect(Object.keys(parsed)).toEqual([...Object.keys(parsed)].sort());
    expect(Object.keys(parsed.lessons.zeta.applied)).toEqual([...Object.keys(parsed.lessons.zeta.applied)].sort());
    // The fingerprint's 24 hex digits (96 bits), its prefix left out on disk.
    expect(parsed.lessons.zeta.applied.body).toMatch(/^[0-9a-f]{24}$/);
    expect(store.data.lessons.zeta!.applied.body).toBe(`sha256:${parsed.lessons.zeta.applied.body}`);
    expect(await readdir(join(dir, '.coursesync'))).toEqual(['state.json']);
    const again = await StateStore.load(dir);
    expect(again.data).toEqual(store.data);
  });

  it('write-ahead: beginCall records the pending call, endCall records the result and clears it in one write', async () => {
    const store = await StateStore.load(dir);
    await store.beginCall('update:a', { action: 'update', key: 'a', lesson_id: 'l1', request: 'PATCH /lessons/l1', fields: ['name'], started_at: 'now' });
    expect((await readStateFile(dir)).state.pending['update:a']).toBeDefined();
    await store.endCall('update:a', (s) => {
      s.base_url = 'x';
    });
    const { state } = await readStateFile(dir);
    expect(state.pending).toEqual({});
    expect(state.serial).toBe(2);
  });

  it('concurrent updates are grouped into ordered writes and none is lost', async () => {
    const store = await StateStore.load(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.update((s) => {
          s.lessons[`k${i}`] = { id: `l${i}`, program_id: 'p', section_id: 's', position: i + 1, path: `k${i}.md`, applied: appliedOf(fieldsOf(`k${i}`)), response: '' };
        }),
      ),
    );
    const { state } = await readStateFile(dir);
    expect(Object.keys(state.lessons)).toHaveLength(20);
    expect(state.serial).toBeGreaterThanOrEqual(2);
    expect(state.serial).toBeLessThan(20);
    expect(state).toEqual(store.data);
  });

  it('compaction writes exactly serializeState of the state in memory, and in-place edits of written objects are refused', async () => {
    const store = await StateStore.load(dir);
    await store.update((s) => {
      s.lessons.a = { id: 'l1', program_id: 'p', section_id: 's', position: 1, path: 'a.md', applied: appliedOf(fieldsOf('a')), response: 'embed_code=abcdef' };
      s.lessons.b = { id: 'l2', program_id: 'p', section_id: 's', position: 2, path: 'b.md', applied: appliedOf(fieldsOf('b')), response: '' };
    });
    await store.update((s) => {
      s.lessons.a!.position = 3;
      s.lessons.b!.applied = appliedOf(fieldsOf('b', { name: 'Bee' }));
      s.lessons.c = { id: 'l3', program_id: 'p', section_id: 's', position: 1, path: 'c.md', applied: appliedOf(fieldsOf('c')), response: '' };
    });
    await store.close();
    expect(await readFile(statePath(dir), 'utf8')).toBe(serializeState(store.data));
    expect(() => {
      (store.data.lessons.a!.applied as { name: string }).name = 'edited in place';
    }).toThrow(TypeError);
  });

  it('a state belongs to one school', () => {
    const state = emptyState(LINEAGE, 'http://127.0.0.1:4010/api/v1');
    expect(() => checkBaseUrl(state, 'http://127.0.0.1:4010/api/v1/', 'state.json')).not.toThrow();
    expect(() => checkBaseUrl(state, 'https://other.example.com/api/v1', 'state.json')).toThrow(/belongs to http:\/\/127.0.0.1:4010\/api\/v1/);
    expect(() => checkBaseUrl(emptyState(LINEAGE), 'https://any.example.com/api/v1', 'state.json')).not.toThrow();
  });

  it('the response record holds only what the school answered differently from what was applied, per field', () => {
    const applied = appliedOf(fieldsOf('a'));
    const answer = { ...fieldsOf('a'), section_id: 's', position: 1, settings_embed_host_a: 'vid123' };
    const record = responseRecord(answer, { ...applied, settings_embed_host_a: 'https://host-a.example/watch?v=vid123' });
    expect(record).toMatch(/^settings_embed_host_a=[0-9a-f]{6}$/);
    expect(responseRecord(answer, { ...applied, settings_embed_host_a: 'vid123' })).toBe('');
    const appliedUrl = { ...applied, settings_embed_host_a: 'https://host-a.example/watch?v=vid123' };
    expect(changedResponseFields(record, appliedUrl, answer)).toEqual([]);
    expect(changedResponseFields(record, appliedUrl, { ...answer, name: 'changed in the school' })).toEqual(['name']);
    expect(changedResponseFields(record, appliedUrl, { ...answer, body: '<p>edited in the school</p>' })).toEqual(['body']);
    expect(changedResponseFields(record, appliedUrl, { ...answer, settings_embed_host_a: 'other' })).toEqual(['settings_embed_host_a']);
  });
});
