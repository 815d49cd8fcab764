/**
 * The calls of an apply: the plan run against the school (apply-plan.ts) and, when lessons were
 * sent with links to lessons this run created, the link-only pass. Once their ids are in the
 * state, a second plan holds exactly the updates that fill those links in, so one apply is enough.
 */
import type { Plan } from '../plan/plan-schema.js';
import { isCall } from '../plan/plan-steps.js';
import { selectHtmlOnly } from '../plan/html-only.js';
import { buildPlan, type BuiltPlan } from '../sync/build-plan.js';
import type { StateData } from '../model/state/schema.js';
import type { ApplySession } from './apply-options.js';
import { applyPlan, type ApplyResult } from './apply-plan.js';
import { planOptionsOf } from './plan-apply.js';

export interface CallsRun {
  result: ApplyResult;
  /** The link-only plan, when it had calls. */
  linkPlan: Plan | null;
  /** The last plan built: its desired state has every link filled that could be. */
  last: BuiltPlan;
}

/** Whether every call of a run is done and the run was not stopped. */
export const completed = (r: ApplyResult) => r.outcomes.every((o) => o.status === 'done') && !r.interrupted;

/** Run `plan` (its calls in `blocked` fail unsent), then the link-only pass when needed. */
export async function runCalls(s: ApplySession, built: BuiltPlan, plan: Plan, blocked: ReadonlyMap<string, Error>): Promise<CallsRun> {
  const lessonUrl = built.desired.config.school?.lesson_url;
  const run = (p: Plan, held?: ReadonlyMap<string, Error>) =>
    applyPlan(p, { client: s.client, store: s.store, concurrency: s.concurrency, onEvent: s.options.onEvent, signal: s.options.signal, blocked: held, lessonUrl });
  const result = await run(plan, blocked);
  // After a failure (a lesson held back for an unpublished file included), the next apply fills them in.
  if (built.pendingLinks.size === 0 || !completed(result) || s.options.signal?.aborted) return { result, linkPlan: null, last: built };
  // The school was read (with --refresh) before the first pass; what changed since is what this run sent.
  const again = await buildPlan(s.dir, planOptionsOf(s, s.store.data as StateData, false));
  const links = selectHtmlOnly(again.plan, s.htmlOnly);
  // Its desired state has every link filled, calls or not (a link to a lesson created earlier
  // in the same chain was filled when sent): what the builds are recorded from.
  if (!links.changes.some(isCall)) return { result, linkPlan: null, last: again };
  const second = await run(links);
  return {
    result: { outcomes: [...result.outcomes, ...second.outcomes], mismatches: [...result.mismatches, ...second.mismatches], interrupted: second.interrupted },
    linkPlan: links,
    last: again,
  };
}
