/**
 * Fingerprints of the HTML sent as a lesson's body or description: what the state keeps
 * instead of the HTML itself, so the committed state stays small. A fingerprint is never a
 * value to send: assertNoFingerprint refuses any request that would carry one.
 */
import { createHash } from 'node:crypto';
import type { LessonFields } from '../../school-api/school-rules.js';

/** `sha256:` and the first 24 hex characters of the sha256 of the UTF-8 HTML. */
export type Fingerprint = `sha256:${string}`;

/**
 * 24 hex = 96 bits. A fingerprint is only ever compared with the fingerprint of what the repo
 * now compiles to for the same lesson field (never used as a key or across lessons), so a wrong
 * "unchanged" needs two versions of one lesson's HTML to agree in 96 bits: 2^-96 per edit by
 * chance. A deliberate collision (~2^48 work) could only be made by someone who writes the
 * repo, who can leave a lesson unsent anyway. 32 hex (state format 2) is read too: the first
 * 24 of them are the same fingerprint (fingerprintOf shortens it).
 */
export const FINGERPRINT_HEX = 24;
export const FINGERPRINT_PATTERN = /^sha256:[0-9a-f]{24}(?:[0-9a-f]{8})?$/;
/** What state.json (format 3) writes a fingerprint without: its field says what it is. */
export const FINGERPRINT_PREFIX = 'sha256:';
const FINGERPRINT_LENGTH = FINGERPRINT_PREFIX.length + FINGERPRINT_HEX;

/** The fields the state keeps as fingerprints. */
export const FINGERPRINTED_FIELDS = ['body', 'description'] as const satisfies ReadonlyArray<keyof LessonFields>;

export function isFingerprint(value: unknown): value is Fingerprint {
  return typeof value === 'string' && FINGERPRINT_PATTERN.test(value);
}

/** The fingerprint of `html` ('' stays '', a fingerprint stays itself, a format-2 one shortened). */
export function fingerprintOf(html: string): string {
  if (html === '') return html;
  if (isFingerprint(html)) return html.length === FINGERPRINT_LENGTH ? html : html.slice(0, FINGERPRINT_LENGTH);
  return `sha256:${createHash('sha256').update(html, 'utf8').digest('hex').slice(0, FINGERPRINT_HEX)}`;
}

/** `fields` as the state records them: body and description as fingerprints. */
export function appliedOf(fields: Readonly<LessonFields>): LessonFields {
  return { ...fields, body: fingerprintOf(fields.body), description: fingerprintOf(fields.description) };
}

/** Whether a desired value (HTML or a fingerprint) is what a last-applied value records. */
export function sameContent(applied: string, desired: string): boolean {
  return applied === desired || (isFingerprint(applied) && fingerprintOf(desired) === fingerprintOf(applied));
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
