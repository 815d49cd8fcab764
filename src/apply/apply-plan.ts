/**
 * The executor: runs a Plan against the school (docs/architecture.md#apply). Chains run in parallel, the steps of
 * one chain in order; one p-limit shared by every chain keeps at most `concurrency` requests in
 * flight. Around every call the state is written ahead (pending record before, result after).
 * A failed call stops its own chain; the other chains finish. Every answer's position is
 * checked against the plan's prediction; a mismatch is reported and the lesson is marked for a
 * read-back (a pending `PATCH {}` record, resolved by resolvePendingCalls at the end of the run
 * or, if the run is killed, at the start of the next one).
 */
import { fillLessonLinks } from '../model/lesson-links.js';
import type { StateData } from '../state/schema.js';
import pLimit from 'p-limit';
import { CoursesyncError } from '../diagnostics/errors.js';
import { isCall, type CallStep, type Plan } from '../plan/plan-schema.js';
import type { SchoolClient } from '../school/client.js';
import { OutcomeUnknownError, SchoolApiError } from '../school/errors.js';
import type { Lesson, LessonCreateBody, LessonUpdateBody } from '../school/wire/lessons.js';
import type { StateStore } from '../state/state-store.js';
import { pendingRecordOf, recordSuccess, recordUncertainCreate, refreshRecordOf } from './record-call.js';

/** An answer whose section or position differs from the plan's prediction. */
export interface PositionMismatch {
  step: CallStep;
  expected: { section_id: string; position: number | null };
  got: { section_id: string; position: number };
}

/** What happened to one call. */
export type CallOutcome =
  | { status: 'done'; step: CallStep; lesson: Lesson; ms: number; mismatch: PositionMismatch | null }
  | { status: 'failed'; step: CallStep; error: Error; ms: number }
  /** A create that may or may not exist now (recorded in state as uncertain). */
  | { status: 'uncertain'; step: CallStep; error: Error; ms: number }
  /** Not sent: an earlier call of its chain failed, the run was interrupted, or the key was refused. */
  | { status: 'skipped'; step: CallStep; reason: 'chain-failed' | 'interrupted' | 'unauthorized' };

/** Progress events, in the order they happen (a CLI turns them into lines or a progress bar). */
export type ApplyEvent =
  | { type: 'call-start'; step: CallStep; inFlight: number }
  | { type: 'call-end'; outcome: CallOutcome; inFlight: number };

export interface ApplyPlanOptions {
  client: SchoolClient;
  /** The state of the repo, loaded with its lock held. */
  store: StateStore;
  /** At most this many requests in flight (≥ 1). */
  concurrency: number;
  onEvent?: (event: ApplyEvent) => void;
  /** When aborted, no new call starts; calls in flight finish and are recorded. */
  signal?: AbortSignal;
  /** Clock for records (tests). */
  now?: () => Date;
  /**
   * Calls not to send, with why (a lesson whose image is not published): each fails without a
   * request, and the rest of its chain is skipped as after any failure.
   */
  blocked?: ReadonlyMap<string, Error>;
  /**
   * school.lesson_url: links the plan left pending (to lessons created in this run) are filled
   * in from the state just before each call, so a link to a lesson created earlier in the run
   * needs no second call.
   */
  lessonUrl?: string;
}

export interface ApplyResult {
  /** One outcome per call step of the plan, in plan order. */
  outcomes: CallOutcome[];
  mismatches: PositionMismatch[];
  /** Whether the signal kept at least one call from starting. */
  interrupted: boolean;
}

/** Send one step's request: one handler per step type. */
function sendStep(client: SchoolClient, step: CallStep): Promise<Lesson> {
  switch (step.action) {
    case 'create':
      return client.lessons.create(step.request as LessonCreateBody);
    case 'update':
    case 'move':
    case 'unpublish':
      // The plan always knows the id of a lesson it updates; a missing one is a broken plan file.
      if (step.lesson_id === null) throw new CoursesyncError(`the plan's ${step.action} of ${step.key} has no lesson id`, { code: 'plan/invalid', hint: 'make a new plan with `coursesync plan --out plan.json`' });
      return client.lessons.update(step.lesson_id, step.request as LessonUpdateBody);
    default: {
      const never: never = step;
      throw new Error(`unknown step ${(never as CallStep).action}`);
    }
  }
}

/** `step` with its pending lesson links filled from `state` (unknown ones as `#`), request and fields alike. */
function withLessonLinks(step: CallStep, template: string, state: StateData): CallStep {
  const { body, description } = step.request;
  if (!(body?.includes('\uE002') || description?.includes('\uE002'))) return step;
  const locate = (key: string) => {
    const entry = state.lessons[key];
    return entry?.id ? { programId: entry.program_id, id: entry.id } : null;
  };
  const fill = (v: string | null | undefined) => (typeof v === 'string' ? fillLessonLinks(v, template, locate, false) : v);
  const request = { ...step.request };
  if (body !== undefined) request.body = fill(body);
  if (description !== undefined) request.description = fill(description);
  const fields = step.fields.map((f) => (f.field === 'body' || f.field === 'description' ? { ...f, after: fill(f.after as string | null) ?? null } : f));
  return { ...step, request, fields };
}

/** Whether a failed request certainly changed nothing (4xx: the API saves nothing on those). */
function certainlyNotSaved(e: unknown): boolean {
  return e instanceof SchoolApiError && e.status >= 400 && e.status < 500;
}

/**
 * Run the calls of `plan` against the school, recording every one in `store`.
 * Never throws for a failed call (it is an outcome); throws only when the state cannot be
 * written, which stops everything (the file keeps the last good state).
 */
export async function applyPlan(plan: Plan, options: ApplyPlanOptions): Promise<ApplyResult> {
  const { client, store } = options;
  const now = options.now ?? (() => new Date());
  const limit = pLimit(Math.max(1, Math.floor(options.concurrency)));
  const steps = new Map<string, CallStep>();
  for (const c of plan.changes) if (isCall(c)) steps.set(c.call_id, c);
  const outcomes = new Map<string, CallOutcome>();
  const mismatches: PositionMismatch[] = [];
  let inFlight = 0;
  let unauthorized = false;
  let stateError: unknown;

  const stopped = () => options.signal?.aborted === true || unauthorized || stateError !== undefined;

  // The limit covers the request only: state writes of one chain overlap requests of the
  // others, so a write (an fsync) is never what keeps a request slot busy. Within a chain, the
  // result of a call and the pending record of the next one go in one write (still
  // write-ahead: the next request is sent only after that write), halving the writes on the
  // chain's critical path.
  const runStep = async (planned: CallStep, recorded: boolean, next: CallStep | undefined): Promise<{ outcome: CallOutcome; nextRecorded: boolean }> => {
    // What is sent, and recorded as applied, has every link it can fill filled.
    const step = options.lessonUrl === undefined ? planned : withLessonLinks(planned, options.lessonUrl, store.data);
    const skip = async () => {
      if (recorded) await store.endCall(step.call_id, () => {});
      return { outcome: { status: 'skipped', step, reason: unauthorized ? 'unauthorized' : 'interrupted' } as CallOutcome, nextRecorded: false };
    };
    if (stopped()) return skip();
    if (!recorded) await store.beginCall(step.call_id, pendingRecordOf(step, now()));
    recorded = true;
    let started = 0;
    const sent = await limit(async () => {
      // Checked again once a slot is free: a SIGINT or a refused token stops calls still queued.
      if (stopped()) return undefined;
      inFlight++;
      options.onEvent?.({ type: 'call-start', step, inFlight });
      started = performance.now();
      try {
        return { ok: true as const, lesson: await sendStep(client, step) };
      } catch (e) {
        if (e instanceof SchoolApiError && e.status === 401) unauthorized = true;
        return { ok: false as const, error: e as unknown };
      } finally {
        inFlight--;
      }
    });
    if (sent === undefined) return skip();
    const ms = Math.round(performance.now() - started);
    if (!sent.ok) {
      const e = sent.error;
      const error = e instanceof Error ? e : new Error(String(e));
      if (step.action === 'create' && e instanceof OutcomeUnknownError) {
        await store.endCall(step.call_id, (d) => {
          recordUncertainCreate(d, step, now().toISOString());
          // If it did land, the lessons after it shifted: read the section back (found by the crash-loop test).
          const other = Object.entries(d.lessons).find(([, l]) => l.id !== null && l.section_id === step.section_id);
          if (other) d.pending[`refresh:${other[0]}`] = refreshRecordOf(other[0], other[1].id!, now());
        });
        return { outcome: { status: 'uncertain', step, error, ms }, nextRecorded: false };
      }
      // A refused request changed nothing; otherwise an update may or may not have been saved:
      // its pending record stays, so the read-back (end of run or next start) learns the truth.
      if (certainlyNotSaved(e) || step.action === 'create') await store.endCall(step.call_id, () => {});
      return { outcome: { status: 'failed', step, error, ms }, nextRecorded: false };
    }
    const lesson = sent.lesson;
    let mismatch: PositionMismatch | null = null;
    if (lesson.section_id !== step.section_id || (step.position !== null && lesson.position !== step.position)) {
      mismatch = { step, expected: { section_id: step.section_id, position: step.position }, got: { section_id: lesson.section_id, position: lesson.position } };
      mismatches.push(mismatch);
    }
    let nextRecorded = false;
    await store.endCall(step.call_id, (d) => {
      recordSuccess(d, step, lesson);
      if (mismatch) d.pending[`refresh:${step.key}`] = refreshRecordOf(step.key, lesson.id, now());
      if (next && !stopped()) {
        d.pending[next.call_id] = pendingRecordOf(next, now());
        nextRecorded = true;
      }
    });
    return { outcome: { status: 'done', step, lesson, ms, mismatch }, nextRecorded };
  };

  const runChain = async (ids: readonly string[]): Promise<void> => {
    // Once a call of the chain did not succeed, the rest of the chain is not sent: their
    // positions were planned relative to it.
    let stop: 'chain-failed' | 'interrupted' | 'unauthorized' | undefined;
    const chain = ids.map((id) => steps.get(id)).filter((s): s is CallStep => s !== undefined);
    let recorded = false;
    for (const [i, step] of chain.entries()) {
      const id = step.call_id;
      let outcome: CallOutcome;
      const blocked = options.blocked?.get(id);
      if (stop !== undefined) {
        outcome = { status: 'skipped', step, reason: stop };
      } else if (blocked !== undefined) {
        // Never sent, so nothing to record: the next plan proposes the call again.
        if (recorded) await store.endCall(id, () => {});
        recorded = false;
        outcome = { status: 'failed', step, error: blocked, ms: 0 };
        stop = 'chain-failed';
      } else {
        try {
          const ran = await runStep(step, recorded, chain[i + 1]);
          outcome = ran.outcome;
          recorded = ran.nextRecorded;
        } catch (e) {
          // The state could not be written: stop every chain; the file keeps the last good state.
          stateError ??= e;
          outcome = { status: 'skipped', step, reason: 'interrupted' };
        }
        if (outcome.status === 'skipped') stop = outcome.reason;
        else if (outcome.status !== 'done') stop = 'chain-failed';
      }
      outcomes.set(id, outcome);
      options.onEvent?.({ type: 'call-end', outcome, inFlight });
    }
  };

  await Promise.all(plan.chains.map((chain) => runChain(chain.steps)));
  if (stateError !== undefined) throw stateError;
  const ordered: CallOutcome[] = [];
  for (const [id, step] of steps) ordered.push(outcomes.get(id) ?? { status: 'skipped', step, reason: 'interrupted' });
  // Interrupted only when the signal kept a call from starting (a Ctrl-C after the last call is not).
  const interrupted = options.signal?.aborted === true && ordered.some((o) => o.status === 'skipped' && o.reason === 'interrupted');
  return { outcomes: ordered, mismatches, interrupted };
}
