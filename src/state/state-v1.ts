/**
 * Version 1 of the state file, read and migrated in memory: bodies and descriptions become
 * fingerprints of their HTML, per-field response hashes are packed into one string. The next
 * write is the current version; a version-1 coursesync refuses that file by its version check.
 */
import { z } from 'zod';
import { LessonFieldsSchema } from '../school-api/school-rules.js';
import { appliedOf } from '../model/state/fingerprint.js';
import { FIELD_HASH_LENGTH, hashValue, RESPONSE_FIELDS } from '../model/state/hash-response.js';
import type { LessonFields } from '../school-api/school-rules.js';
import { lessonKey, nullRecord, PendingCallSchema, SectionStateSchema, STATE_VERSION, UncertainCreateSchema, type LessonState, type StateData } from '../model/state/schema.js';

const LessonStateV1Schema = z.strictObject({
  id: z.string().nullable(),
  program_id: z.string(),
  section_id: z.string(),
  position: z.int().min(1).nullable(),
  path: z.string(),
  applied: LessonFieldsSchema,
  response: z.record(z.string(), z.string()),
  uncertain: UncertainCreateSchema.optional(),
});

export const StateV1Schema = z.strictObject({
  version: z.literal(1),
  lineage: z.uuid(),
  serial: z.int().min(0),
  base_url: z.string().nullable(),
  lessons: z.record(lessonKey(), LessonStateV1Schema),
  sections: z.record(z.string(), SectionStateSchema),
  pending: z.record(z.string(), PendingCallSchema),
});

/**
 * Version 1 hashed every response field (16 hex, the same hash): a field whose hash is that of
 * the applied value was answered as applied and needs no record; the others keep their hash.
 */
function recordOfV1(response: Readonly<Record<string, string>>, applied: Readonly<LessonFields>): string {
  return RESPONSE_FIELDS.filter((f) => response[f] !== undefined && response[f]!.slice(0, FIELD_HASH_LENGTH) !== hashValue(applied[f]))
    .map((f) => `${f}=${response[f]!.slice(0, FIELD_HASH_LENGTH)}`)
    .join(' ');
}

/** A parsed version-1 state as the current version. */
export function migrateV1(v1: z.output<typeof StateV1Schema>): StateData {
  const lessons = nullRecord<LessonState>();
  for (const [key, l] of Object.entries(v1.lessons)) {
    const { response, applied, ...rest } = l;
    lessons[key] = { ...rest, applied: appliedOf(applied), response: recordOfV1(response, applied) };
  }
  return {
    version: STATE_VERSION,
    lineage: v1.lineage,
    serial: v1.serial,
    base_url: v1.base_url,
    lessons,
    sections: nullRecord(v1.sections),
    pending: nullRecord(v1.pending),
  };
}
