/**
 * A create whose outcome is unknown (docs/architecture.md#state): the request may or may not
 * have reached the school, so the lesson is kept in state by key with `id: null` and
 * `uncertain`, and is never created again blindly. Both ways a create becomes uncertain build
 * the entry here: apply when the answer was lost, and a pending create record found later
 * (a killed apply), whether by the planner (read-only) or by apply's start-up resolution.
 */
import { DEFAULT_LESSON_FIELDS, type DesiredState, type LessonFields } from '../model/desired.js';
import type { LessonState } from '../model/state/schema.js';
import { appliedOf } from '../model/state/fingerprint.js';

/** Where a lesson of the repo lives, to fill in an uncertain create's entry. */
export interface RepoLesson {
  program_id: string;
  path: string;
  fields: LessonFields;
}

/** What is known of the create itself: its key, the name and section sent, and when. */
export interface UncertainCreate {
  key: string;
  name?: string | undefined;
  section_id?: string | undefined;
  since: string;
}

/** The repo lesson with `key`, if the repo still has it. */
export function findRepoLesson(desired: DesiredState, key: string): RepoLesson | undefined {
  for (const p of desired.programs)
    for (const s of p.sections) for (const l of s.lessons) if (l.key === key) return { program_id: p.id, path: l.path, fields: l.fields };
  return undefined;
}

/**
 * The state entry of an uncertain create. Its last-applied inputs are the repo's fields with the
 * name that was sent (a later `import --key` replaces them with the school's values).
 */
export function uncertainCreateEntry(create: UncertainCreate, repo: RepoLesson | undefined): LessonState {
  const name = create.name ?? repo?.fields.name ?? create.key;
  const section_id = create.section_id ?? '';
  return {
    id: null,
    program_id: repo?.program_id ?? '',
    section_id,
    position: null,
    path: repo?.path ?? '',
    applied: appliedOf({ ...(repo?.fields ?? DEFAULT_LESSON_FIELDS), name }),
    response: '',
    uncertain: { name, section_id, since: create.since },
  };
}

/** The two ways to resolve an uncertain create. */
export function uncertainHint(key: string): string {
  return `look for it in the school; if it was created run \`coursesync import <lesson id> --key ${key}\`, otherwise \`coursesync apply --recreate ${key}\``;
}
