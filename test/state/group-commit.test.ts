/**
 * The journal's fsyncs are group commits: the records of the calls in flight share one fsync
 * (one for every record appended since the last one began), and still no `synced` update
 * resolves before an fsync that covers its own record. fdatasync is wrapped to count calls, to
 * note how many journal bytes each one covers, and to hold its answer until the test lets it go
 * (no clock involved).
 */
import fs, { fstatSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StateStore } from '../../src/state/state-store.js';
import { journalPath } from '../../src/state/journal.js';

/** Every fdatasync of the journal since `reset()`: the journal size it covers, and its release. */
const syncs: Array<{ size: number; release: () => void }> = [];
let hold = false;
let covered = 0;
let journal = '';
const original = fs.fdatasync;

beforeAll(() => {
  fs.fdatasync = ((fd: number, done: (e: NodeJS.ErrnoException | null) => void) => {
    const size = fstatSync(fd).size;
    const finish = () =>
      original(fd, (e) => {
        if (!e) covered = Math.max(covered, size);
        done(e);
      });
    const isJournal = fs.readlinkSync(`/proc/self/fd/${fd}`) === journal;
    if (!isJournal) return finish();
    syncs.push({ size, release: finish });
    if (!hold) finish();
  }) as typeof fs.fdatasync;
  syncBuiltinESMExports();
});
afterAll(() => {
  fs.fdatasync = original;
  syncBuiltinESMExports();
});

let dir: string;
let store: StateStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coursesync-group-commit-'));
  journal = journalPath(dir);
  store = await StateStore.load(dir, { lock: true });
  await store.save(); // state.json written whole; later writes append to the journal
  await store.update((d) => {
    d.base_url = 'https://school.example.com/api/v1';
  });
  syncs.length = 0;
  hold = false;
});
afterEach(async () => {
  hold = false;
  for (const s of syncs) s.release();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

/** Eight write-ahead records of creates, as eight chains start their first call; each resolves when durable. */
function eightRecords(): Array<Promise<boolean>> {
  return Array.from({ length: 8 }, (_, i) => {
    const record = store.update((d) => {
      d.pending[`create:l${i}`] = { action: 'create', key: `l${i}`, lesson_id: null, request: 'POST /lessons', fields: ['name'], started_at: new Date(0).toISOString(), name: `L${i}`, section_id: 's1' };
    });
    // The journal's size once this record is appended: an fsync must cover it before it resolves.
    const written = fs.statSync(journal).size;
    return record.then(() => covered >= written);
  });
}

/** Let the microtasks and I/O callbacks run. */
const settle = () => new Promise<void>((r) => setImmediate(r));

describe('journal group commit', () => {
  it('eight records written together share one fsync, and each resolves only once it is covered', async () => {
    const resolved = await Promise.all(eightRecords());
    expect(syncs).toHaveLength(1);
    expect(resolved).toEqual(Array(8).fill(true));
  });

  it('records written while an fsync runs share the next one; none resolves before its own is done', async () => {
    hold = true;
    let firstDone = false;
    const first = store.update((d) => {
      d.pending['create:first'] = { action: 'create', key: 'first', lesson_id: null, request: 'POST /lessons', fields: ['name'], started_at: new Date(0).toISOString() };
    }).then(() => (firstDone = true));
    await settle();
    expect(syncs).toHaveLength(1); // in flight, held
    let laterDone = 0;
    const later = eightRecords().map((p) => p.then((ok) => (laterDone++, ok)));
    await settle();
    // Nothing resolves while its fsync has not answered.
    expect({ firstDone, laterDone, syncs: syncs.length }).toEqual({ firstDone: false, laterDone: 0, syncs: 1 });
    syncs[0]!.release();
    await first;
    await settle();
    // One more fsync, for all eight records appended meanwhile.
    expect({ laterDone, syncs: syncs.length }).toEqual({ laterDone: 0, syncs: 2 });
    expect(syncs[1]!.size).toBe(fs.statSync(journal).size);
    syncs[1]!.release();
    expect(await Promise.all(later)).toEqual(Array(8).fill(true));
    expect(syncs).toHaveLength(2);
  });
});
