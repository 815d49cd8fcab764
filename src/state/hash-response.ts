/**
 * Per-field short hashes of a lesson response. Apply records them after every call and
 * `plan --refresh` compares live responses with them, so both must hash the same way: here.
 */
import { createHash } from 'node:crypto';
import { LESSON_FIELDS, type LessonField } from '../model/desired.js';

/** The response fields tracked for drift: the managed inputs plus where the lesson sits. */
export const RESPONSE_FIELDS = [...LESSON_FIELDS, 'section_id', 'position'] as const;
export type ResponseField = LessonField | 'section_id' | 'position';

/** sha256 of the JSON value, first 16 hex characters: short enough for state diffs. */
export function hashValue(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Hash every tracked field of a lesson response. A field missing from the response hashes as
 * null, so a server that stops returning a field shows up as drift rather than being ignored.
 */
export function hashResponseFields(response: Readonly<Record<string, unknown>>): Record<ResponseField, string> {
  const out = {} as Record<ResponseField, string>;
  for (const f of RESPONSE_FIELDS) out[f] = hashValue(response[f]);
  return out;
}
