/**
 * Deterministic idempotency keys for duplications (PURE). A key is a hash of what is copied,
 * where to, under which name, and a request id, so a re-run of the same command with the same
 * request id asks the school for the same operation (and never makes a second copy), while any
 * other detail gives another key. The request id defaults to one recorded in the duplication
 * journal the first time a command runs (see journal.ts).
 */
import { createHash } from 'node:crypto';

export interface DuplicationDetails {
  kind: 'lesson' | 'program';
  /** Lesson or program id copied. */
  sourceId: string;
  /** Destination section id (lessons); null for a program. */
  destinationId: string | null;
  /** Copy name; '' for the school's default ("Copy of …"). */
  name: string;
  requestId: string;
}

/** `cs-<kind>-<40 hex>`: 1 to 255 characters, as the API asks. */
export function duplicationKey(d: DuplicationDetails): string {
  const hash = createHash('sha256').update(JSON.stringify([d.kind, d.sourceId, d.destinationId, d.name, d.requestId])).digest('hex');
  return `cs-${d.kind}-${hash.slice(0, 40)}`;
}
