/**
 * Field-level comparison of desired inputs with last-applied inputs, and the request bodies that
 * carry exactly the changes. Inputs are compared with inputs, never with server responses, so a
 * server that normalises a value (a video URL stored as an id) never causes a perpetual diff.
 */
import { LESSON_FIELDS, VIDEO_SOURCE_PRIORITY, type LessonField, type LessonFields } from '../school-api/school-rules.js';
import type { FieldChange, LessonRequest } from './plan-schema.js';
import { assertNoFingerprint, sameContent } from '../model/state/fingerprint.js';

/** The video source fields, in the school's priority order: it keeps at most one of them. */
const VIDEO_SOURCES: readonly LessonField[] = VIDEO_SOURCE_PRIORITY;

const isBlank = (v: unknown): boolean => v === null || v === undefined || v === '';

/**
 * Every field whose desired value differs from the last-applied one, in LESSON_FIELDS order.
 * The state keeps body and description as fingerprints: a desired HTML matches the fingerprint
 * of itself, and the change's `before` is that fingerprint.
 */
export function diffFields(before: LessonFields | null, after: LessonFields): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of LESSON_FIELDS) {
    const b = before === null ? null : before[field];
    const a = after[field];
    if (before !== null && (b === a || (typeof b === 'string' && typeof a === 'string' && sameContent(b, a)))) continue;
    if (before === null && isBlank(a)) continue;
    out.push({ field, before: b, after: a });
  }
  return out;
}

/**
 * Drift settles the way Terraform settles it: the repo wins. For each input field changed in the
 * school (`drifted`, from the live response) whose live value differs from the repo's, a change
 * that sends the repo's value back (before = the school's value), unless `changes` already sends it.
 */
export function revertDrift(drifted: readonly string[], live: Readonly<Record<string, unknown>>, desired: LessonFields, changes: readonly FieldChange[]): FieldChange[] {
  const out = [...changes];
  const sent = new Set(changes.map((c) => c.field));
  for (const field of LESSON_FIELDS) {
    if (!drifted.includes(field) || sent.has(field)) continue;
    const a = desired[field];
    const b = live[field];
    if (a === b || (isBlank(a) && isBlank(b))) continue;
    out.push({ field, before: toFieldValue(b), after: a });
  }
  return out.sort((x, y) => LESSON_FIELDS.indexOf(x.field as LessonField) - LESSON_FIELDS.indexOf(y.field as LessonField));
}

/** A response value as a plan field value (objects as JSON). */
export function toFieldValue(v: unknown): string | number | boolean | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return JSON.stringify(v);
}

/**
 * `base` with each change's `after` laid over it: the inverse of diffFields. Apply uses it to
 * record the inputs a call sent as the new last-applied values.
 */
export function withFieldChanges(base: Readonly<LessonFields>, changes: readonly FieldChange[]): LessonFields {
  const out: Record<string, unknown> = { ...base };
  for (const c of changes) if ((LESSON_FIELDS as readonly string[]).includes(c.field)) out[c.field] = c.after;
  return out as unknown as LessonFields;
}

/** The body of a create: every non-blank field (blank is the server default), position explicit. */
export function createRequest(fields: LessonFields, sectionId: string, position: number): LessonRequest {
  const req: LessonRequest = { section_id: sectionId, position, content_format: 'html' };
  for (const field of LESSON_FIELDS) {
    const v = fields[field];
    if (isBlank(v)) continue;
    (req as Record<string, unknown>)[field] = v;
  }
  assertNoFingerprint(req);
  return req;
}

/**
 * The body of an update carrying only `changes`. Video sources: a new non-blank source is sent
 * alone (the server clears the others; "supply only one video source per request"); a source
 * removed with no replacement is sent as null. `content_format: 'html'` whenever a body or a
 * description is sent, since both are rendered locally.
 */
export function updateRequest(changes: readonly FieldChange[], desired: LessonFields): LessonRequest {
  const req: Record<string, unknown> = {};
  const changed = new Set(changes.map((c) => c.field));
  const newSource = VIDEO_SOURCES.find((f) => changed.has(f) && !isBlank(desired[f]));
  for (const c of changes) {
    const field = c.field as LessonField;
    if (VIDEO_SOURCES.includes(field)) {
      if (newSource !== undefined) {
        if (field === newSource) req[field] = desired[field];
        continue;
      }
      req[field] = isBlank(desired[field]) ? null : desired[field];
      continue;
    }
    req[field] = desired[field];
  }
  if ('body' in req || 'description' in req) req.content_format = 'html';
  assertNoFingerprint(req);
  return req as LessonRequest;
}
