/**
 * What the state records about how a lesson was built (file blob, digest, compiler, deps,
 * aliases, acknowledged rules, the warnings of its own text): recorded together, kept together, dropped together.
 */
import type { LessonState } from '../model/state/schema.js';

export const BUILD_RECORD_FIELDS = ['blob', 'digest', 'compiler', 'deps', 'inputs', 'aliases', 'acknowledge', 'warnings'] as const;
export type BuildRecord = Pick<LessonState, (typeof BUILD_RECORD_FIELDS)[number]>;

/** The build record of an entry (only the fields it has). */
export function keepBuildRecord(entry: Readonly<LessonState>): BuildRecord {
  const out: BuildRecord = {};
  for (const f of BUILD_RECORD_FIELDS) if (entry[f] !== undefined) (out as Record<string, unknown>)[f] = entry[f];
  return out;
}

/** The entry without any build record (what it was built from is no longer known). */
export function withoutBuildRecord(entry: Readonly<LessonState>): LessonState {
  const out = { ...entry };
  for (const f of BUILD_RECORD_FIELDS) delete out[f];
  return out;
}
