/**
 * The lifecycle of one call of a plan (docs/architecture.md#apply), and what each transition
 * writes into state:
 *
 *   pending ──request──▶ sent ──answer────────────▶ done       result recorded, record dropped
 *                          ├──create, outcome lost─▶ uncertain  uncertain entry, section read back
 *                          └──error───────────────▶ failed     record dropped if nothing was saved
 *   pending ──stopped before sending─────────────▶ skipped    record dropped
 *
 * `pending` is the write-ahead record: it is in the state file before the request leaves, so a
 * kill at any moment leaves either the record (resolved at the next start) or the result.
 * Within a chain, `done` may also write the next call's pending record in the same write
 * (still before that call's request), halving the writes on the chain's critical path.
 * How durable each write must be before the request leaves: `durabilityBefore` below.
 */
import type { CallStep } from '../plan/plan-schema.js';
import { OutcomeUnknownError, SchoolApiError } from '../school/errors.js';
import type { Lesson } from '../school-api/wire/lessons.js';
import type { PendingCall, StateData } from '../model/state/schema.js';
import type { Durability, StateStore } from '../state/state-store.js';
import { lessonsInSection } from '../state/track-changes.js';
import { endpointOf, recordSuccess, recordUncertainCreate } from './record-call.js';

export type CallPhase = 'pending' | 'sent' | 'done' | 'uncertain' | 'failed' | 'skipped';

/** An answer whose section or position differs from the plan's prediction. */
export interface PositionMismatch {
  step: CallStep;
  expected: { section_id: string; position: number | null };
  got: { section_id: string; position: number };
}

/** The write-ahead record of a step: names of the fields sent, never their values. */
export function pendingRecordOf(step: CallStep, now: Date): PendingCall {
  const record: PendingCall = {
    action: step.action,
    key: step.key,
    lesson_id: step.lesson_id,
    request: endpointOf(step),
    fields: Object.keys(step.request).sort(),
    started_at: now.toISOString(),
  };
  if (step.action === 'create') {
    record.name = step.request.name ?? step.key;
    record.section_id = step.section_id;
  }
  return record;
}

/**
 * How durable a step's pending record must be before its request leaves
 * (docs/guarantees.md#what-is-durable-before-a-request-leaves). Every record is written (in the
 * journal, so a killed process keeps it) before its request; a power loss can still drop what
 * is not fsynced, so the question is what a lost record would cost:
 * - a create is not idempotent. Had the machine lost its record after `POST /lessons` reached
 *   the school, the next apply would see nothing pending and create the lesson again: a silent
 *   duplicate. Its record is fsynced first; a lost answer is then an uncertain create.
 * - a call that places a lesson (a move, an unpublish into the archive: `section_id` or
 *   `position` in the request) is idempotent for that lesson but shifts its neighbours, and
 *   the next plan is computed against the positions in the state. Its record is fsynced
 *   first, so the next start reads the sections back and plans from the truth.
 * - any other update or unpublish sets fields of one lesson to absolute values, and sending
 *   it twice gives what sending it once gives. Had its record been lost, the state still
 *   holds the call's inputs as not applied: the next plan proposes the same call, and the
 *   re-send converges. No id can be lost (the lesson had one) and nothing is duplicated, so
 *   it does not wait for an fsync (with 8 calls in flight that wait was most of apply's own
 *   cost per edit).
 * Results are never waited for: a lost result leaves the fsynced pending record (resolved at
 * the next start) or, for such an update, the same re-send; and the next fsync (another
 * call's record, or the background group commit) covers every record appended before it.
 */
export function durabilityBefore(step: CallStep | undefined): Durability {
  if (step === undefined) return 'written';
  const placesLesson = step.request.section_id !== undefined || step.request.position !== undefined;
  return step.action === 'create' || placesLesson ? 'synced' : 'written';
}

/** A mark asking the end of this run (or the next start) to read a lesson back with `PATCH {}`. */
export function readBackRecordOf(key: string, lessonId: string, now: Date): PendingCall {
  return { action: 'read-back', key, lesson_id: lessonId, request: `PATCH /lessons/${lessonId}`, fields: [], started_at: now.toISOString() };
}

/** The id of a read-back mark in `pending`. */
export const readBackId = (key: string) => `read-back:${key}`;

/** Whether a failed request certainly changed nothing (4xx: the school saves nothing on those). */
export function certainlyNotSaved(e: unknown): boolean {
  return e instanceof SchoolApiError && e.status >= 400 && e.status < 500;
}

/** Whether an error of this step means the create may or may not exist now. */
export function isUncertain(step: CallStep, e: unknown): boolean {
  return step.action === 'create' && e instanceof OutcomeUnknownError;
}

/** Compare an answer with the plan's prediction. */
export function mismatchOf(step: CallStep, lesson: Lesson): PositionMismatch | null {
  if (lesson.section_id === step.section_id && (step.position === null || lesson.position === step.position)) return null;
  return { step, expected: { section_id: step.section_id, position: step.position }, got: { section_id: lesson.section_id, position: lesson.position } };
}

/**
 * One call moving through its lifecycle. Each method is one transition and at most one state
 * write; calling one out of order is a programming error and throws.
 */
export class CallLifecycle {
  phase: CallPhase | 'new' = 'new';

  constructor(
    readonly step: CallStep,
    private readonly store: StateStore,
    private readonly now: () => Date,
  ) {}

  private move(from: ReadonlyArray<CallPhase | 'new'>, to: CallPhase): void {
    if (!from.includes(this.phase)) throw new Error(`call ${this.step.call_id}: ${this.phase} → ${to} is not a transition`);
    this.phase = to;
  }

  /** new → pending: write the record, unless the previous call of the chain already did. */
  async pending(alreadyWritten: boolean): Promise<void> {
    this.move(['new'], 'pending');
    if (!alreadyWritten) await this.store.beginCall(this.step.call_id, pendingRecordOf(this.step, this.now()), durabilityBefore(this.step));
  }

  /** pending → sent: the request may leave now. */
  sent(): void {
    this.move(['pending'], 'sent');
  }

  /**
   * sent → done: record the result (a position mismatch also marks the lesson for a read-back)
   * and, when `next` is given, the next call's pending record in the same write, as durable as
   * that record must be before `next`'s request.
   * @returns whether `next`'s pending record was written.
   */
  async done(lesson: Lesson, mismatch: PositionMismatch | null, next: CallStep | undefined): Promise<boolean> {
    this.move(['sent'], 'done');
    let nextWritten = false;
    await this.store.endCall(this.step.call_id, (d) => {
      recordSuccess(d, this.step, lesson);
      if (mismatch) d.pending[readBackId(this.step.key)] = readBackRecordOf(this.step.key, lesson.id, this.now());
      if (next) {
        d.pending[next.call_id] = pendingRecordOf(next, this.now());
        nextWritten = true;
      }
    }, durabilityBefore(next));
    return nextWritten;
  }

  /**
   * sent → uncertain: a create whose outcome is unknown is kept as an uncertain entry. If it did
   * land, the lessons after it shifted, so its section is marked for a read-back.
   */
  async uncertain(): Promise<void> {
    this.move(['sent'], 'uncertain');
    const step = this.step;
    await this.store.endCall(step.call_id, (d: StateData) => {
      recordUncertainCreate(d, step, this.now().toISOString());
      const other = lessonsInSection(d, step.section_id).find(([key]) => key !== step.key);
      if (other) d.pending[readBackId(other[0])] = readBackRecordOf(other[0], other[1].id!, this.now());
    }, 'written');
  }

  /**
   * sent → failed. A refused request (4xx) saved nothing, and a failed create saved nothing we
   * could find again: the record is dropped. An update that failed otherwise may or may not have
   * been saved: its record stays, so the read-back learns the truth.
   */
  async failed(error: unknown): Promise<void> {
    this.move(['sent'], 'failed');
    if (certainlyNotSaved(error) || this.step.action === 'create') await this.store.endCall(this.step.call_id, () => {}, 'written');
  }

  /**
   * new | pending → skipped: never sent; a written record is dropped (also one the previous
   * call of the chain wrote for it).
   */
  async skipped(recordWritten = this.phase === 'pending'): Promise<void> {
    const written = recordWritten;
    this.move(['new', 'pending'], 'skipped');
    if (written) await this.store.endCall(this.step.call_id, () => {}, 'written');
  }
}
