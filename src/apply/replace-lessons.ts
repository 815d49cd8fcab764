/**
 * `apply --replace KEY`: create a tracked lesson anew (e.g. after it was deleted in the school).
 * Two rules keep it from ever making a second copy:
 * - the old lesson must be gone: one read of it (`PATCH /lessons/{id}` with `{}` changes nothing
 *   and answers the live lesson, as --refresh reads), and a lesson the school still has, or
 *   cannot be read, is refused before anything is planned or written;
 * - nothing is forgotten until the apply runs: the plan is built from a view of the state
 *   without the keys, and apply writes the forgetting only once the run is confirmed, so a
 *   refused or cancelled apply leaves the state as it was.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import type { SchoolClient } from '../school/client.js';
import { SchoolApiError } from '../school/errors.js';
import { nullRecord, type StateData } from '../model/state/schema.js';
import type { LessonLookup } from './resolve-pending.js';
import type { ApplySession } from './apply-options.js';
import { lookupIn } from './resolve-at-start.js';

/**
 * Check every key to replace: tracked, with a lesson file, with an id (not an uncertain
 * create), and gone from the school (a 404). Returns the keys with their old ids.
 * @throws CoursesyncError `apply/replace-unknown`, `apply/replace-uncertain`,
 *   `apply/replace-exists`, `apply/replace-unchecked`
 */
export async function checkReplaced(
  keys: readonly string[],
  state: Readonly<StateData>,
  lookup: LessonLookup,
  client: SchoolClient,
): Promise<Array<{ key: string; id: string }>> {
  const checked: Array<{ key: string; id: string }> = [];
  for (const key of keys) {
    const entry = state.lessons[key];
    const problem = !entry ? 'the state tracks no lesson with that key' : !lookup(key) ? 'no lesson file of the repo has that key' : undefined;
    if (problem || !entry) throw failure('apply/replace-unknown', { key, problem: problem ?? '' });
    if (entry.id === null) throw failure('apply/replace-uncertain', { key });
    checked.push({ key, id: entry.id });
  }
  for (const { key, id } of checked) {
    const gone = await client.lessons.update(id, {}).then(
      () => false,
      (e: unknown) => {
        if (e instanceof SchoolApiError && e.status === 404) return true;
        throw failure('apply/replace-unchecked', { key, id, reason: (e as Error).message }, { cause: e });
      },
    );
    if (!gone) throw failure('apply/replace-exists', { key, id, path: state.lessons[key]!.path });
  }
  return checked;
}

/** The state as it will be once `keys` are forgotten (a view: the store is not changed). */
export function withoutKeys(state: Readonly<StateData>, keys: readonly string[]): StateData {
  const drop = new Set(keys);
  return { ...state, lessons: nullRecord(Object.fromEntries(Object.entries(state.lessons).filter(([k]) => !drop.has(k)))) };
}

/**
 * `--replace KEY…`: check the old lessons are gone (one read each) and say so. Returns them, and
 * the state to plan from: without them (the store keeps them until the run is confirmed).
 */
export async function replaceLessons(s: ApplySession): Promise<{ replaced: Array<{ key: string; id: string }>; state: StateData }> {
  const keys = s.options.replace ?? [];
  if (keys.length === 0) return { replaced: [], state: s.store.data as StateData };
  const replaced = await checkReplaced(keys, s.store.data, lookupIn(s.course.desired, s.store), s.client);
  const one = replaced.length === 1;
  s.notice(`${replaced.map((r) => `${r.key} (${r.id})`).join(', ')} ${one ? 'is' : 'are'} gone from the school: this apply creates ${one ? 'it' : 'them'} anew`);
  return { replaced, state: withoutKeys(s.store.data, keys) };
}
