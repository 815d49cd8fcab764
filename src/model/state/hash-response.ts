/**
 * What the state keeps of a lesson's last response, for `plan --refresh` drift: only the fields
 * the school answered differently from what was applied (a video URL stored as an id, HTML it
 * cleaned), each as a short hash; a field answered as applied costs nothing. Apply records it
 * after every call and refresh compares live responses with it, so both work here. Where the
 * lesson sits (section, position) is compared with the state's own section_id and position,
 * which apply keeps exact.
 */
import { createHash } from 'node:crypto';
import { LESSON_FIELDS, type LessonField, type LessonFields } from '../../school-api/school-rules.js';
import { isFingerprint, sameContent } from './fingerprint.js';

/** The response fields tracked for drift. */
export const RESPONSE_FIELDS: readonly LessonField[] = LESSON_FIELDS;

/** Hex characters per field hash: a missed drift needs a 1 in 16^6 collision on that very field. */
export const FIELD_HASH_LENGTH = 6;

/** `field=hash` entries separated by spaces, in RESPONSE_FIELDS order; '' when every field was answered as applied. */
export const RESPONSE_RECORD_PATTERN = new RegExp(`^(|[a-z_]+=[0-9a-f]{${FIELD_HASH_LENGTH}}( [a-z_]+=[0-9a-f]{${FIELD_HASH_LENGTH}})*)$`);

/** sha256 of the JSON value, first FIELD_HASH_LENGTH hex characters. */
export function hashValue(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(value ?? null))
    .digest('hex')
    .slice(0, FIELD_HASH_LENGTH);
}

/** Whether a response value is what `applied` records (body and description by fingerprint). */
function answeredAsApplied(value: unknown, applied: LessonFields[LessonField]): boolean {
  if (typeof applied === 'string' && isFingerprint(applied)) return typeof value === 'string' && sameContent(applied, value);
  return JSON.stringify(value ?? null) === JSON.stringify(applied ?? null);
}

/**
 * The record of a response given what was applied. A field missing from the response counts as
 * null, so a server that stops returning a field shows up as drift rather than being ignored.
 */
export function responseRecord(response: Readonly<Record<string, unknown>>, applied: Readonly<LessonFields>): string {
  return RESPONSE_FIELDS.filter((f) => !answeredAsApplied(response[f], applied[f]))
    .map((f) => `${f}=${hashValue(response[f])}`)
    .join(' ');
}

/** The recorded hashes by field. */
function parseRecord(record: string): Map<string, string> {
  return new Map(record === '' ? [] : record.split(' ').map((e) => e.split('=', 2) as [string, string]));
}

/** The fields of a live response that differ from the last recorded response. */
export function changedResponseFields(record: string, applied: Readonly<LessonFields>, live: Readonly<Record<string, unknown>>): LessonField[] {
  const recorded = parseRecord(record);
  return RESPONSE_FIELDS.filter((f) => {
    const hash = recorded.get(f);
    return hash === undefined ? !answeredAsApplied(live[f], applied[f]) : hashValue(live[f]) !== hash;
  });
}
