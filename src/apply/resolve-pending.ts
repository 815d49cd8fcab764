/**
 * Pending records left in state by a killed apply (or marks for a read-back after a position
 * mismatch or a failed update), resolved before anything is planned:
 * - a create: the lesson may or may not exist, so it becomes an uncertain entry (`id: null`,
 *   `uncertain: {name, section_id, since}`), never re-created blindly;
 * - an update, move or unpublish: PATCH is idempotent and `PATCH {}` changes nothing, so the
 *   lesson is read back, and so are the tracked lessons of every section involved, to learn
 *   their real positions. The next plan then starts from the truth and the apply converges.
 *   The last-applied inputs are left as they were: a change that did go through is re-sent
 *   (harmless), one that did not is sent for the first time.
 * Reads are kept when others fail (a 429, a timeout): a record whose reads were cut short
 * becomes a read-back mark with the keys still to read (`left`), so runs make progress.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import pLimit from 'p-limit';
import type { SchoolClient } from '../school/client.js';
import { SchoolApiError } from '../school/errors.js';
import type { Lesson } from '../school-api/wire/lessons.js';
import { responseRecord } from '../model/state/hash-response.js';
import type { PendingCall, StateData } from '../model/state/schema.js';
import type { StateStore } from '../state/state-store.js';
import { lessonsInSection } from '../state/track-changes.js';
import { setPosition } from './record-call.js';
import { uncertainCreateEntry, type RepoLesson } from '../plan/uncertain-create.js';

/** Finds a repo lesson by key, to fill in an uncertain create's entry. */
export type LessonLookup = (key: string) => RepoLesson | undefined;

export interface ResolvePendingResult {
  /** Keys of creates that became uncertain. */
  uncertain: string[];
  /** Keys of lessons read back from the school. */
  refreshed: string[];
}

/** What one pending record needs read: its own lesson (first), then the lessons around it. */
interface Need {
  id: string;
  record: PendingCall;
  /** The record's own tracked lesson, read first (updates, moves, unpublishes, marks). */
  own?: { key: string; lessonId: string };
  /** Keys read after it: the tracked lessons of its sections, or what an earlier run left. */
  around: (live: ReadonlyMap<string, Lesson | null>) => string[];
}

/**
 * Resolve every pending record of `store` (see the file header). Does nothing and sends nothing
 * when there is none. Every read that answers is kept, even when another fails (a 429, a
 * timeout): what was read is recorded, and a record whose reads are not all done becomes a
 * read-back mark listing the keys still to read (`left`), so the next run goes on from there
 * instead of starting over.
 * @throws CoursesyncError `apply/pending-unresolved` when a lesson cannot be read, after that write
 */
export async function resolvePendingCalls(
  store: StateStore,
  client: SchoolClient,
  options: { concurrency: number; lookup?: LessonLookup },
): Promise<ResolvePendingResult> {
  const pending = Object.entries(store.data.pending);
  if (pending.length === 0) return { uncertain: [], refreshed: [] };
  const state = store.data;
  const tracked = (key: string) => (state.lessons[key]?.id ? key : undefined);
  const inSection = (section: string | undefined) => (section ? lessonsInSection(state, section).map(([k]) => k) : []);

  const needs: Need[] = pending.map(([id, record]) => {
    // A cut-short read-back: exactly the keys left.
    if (record.left) return { id, record, around: () => record.left!.filter((k) => tracked(k)) };
    // A create: the lessons of its section (a create that landed shifted them).
    if (record.action === 'create') return { id, record, around: () => inSection(record.section_id) };
    const entry = state.lessons[record.key];
    if (!entry || entry.id === null) return { id, record, around: () => [] };
    const own = { key: record.key, lessonId: entry.id };
    return { id, record, own, around: (live) => [...new Set([...inSection(entry.section_id), ...inSection(live.get(own.key)?.section_id)])].filter((k) => k !== own.key) };
  });

  const limit = pLimit(Math.max(1, options.concurrency));
  const live = new Map<string, Lesson | null>();
  const failed = new Map<string, unknown>();
  const read = (keys: Iterable<string>) =>
    Promise.all(
      [...new Set(keys)]
        .filter((k) => !live.has(k) && !failed.has(k) && tracked(k))
        .map((key) =>
          limit(async () => {
            try {
              live.set(key, await client.lessons.update(state.lessons[key]!.id!, {}));
            } catch (e) {
              if (e instanceof SchoolApiError && e.status === 404) live.set(key, null);
              else failed.set(key, e);
            }
          }),
        ),
    );
  await read(needs.flatMap((n) => (n.own ? [n.own.key] : [])));
  // Around a record only once its own lesson is read: where it is now is one of its sections.
  const ready = needs.filter((n) => !n.own || live.has(n.own.key));
  await read(ready.flatMap((n) => n.around(live)));

  // Its own lesson unread, a record stays as it is; otherwise it is done, or left as the keys still to read.
  const settled = needs.filter((n) => !n.own || live.has(n.own.key)).map((n) => ({ ...n, unread: n.around(live).filter((k) => !live.has(k)) }));
  const uncertain: string[] = [];
  await store.update((d) => {
    for (const n of settled) {
      delete d.pending[n.id];
      if (n.record.action === 'create' && !d.lessons[n.record.key]?.id) {
        d.lessons[n.record.key] = uncertainCreateEntry({ ...n.record, since: n.record.started_at }, options.lookup?.(n.record.key));
        uncertain.push(n.record.key);
      }
      if (n.unread.length > 0) d.pending[n.id] = leftToRead(n.record, n.unread);
    }
    recordLive(d, live, new Set(needs.flatMap((n) => (n.own ? [n.own.key] : []))));
  });
  const left = Object.values(store.data.pending).reduce((sum, p) => sum + (p.left?.length ?? 1), 0);
  const [firstKey, firstError] = [...failed][0] ?? [];
  if (firstKey !== undefined) {
    const id = store.data.lessons[firstKey]?.id ?? '';
    throw failure('apply/pending-unresolved', { id, key: firstKey, reason: (firstError as Error).message, read: live.size, left }, { cause: firstError });
  }
  return { uncertain, refreshed: [...live.keys()].sort() };
}

/** The read-back mark that replaces a record whose reads were cut short: the keys still to read. */
function leftToRead(record: PendingCall, unread: string[]): PendingCall {
  return { action: 'read-back', key: record.key, lesson_id: record.lesson_id, request: `PATCH {} of ${unread.length} lesson(s) still to read back`, fields: [], started_at: record.started_at, left: unread };
}

/** Write what was read back: where each lesson is; the pending ones also get fresh response hashes. */
function recordLive(d: StateData, live: ReadonlyMap<string, Lesson | null>, pendingKeys: ReadonlySet<string>): void {
  for (const [key, lesson] of live) {
    const entry = d.lessons[key];
    if (!entry || !lesson) continue; // a 404: the lesson is gone; the next plan says what it needs
    if (pendingKeys.has(key)) {
      entry.section_id = lesson.section_id;
      entry.position = lesson.position;
      entry.response = responseRecord(lesson as unknown as Record<string, unknown>, entry.applied);
    } else {
      setPosition(entry, lesson.section_id, lesson.position);
    }
  }
}
