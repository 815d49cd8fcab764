/**
 * The phases between opening an apply and planning it, each a state write the plan must see:
 * the calls an interrupted apply left pending are resolved (resolve-pending.ts), and the
 * uncertain creates named by `--recreate` are dropped so the plan creates them again.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import type { DesiredState } from '../model/desired.js';
import { linkLessons } from '../plan/lesson-links.js';
import { findRepoLesson } from '../plan/uncertain-create.js';
import type { StateData } from '../model/state/schema.js';
import type { StateStore } from '../state/state-store.js';
import type { ApplySession } from './apply-options.js';
import { resolvePendingCalls, type LessonLookup, type ResolvePendingResult } from './resolve-pending.js';

/**
 * A repo lesson by key, with its links filled as the state knows them (what a plan would send),
 * for filling in the entry of an interrupted create. Links are filled only when one is asked for.
 */
export function lookupIn(desired: DesiredState, store: StateStore): LessonLookup {
  let linked: DesiredState | undefined;
  return (key) => findRepoLesson((linked ??= linkLessons(desired, store.data as StateData).desired), key);
}

/**
 * Learn the truth about what a killed apply left pending before planning, and say what was found.
 * @throws CoursesyncError `apply/stale-plan` when a saved plan is applied: it was made before
 */
export async function resolveAtStart(s: ApplySession): Promise<ResolvePendingResult> {
  const resolved = await resolvePendingCalls(s.store, s.client, { concurrency: s.concurrency, lookup: lookupIn(s.course.desired, s.store) });
  if (resolved.uncertain.length > 0) s.notice(`an interrupted apply left ${resolved.uncertain.length} create(s) whose outcome is unknown: ${resolved.uncertain.join(', ')} (recorded as uncertain)`);
  if (resolved.refreshed.length > 0) s.notice(`an interrupted apply left calls pending: read back ${resolved.refreshed.length} lesson(s) from the school to learn their real positions`);
  const saved = s.options.savedPlan;
  if (saved && resolved.uncertain.length + resolved.refreshed.length > 0) {
    throw failure('apply/stale-plan', { file: saved.file, why: 'the state held calls left pending by an interrupted apply, resolved now' });
  }
  return resolved;
}

/**
 * `--recreate KEY`: drop each uncertain create from the state, so the plan creates it again.
 * @throws CoursesyncError `apply/recreate-unknown` for a key that is not an uncertain create
 */
export async function dropRecreated(s: ApplySession): Promise<void> {
  const keys = s.options.recreate ?? [];
  if (keys.length === 0) return;
  for (const key of keys) {
    const entry = s.store.data.lessons[key];
    if (!entry || entry.id !== null) throw failure('apply/recreate-unknown', { key });
  }
  await s.store.update((d) => {
    for (const key of keys) delete d.lessons[key];
  });
  s.notice(`dropped the uncertain create(s) ${keys.join(', ')}: they will be created again`);
}
