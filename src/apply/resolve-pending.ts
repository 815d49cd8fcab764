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
 */
import { failure } from '../diagnostics/error-codes/index.js';
import pLimit from 'p-limit';
import type { SchoolClient } from '../school/client.js';
import { SchoolApiError } from '../school/errors.js';
import type { Lesson } from '../school-api/wire/lessons.js';
import { responseRecord } from '../model/state/hash-response.js';
import type { StateData } from '../model/state/schema.js';
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

/**
 * Resolve every pending record of `store` (see the file header). Does nothing and sends nothing
 * when there is none.
 * @throws CoursesyncError when the school cannot be read; the records stay for the next run.
 */
export async function resolvePendingCalls(
  store: StateStore,
  client: SchoolClient,
  options: { concurrency: number; lookup?: LessonLookup },
): Promise<ResolvePendingResult> {
  const pending = Object.entries(store.data.pending);
  if (pending.length === 0) return { uncertain: [], refreshed: [] };

  // Creates → uncertain entries. Written together with what is read back below, in one write:
  // a kill between two writes would otherwise leave the uncertain entries without the read-back
  // of their sections, and nothing would ever redo it (found by the full crash-loop run).
  const uncertain: string[] = [];
  const creates = pending.filter(([, p]) => p.action === 'create');
  const markUncertain = (d: StateData) => {
    for (const [id, p] of creates) {
      delete d.pending[id];
      if (d.lessons[p.key]?.id) continue; // recorded after all (cannot happen with one write per result)
      d.lessons[p.key] = uncertainCreateEntry({ ...p, since: p.started_at }, options.lookup?.(p.key));
      uncertain.push(p.key);
    }
  };

  // Updates, moves, unpublishes and read-back marks: read the lessons and their sections. The
  // sections of interrupted creates too: a create that did land shifted the lessons after it
  // (found by the crash-loop test: without this, the state kept their old positions and
  // `plan --refresh` reported them as drift).
  const others = pending.filter(([, p]) => p.action !== 'create');
  const createSections = creates.map(([, p]) => p.section_id).filter((s): s is string => typeof s === 'string' && s !== '');
  if (others.length === 0 && createSections.length === 0) {
    await store.update(markUncertain);
    return { uncertain, refreshed: [] };
  }
  const limit = pLimit(Math.max(1, options.concurrency));
  const read = async (key: string, id: string): Promise<Lesson | null> => {
    try {
      return await client.lessons.update(id, {});
    } catch (e) {
      if (e instanceof SchoolApiError && e.status === 404) return null;
      throw failure('apply/pending-unresolved', { id, key, reason: (e as Error).message }, { cause: e });
    }
  };
  const live = new Map<string, Lesson | null>();
  const sections = new Set<string>(createSections);
  const keyOf = (p: (typeof others)[number][1]) => (store.data.lessons[p.key] ? p.key : undefined);
  await Promise.all(
    others.map(([, p]) =>
      limit(async () => {
        const key = keyOf(p);
        const entry = key ? store.data.lessons[key] : undefined;
        if (!key || !entry || entry.id === null) return;
        sections.add(entry.section_id);
        const lesson = await read(key, entry.id);
        live.set(key, lesson);
        if (lesson) sections.add(lesson.section_id);
      }),
    ),
  );
  // Every other tracked lesson of those sections, since a call there may have shifted them.
  const around = [...sections].flatMap((section) => lessonsInSection(store.data, section)).filter(([k]) => !live.has(k));
  await Promise.all(around.map(([k, l]) => limit(async () => live.set(k, await read(k, l.id!)))));

  await store.update((d) => {
    markUncertain(d);
    for (const [id] of others) delete d.pending[id];
    recordLive(d, live, new Set(others.map(([, p]) => p.key)));
  });
  return { uncertain, refreshed: [...live.keys()].sort() };
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
