/** Stable JSON for files kept in git: sorted keys, 2-space indent, trailing newline. */
import { appliedOnDisk, type LessonState, type StateData } from '../model/state/schema.js';
import { foldersOf, locationOnDisk, mostCommon, type SectionFolder } from '../model/state/state-layout.js';

/** Recursively sort object keys (arrays keep their order). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Serialize with sorted keys, so a one-field change is a one-line git diff. */
export function serializeStable(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) + '\n';
}

/**
 * The state file's text: sorted keys, and one line per lesson, section folder, section and
 * pending call, so a one-lesson apply changes that lesson's line (and `serial`) in `git diff`,
 * and a lesson costs a few hundred bytes. `applied` leaves out the fields still at the school's
 * defaults; locations are written against the `folders` table (state-layout.ts).
 */
export function serializeState(state: StateData): string {
  const parts: string[] = [];
  const compiler = commonCompiler(state.lessons);
  const folders = foldersOf(state.lessons);
  const top = { ...state, compiler, folders } as unknown as Record<string, unknown>;
  for (const key of Object.keys(top).sort()) {
    const value = top[key];
    if (value === undefined) continue;
    let text: string;
    if (key === 'lessons') text = lines(state.lessons, (entry) => lessonLine(entry, compiler, folders[entry.section_id]));
    else if (key === 'sections' || key === 'pending' || key === 'folders') text = lines(value as Record<string, unknown>, (v) => JSON.stringify(sortKeys(v)));
    else if (key === 'content') text = contentText(value as NonNullable<StateData['content']>);
    else text = JSON.stringify(sortKeys(value));
    parts.push(`  ${JSON.stringify(key)}: ${text}`);
  }
  return `{\n${parts.join(',\n')}\n}\n`;
}

/**
 * A lesson's line. Its nested objects and arrays are frozen once written, so changing one in
 * place throws instead of leaving memory and file apart: replace them instead.
 */
function lessonLine(entry: LessonState, compiler: string | undefined, folder: SectionFolder | undefined): string {
  for (const v of Object.values(entry)) if (v !== null && typeof v === 'object') Object.freeze(v);
  return JSON.stringify(sortKeys(lessonOnDisk(entry, compiler, folder)));
}

/** A lesson entry as written (see appliedOnDisk, locationOnDisk); its compiler only when it is not the file's. */
function lessonOnDisk(entry: LessonState, compiler: string | undefined, folder: SectionFolder | undefined): Record<string, unknown> {
  return {
    ...entry,
    // Left out unless locationOnDisk gives them (sortKeys drops undefined).
    program_id: undefined,
    deps: undefined,
    ...locationOnDisk(entry, folder),
    applied: appliedOnDisk(entry.applied),
    response: entry.response === '' ? undefined : entry.response,
    compiler: entry.compiler === compiler && entry.digest !== undefined ? undefined : entry.compiler,
  };
}

/** The compiler most lessons record: written once at the top, and left out of their lines. */
function commonCompiler(lessons: Record<string, LessonState>): string | undefined {
  const counts = new Map<string, number>();
  for (const l of Object.values(lessons)) if (l.compiler !== undefined && l.digest !== undefined) counts.set(l.compiler, (counts.get(l.compiler) ?? 0) + 1);
  return counts.size === 0 ? undefined : mostCommon(counts);
}

/** An environment's applied content (docs/environments.md#promotion): one line per lesson, so a one-lesson change is a one-line diff. */
function contentText(content: NonNullable<StateData['content']>): string {
  const keys = Object.keys(content.lessons).sort();
  const lessons = keys.length === 0 ? '{}' : `{\n${keys.map((k) => `      ${JSON.stringify(k)}: ${JSON.stringify(content.lessons[k])}`).join(',\n')}\n    }`;
  return `{\n    "commit": ${JSON.stringify(content.commit)},\n    "digest": ${JSON.stringify(content.digest)},\n    "lessons": ${lessons}\n  }`;
}

/** A keyed record as `{`, one `"key": value` line per entry (sorted), `}`. */
function lines<T>(record: Record<string, T>, text: (value: T, key: string) => string): string {
  const keys = Object.keys(record).sort();
  if (keys.length === 0) return '{}';
  return `{\n${keys.map((k) => `    ${JSON.stringify(k)}: ${text(record[k]!, k)}`).join(',\n')}\n  }`;
}
