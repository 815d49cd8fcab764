/**
 * Fingerprints of the HTML sent as a lesson's body or description: what the state keeps
 * instead of the HTML itself, so the committed state stays small. A fingerprint is never a
 * value to send: assertNoFingerprint refuses any request that would carry one.
 */
import { createHash } from 'node:crypto';
import type { LessonFields } from '../model/school-rules.js';

/** `sha256:` and the first 32 hex characters of the sha256 of the UTF-8 HTML. */
export type Fingerprint = `sha256:${string}`;

export const FINGERPRINT_PATTERN = /^sha256:[0-9a-f]{32}$/;

/** The fields the state keeps as fingerprints. */
export const FINGERPRINTED_FIELDS = ['body', 'description'] as const satisfies ReadonlyArray<keyof LessonFields>;

export function isFingerprint(value: unknown): value is Fingerprint {
  return typeof value === 'string' && FINGERPRINT_PATTERN.test(value);
}

/** The fingerprint of `html` ('' stays '', a fingerprint stays itself). */
export function fingerprintOf(html: string): string {
  if (html === '' || isFingerprint(html)) return html;
  return `sha256:${createHash('sha256').update(html, 'utf8').digest('hex').slice(0, 32)}`;
}

/** `fields` as the state records them: body and description as fingerprints. */
export function appliedOf(fields: Readonly<LessonFields>): LessonFields {
  return { ...fields, body: fingerprintOf(fields.body), description: fingerprintOf(fields.description) };
}

/** Whether a desired value (HTML or a fingerprint) is what a last-applied value records. */
export function sameContent(applied: string, desired: string): boolean {
  return applied === desired || (isFingerprint(applied) && fingerprintOf(desired) === applied);
}

/** Thrown when a request would carry a fingerprint instead of HTML: a bug, never user input. */
export class FingerprintInRequestError extends Error {
  constructor(field: string) {
    super(`internal error: the ${field} of a lesson request is a state fingerprint, not HTML; nothing was sent`);
    this.name = 'FingerprintInRequestError';
  }
}

/** Refuse a request body whose body or description is a fingerprint. */
export function assertNoFingerprint(request: Readonly<Record<string, unknown>>): void {
  for (const field of FINGERPRINTED_FIELDS) if (isFingerprint(request[field])) throw new FingerprintInRequestError(field);
}
