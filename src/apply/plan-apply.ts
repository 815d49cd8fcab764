/**
 * The plan of an apply, built once, after the pending records are resolved and the keys to
 * recreate or replace are settled: the same buildPlan as `coursesync plan`, reusing the repo
 * compiled at the start, the locked state and the connected school. A saved plan is checked
 * against it (the same state, repo and school) and applied in its place.
 */
import { selectHtmlOnly, heldBackNote } from '../plan/html-only.js';
import type { Plan } from '../plan/plan-schema.js';
import type { StateData } from '../model/state/schema.js';
import { buildPlan, type BuildPlanOptions, type BuiltPlan } from '../sync/build-plan.js';
import type { ApplySession } from './apply-options.js';
import { checkSavedPlan } from './check-saved-plan.js';

/** buildPlan's options in this apply: nothing compiled, read or resolved again. */
export function planOptionsOf(s: ApplySession, state: StateData, refresh: boolean): BuildPlanOptions {
  return {
    refresh,
    concurrency: s.concurrency,
    env: s.env,
    // Checked by apply itself, after a stale saved plan is refused, and only when there is a call.
    verifySections: false,
    course: s.course,
    state: { state, exists: s.store.existed },
    school: { baseUrl: s.baseUrl, client: s.client },
    environment: s.environment,
    skipPromotionCheck: s.options.skipPromotionCheck,
  };
}

/**
 * Build the plan from `state` (the store's, or a view of it without replaced keys), check a saved
 * plan against it, and select the HTML-only updates asked for.
 * @returns the built plan, and the plan to run (the saved one when given)
 * @throws CoursesyncError `apply/stale-plan` when the saved plan no longer describes the present
 */
export async function planApply(s: ApplySession, state: StateData): Promise<{ built: BuiltPlan; plan: Plan }> {
  const built = await buildPlan(s.dir, planOptionsOf(s, state, s.options.refresh === true));
  const saved = s.options.savedPlan;
  if (saved) {
    checkSavedPlan(saved.plan, { file: saved.file, state: built.state, stateExists: built.stateExists, desiredDigest: built.plan.desired_digest, baseUrl: s.baseUrl });
  }
  const plan = selectHtmlOnly(saved?.plan ?? built.plan, s.htmlOnly);
  const held = heldBackNote(plan);
  if (held) s.notice(held);
  return { built, plan };
}
