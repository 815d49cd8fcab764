/**
 * Drift (PURE): with --refresh, which fields of each tracked lesson were changed in the school
 * since the last apply. Reported, never acted on by itself.
 */
import type { StateData } from '../model/state/schema.js';
import type { DriftStep } from './plan-schema.js';
import { toFieldValue } from './diff-fields.js';
import { changedResponseFields } from '../model/state/hash-response.js';

/** A lesson as read live with --refresh: where it is, per-field response hashes and values. */
export interface LiveLesson {
  id: string;
  section_id: string;
  position: number;
  /** responseRecord() of the live response against the state's applied values. */
  response: string;
  /** The live response's field values, for showing drift. */
  values: Readonly<Record<string, unknown>>;
}

/**
 * Drift: per field, the live response hash differs from the hash of the last response. The
 * planner sends the repo's values back for these fields (revertDrift): the repo wins, and
 * `import --key KEY --write-file` is the way to keep the school's version instead.
 */
export function diffLive(state: StateData, live: ReadonlyMap<string, LiveLesson>): DriftStep[] {
  const out: DriftStep[] = [];
  for (const key of [...live.keys()].sort()) {
    const l = live.get(key)!;
    const prior = state.lessons[key];
    if (!prior || prior.id === null) continue;
    // Section and position are compared with the state's, not with the last response: later
    // calls in the same section shift a lesson without any edit, and apply keeps them exact.
    const drifted: string[] = changedResponseFields(prior.response, prior.applied, l.values);
    if (l.section_id !== prior.section_id) drifted.push('section_id');
    if (l.position !== prior.position) drifted.push('position');
    if (drifted.length === 0) continue;
    const lastApplied = prior.applied as unknown as Record<string, unknown>;
    out.push({
      action: 'drift',
      key,
      path: prior.path,
      lesson_id: prior.id,
      program_id: prior.program_id,
      section_id: l.section_id,
      position: l.position,
      drifted,
      fields: drifted.map((f) => ({
        field: f,
        before: toFieldValue(f === 'section_id' ? prior.section_id : f === 'position' ? prior.position : lastApplied[f]),
        after: toFieldValue(l.values[f]),
      })),
    });
  }
  return out;
}
