import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readStateFile, statePath } from '../../src/state/state-file.js';
import { StateStore } from '../../src/state/state-store.js';
import { serializeState } from '../../src/state/serialize-state.js';
import { emptyState, STATE_VERSION, type LessonState } from '../../src/model/state/schema.js';
import { responseRecord, RESPONSE_FIELDS } from '../../src/model/state/hash-response.js';
import { appliedOf, fingerprintOf, FingerprintInRequestError } from '../../src/model/state/fingerprint.js';
import { createRequest, diffFields, updateRequest } from '../../src/plan/diff-fields.js';
import { createHash } from 'node:crypto';
import { fieldsOf } from '../plan/build-course.js';
import { useEmulator } from '../school/emulator-fixture.js';

const LINEAGE = '11111111-1111-4111-8111-111111111111';
const BODY = '<h2 id="loops">Loops</h2>\n<p>A <code>for</code> loop:</p>\n<pre><code class="language-js">for (const x of xs) console.log(x);\n</code></pre>\n<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>\n';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coursesync-state-v2-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hex = (s: string, n: number) => createHash('sha256').update(s).digest('hex').slice(0, n);

const lessonFile = (i: number) => `${String((i % 100) + 1).padStart(3, '0')}-lesson-${String(i).padStart(5, '0')}.md`;

/**
 * A lesson entry as apply leaves it for a typical lesson of a generated 10k-lesson repo: an
 * image of its section's folder and a link to the previous lesson, a description on a third.
 */
function typicalEntry(i: number): LessonState {
  const key = `lesson-${String(i).padStart(5, '0')}`;
  const section = Math.floor(i / 100);
  const folder = `course/section-${String(section).padStart(3, '0')}`;
  const description = i % 3 === 0 ? `<p>Lesson ${i} in <em>brief</em></p>` : '';
  const fields = fieldsOf(key, { name: `Lesson ${i}: loops, lists and tables`, body: `${BODY}<p>${i}</p>`, description });
  // Each dep with 4 hex of its digest, as apply records it (compile/lesson-digest.ts depRecord).
  const previous = i % 100 === 0 ? [] : [`${folder}/${lessonFile(i - 1)}@${hex(`prev${i}`, 4)}`];
  return {
    id: `les_${100000 + i}`,
    program_id: 'prog_intro',
    section_id: `sec_${String(section).padStart(3, '0')}`,
    position: (i % 100) + 1,
    path: `${folder}/${lessonFile(i)}`,
    applied: appliedOf(fields),
    response: responseRecord(fields, appliedOf(fields)),
    blob: hex(`blob${i}`, 40),
    digest: hex(`digest${i}`, 32),
    compiler: hex('compiler', 12),
    deps: [...previous, `${folder}/img/loops.png@${hex('loops', 4)}`],
  };
}

describe('compact state format', () => {
  it('reads a version-1 file, migrating bodies to fingerprints and response hashes to one packed string, and writes the current version', async () => {
    const fields = fieldsOf('loops', { body: BODY, description: '<p>Short <em>intro</em></p>' });
    const v1Response = Object.fromEntries(
      [...RESPONSE_FIELDS, 'section_id', 'position'].map((f) => [f, createHash('sha256').update(JSON.stringify((fields as Record<string, unknown>)[f] ?? null)).digest('hex').slice(0, 16)]),
    );
    const v1 = {
      version: 1,
      lineage: LINEAGE,
      serial: 7,
      base_url: 'http://127.0.0.1:4010/api/v1',
      lessons: { loops: { id: 'les_1', program_id: 'prog_intro', section_id: 'sec_start', position: 1, path: 'intro/start/loops.md', applied: fields, response: v1Response } },
      sections: {},
      pending: {},
    };
    await mkdir(join(dir, '.coursesync'), { recursive: true });
    await writeFile(statePath(dir), JSON.stringify(v1, null, 2));
    const { state } = await readStateFile(dir);
    expect(state.version).toBe(STATE_VERSION);
    const entry = state.lessons.loops!;
    expect(entry.applied.body).toBe(fingerprintOf(BODY));
    expect(entry.applied.body).toMatch(/^sha256:[0-9a-f]{24}$/);
    expect(entry.applied.description).toBe(fingerprintOf('<p>Short <em>intro</em></p>'));
    // The school answered what was sent: nothing to record, and no drift is invented.
    expect(entry.response).toBe('');
    expect(entry.digest).toBeUndefined();
    expect(diffFields(entry.applied, fields)).toEqual([]);

    const store = await StateStore.load(dir);
    await store.save();
    await store.close(); // folds the journal into state.json
    const text = await readFile(statePath(dir), 'utf8');
    expect(JSON.parse(text).version).toBe(STATE_VERSION);
    expect(text).not.toContain('<h2');
    expect((await readStateFile(dir)).state.lessons.loops).toEqual(entry);
  });

  it('keeps a typical lesson (an image, a lesson link, a description on a third) under 400 bytes, one line per lesson, and a one-lesson change is a one-line diff', () => {
    const state = emptyState(LINEAGE, 'http://127.0.0.1:4010/api/v1');
    for (let i = 0; i < 10_000; i++) state.lessons[`lesson-${String(i).padStart(5, '0')}`] = typicalEntry(i);
    const before = serializeState(state);
    const perLesson = Buffer.byteLength(before) / 10_000;
    expect(perLesson).toBeLessThanOrEqual(400);
    // Folder and program once per section; the lesson's own path and deps relative to it.
    expect(before).toContain(`"folders": {\n    "sec_000": {"path":"course/section-000","program_id":"prog_intro"},`);
    expect(before).toMatch(/"deps":\["001-lesson-00000\.md@[0-9a-f]{4}","img\/loops\.png@[0-9a-f]{4}"\],/);
    expect(before).toContain(`"path":"002-lesson-00001.md",`);
    const changed = { ...state, serial: state.serial + 1, lessons: { ...state.lessons } };
    const e = changed.lessons['lesson-04242']!;
    changed.lessons['lesson-04242'] = { ...e, applied: appliedOf({ ...fieldsOf('x'), name: e.applied.name, body: '<p>edited</p>' }), digest: hex('new', 32) };
    const after = serializeState(changed);
    const a = before.split('\n');
    const b = after.split('\n');
    expect(b.length).toBe(a.length);
    const differing = a.map((line, i) => (line === b[i] ? null : i)).filter((i) => i !== null);
    expect(differing).toHaveLength(2); // the lesson's line and `serial`
    expect(a[differing[0]!]).toContain('"lesson-04242"');
    expect(a[differing[1]!]).toContain('"serial"');
  });

  it('writes the compiler most lessons share once; a lesson built by another keeps its own; read back whole', async () => {
    const state = emptyState(LINEAGE, 'http://127.0.0.1:4010/api/v1');
    for (let i = 0; i < 3; i++) state.lessons[`lesson-0000${i}`] = typicalEntry(i);
    state.lessons['lesson-00002'] = { ...state.lessons['lesson-00002']!, compiler: 'aaaaaaaaaaaa' };
    await mkdir(join(dir, '.coursesync'), { recursive: true });
    const text = serializeState(state);
    await writeFile(statePath(dir), text);
    const parsed = JSON.parse(text);
    expect(parsed.compiler).toBe(hex('compiler', 12));
    expect(parsed.lessons['lesson-00000'].compiler).toBeUndefined();
    expect(parsed.lessons['lesson-00002'].compiler).toBe('aaaaaaaaaaaa');
    expect((await readStateFile(dir)).state).toEqual(state);
  });

  it('writes only fields that differ from the school defaults, and reads them back whole', async () => {
    const store = await StateStore.load(dir);
    const fields = fieldsOf('intro', { body: BODY, is_published: false });
    await store.update((s) => {
      s.lessons.intro = { id: 'les_1', program_id: 'p', section_id: 's', position: 1, path: 'p/s/intro.md', applied: appliedOf(fields), response: '' };
    });
    const onDisk = JSON.parse(await readFile(statePath(dir), 'utf8')).lessons.intro.applied;
    expect(Object.keys(onDisk).sort()).toEqual(['body', 'is_published', 'lesson_type', 'name']);
    expect((await readStateFile(dir)).state.lessons.intro!.applied).toEqual(appliedOf(fields));
  });

  it('refuses HTML where a fingerprint belongs (the file was not written by coursesync)', async () => {
    const text = serializeState(emptyState(LINEAGE)).replace('"lessons": {}', `"lessons": {"a": {"id": "l", "program_id": "p", "section_id": "s", "position": 1, "path": "a.md", "applied": {"body": "<p>x</p>"}, "response": ""}}`);
    await mkdir(join(dir, '.coursesync'), { recursive: true });
    await writeFile(statePath(dir), text);
    await expect(readStateFile(dir)).rejects.toThrow(/lessons\.a\.applied\.body/);
  });
});

describe('fingerprints in plans and requests', () => {
  it('diffFields compares desired HTML with the fingerprint of what was sent', () => {
    const applied = appliedOf(fieldsOf('a', { body: BODY }));
    expect(diffFields(applied, fieldsOf('a', { body: BODY }))).toEqual([]);
    const changes = diffFields(applied, fieldsOf('a', { body: '<p>new</p>' }));
    expect(changes).toEqual([{ field: 'body', before: fingerprintOf(BODY), after: '<p>new</p>' }]);
    expect(updateRequest(changes, fieldsOf('a', { body: '<p>new</p>' }))).toEqual({ body: '<p>new</p>', content_format: 'html' });
  });

  it('no request built from a fingerprint can be made', () => {
    const fields = fieldsOf('a', { body: fingerprintOf(BODY) });
    expect(() => createRequest(fields, 'sec_start', 1)).toThrow(FingerprintInRequestError);
    expect(() => updateRequest([{ field: 'body', before: '', after: fields.body }], fields)).toThrow(/fingerprint, not HTML; nothing was sent/);
  });

  const school = useEmulator();
  it('the school client refuses to send a fingerprint as a body: nothing reaches the school', async () => {
    const client = school.client();
    const made = await client.lessons.create({ section_id: 'sec_start', name: 'Loops', lesson_type: 'text', body: BODY, content_format: 'html', position: 1 });
    const before = await school.lessonsOf('sec_start');
    await expect(client.lessons.create({ section_id: 'sec_start', name: 'X', lesson_type: 'text', body: fingerprintOf(BODY), content_format: 'html', position: 1 })).rejects.toThrow(FingerprintInRequestError);
    const id = made.id;
    await expect(client.lessons.update(id, { description: fingerprintOf('<p>d</p>'), content_format: 'html' })).rejects.toThrow(FingerprintInRequestError);
    expect(await school.lessonsOf('sec_start')).toEqual(before);
  });
});
