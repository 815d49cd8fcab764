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
