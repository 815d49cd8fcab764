/**
 * The executor: runs a Plan against the school (docs/architecture.md#apply). Chains run in
 * parallel, the steps of one chain in order; one p-limit shared by every chain keeps at most
 * `concurrency` requests in flight. Each call goes through its lifecycle (call-lifecycle.ts):
 * pending (written ahead) → sent → done | uncertain | failed. A call that does not end `done`
 * stops its own chain; the other chains finish. A position mismatch is reported and the lesson
 * is read back (at the end of the run, or at the next start if the run is killed).
 */
import { failure } from '../diagnostics/error-codes/index.js';
import pLimit from 'p-limit';
import { fillLessonLinks } from '../model/lesson-links.js';
import type { CallStep, Plan } from '../plan/plan-schema.js';
import { isCall } from '../plan/plan-steps.js';
import type { SchoolClient } from '../school/client.js';
import { SchoolApiError } from '../school/errors.js';
import type { Lesson, LessonCreateBody, LessonUpdateBody } from '../school-api/wire/lessons.js';
import type { StateData } from '../model/state/schema.js';
import type { StateStore } from '../state/state-store.js';
import { CallLifecycle, isUncertain, mismatchOf, type PositionMismatch } from './call-lifecycle.js';

export type { PositionMismatch } from './call-lifecycle.js';

type SkipReason = 'chain-failed' | 'interrupted' | 'unauthorized';

/**
 * Where the school says a lesson is after a call: all a run keeps of the answer. (The answer
 * echoes the body; kept for every call of a first apply, that was the course's HTML once more.)
 */
export type LessonPlace = Pick<Lesson, 'id' | 'section_id' | 'position'>;

/** What happened to one call; `step` is the plan's (links filled when sending are not in it). */
export type CallOutcome =
  | { status: 'done'; step: CallStep; lesson: LessonPlace; ms: number; mismatch: PositionMismatch | null }
  | { status: 'failed'; step: CallStep; error: Error; ms: number }
  /** A create that may or may not exist now (recorded in state as uncertain). */
  | { status: 'uncertain'; step: CallStep; error: Error; ms: number }
  /** Not sent: an earlier call of its chain failed, the run was interrupted, or the key was refused. */
  | { status: 'skipped'; step: CallStep; reason: SkipReason };

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
      if (step.lesson_id === null) throw failure('plan/invalid', { problem: `its ${step.action} of ${step.key} has no lesson id` });
      return client.lessons.update(step.lesson_id, step.request as LessonUpdateBody);
    default: {
      const never: never = step;
      throw new Error(`unknown step ${(never as CallStep).action}`);
    }
  }
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));

/** `step` with its pending lesson links filled from `state` (unknown ones as `#`), request and fields alike. */
function withLessonLinks(step: CallStep, template: string, state: StateData): CallStep {
  const { body, description } = step.request;
  if (!(body?.includes('\uE002') || description?.includes('\uE002'))) return step;
  const locate = (key: string) => {
    const entry = state.lessons[key];
    return entry?.id ? { programId: entry.program_id, id: entry.id } : null;
  };
  // Body and description are the same strings in request and fields: each is filled once, and the copies shared.
  const filled = new Map<string, string>();
  const fill = (v: string | null | undefined) => {
    if (typeof v !== 'string') return v;
    let out = filled.get(v);
    if (out === undefined) filled.set(v, (out = fillLessonLinks(v, template, locate, false)));
    return out;
  };
  const request = { ...step.request };
  if (body !== undefined) request.body = fill(body);
  if (description !== undefined) request.description = fill(description);
  const fields = step.fields.map((f) => (f.field === 'body' || f.field === 'description' ? { ...f, after: fill(f.after as string | null) ?? null } : f));
  return { ...step, request, fields };
}

/** What a whole run shares: the request slots, the stop conditions and the progress count. */
class Run {
  readonly limit: ReturnType<typeof pLimit>;
  readonly mismatches: PositionMismatch[] = [];
  inFlight = 0;
  unauthorized = false;
  stateError: unknown;

  constructor(readonly options: ApplyPlanOptions) {
    this.limit = pLimit(Math.max(1, Math.floor(options.concurrency)));
  }

  lifecycle(step: CallStep): CallLifecycle {
    return new CallLifecycle(step, this.options.store, this.options.now ?? (() => new Date()));
  }

  /** Why no new call may start, if one may not. */
  stopReason(): SkipReason | undefined {
    if (this.unauthorized) return 'unauthorized';
    if (this.options.signal?.aborted === true || this.stateError !== undefined) return 'interrupted';
    return undefined;
  }

  /**
   * One call through its lifecycle. `recorded`: the previous call of the chain already wrote
   * this call's pending record. Returns the outcome and whether `next`'s record was written.
   */
  async call(step: CallStep, recorded: boolean, next: CallStep | undefined): Promise<{ outcome: CallOutcome; nextRecorded: boolean }> {
    // What is sent, and recorded as applied, has every link it can fill filled. The outcome
    // keeps the plan's step: the filled copy lives only as long as its call.
    const { lessonUrl, store } = this.options;
    const sent = lessonUrl === undefined ? step : withLessonLinks(step, lessonUrl, store.data);
    const call = this.lifecycle(sent);
    const skip = async (reason: SkipReason) => {
      await call.skipped(recorded);
      return { outcome: { status: 'skipped' as const, step, reason }, nextRecorded: false };
    };
    const before = this.stopReason();
    if (before !== undefined) return skip(before);
    await call.pending(recorded);
    recorded = true;

    let started = 0;
    // The limit covers the request only: state writes of one chain overlap other chains' requests.
    const answer = await this.limit(async () => {
      // Checked again once a slot is free: a SIGINT or a refused token stops calls still queued.
      if (this.stopReason() !== undefined) return undefined;
      call.sent();
      this.inFlight++;
      this.options.onEvent?.({ type: 'call-start', step: sent, inFlight: this.inFlight });
      started = performance.now();
      try {
        return { lesson: await sendStep(this.options.client, sent) };
      } catch (error) {
        if (error instanceof SchoolApiError && error.status === 401) this.unauthorized = true;
        return { error };
      } finally {
        this.inFlight--;
      }
    });
    if (answer === undefined) return skip(this.stopReason() ?? 'interrupted');
    const ms = Math.round(performance.now() - started);

    if ('error' in answer) {
      const error = asError(answer.error);
      if (isUncertain(sent, answer.error)) {
        await call.uncertain();
        return { outcome: { status: 'uncertain', step, error, ms }, nextRecorded: false };
      }
      await call.failed(answer.error);
      return { outcome: { status: 'failed', step, error, ms }, nextRecorded: false };
    }
    const { id, section_id, position } = answer.lesson;
    const mismatch = mismatchOf(step, answer.lesson);
    if (mismatch) this.mismatches.push(mismatch);
    const nextRecorded = await call.done(answer.lesson, mismatch, this.stopReason() === undefined ? next : undefined);
    return { outcome: { status: 'done', step, lesson: { id, section_id, position }, ms, mismatch }, nextRecorded };
  }

  /** The calls of one chain in order; once one does not end `done`, the rest are skipped (they were planned relative to it). */
  async chain(chain: readonly CallStep[], outcomes: Map<string, CallOutcome>): Promise<void> {
    let stop: SkipReason | undefined;
    let recorded = false;
    for (const [i, step] of chain.entries()) {
      let outcome: CallOutcome;
      const blocked = this.options.blocked?.get(step.call_id);
      if (stop !== undefined) {
        outcome = { status: 'skipped', step, reason: stop };
      } else if (blocked !== undefined) {
        // Never sent, so nothing to record: the next plan proposes the call again.
        await this.lifecycle(step).skipped(recorded);
        recorded = false;
        outcome = { status: 'failed', step, error: blocked, ms: 0 };
        stop = 'chain-failed';
      } else {
        try {
          const ran = await this.call(step, recorded, chain[i + 1]);
          outcome = ran.outcome;
          recorded = ran.nextRecorded;
        } catch (e) {
          // The state could not be written: stop every chain; the file keeps the last good state.
          this.stateError ??= e;
          outcome = { status: 'skipped', step, reason: 'interrupted' };
        }
        if (outcome.status === 'skipped') stop = outcome.reason;
        else if (outcome.status !== 'done') stop = 'chain-failed';
      }
      outcomes.set(step.call_id, outcome);
      this.options.onEvent?.({ type: 'call-end', outcome, inFlight: this.inFlight });
    }
  }
}

/**
 * Run the calls of `plan` against the school, recording every one in `options.store`.
 * Never throws for a failed call (it is an outcome); throws only when the state cannot be
 * written, which stops everything (the file keeps the last good state).
 */
export async function applyPlan(plan: Plan, options: ApplyPlanOptions): Promise<ApplyResult> {
  const steps = new Map<string, CallStep>();
  for (const c of plan.changes) if (isCall(c)) steps.set(c.call_id, c);
  const run = new Run(options);
  const outcomes = new Map<string, CallOutcome>();
  await Promise.all(
    plan.chains.map((chain) => run.chain(chain.steps.map((id) => steps.get(id)).filter((s): s is CallStep => s !== undefined), outcomes)),
  );
  if (run.stateError !== undefined) throw run.stateError;
  const ordered: CallOutcome[] = [];
  for (const [id, step] of steps) ordered.push(outcomes.get(id) ?? { status: 'skipped', step, reason: 'interrupted' });
  // Interrupted only when the signal kept a call from starting (a Ctrl-C after the last call is not).
  const interrupted = options.signal?.aborted === true && ordered.some((o) => o.status === 'skipped' && o.reason === 'interrupted');
  return { outcomes: ordered, mismatches: run.mismatches, interrupted };
}
