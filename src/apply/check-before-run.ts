/**
 * The last checks before an apply's first call, in order: learner impact not acknowledged is
 * refused, lessons whose files are not published are held back, every section id is checked
 * against the school, and the person (or `--yes`) confirms. With no call to make, none of the
 * school checks is made (an unchanged re-apply sends no request).
 */
import { refuseUnacknowledgedImpact } from '../plan/impact-gate.js';
import type { Plan } from '../plan/plan-schema.js';
import { isCall } from '../plan/plan-steps.js';
import type { BuiltPlan } from '../sync/build-plan.js';
import { verifySections } from '../sync/verify-sections.js';
import type { ApplySession } from './apply-options.js';
import { blockUnpublished } from './unpublished-assets.js';

/**
 * @returns the calls held back (unpublished files), each with its error
 * @throws CoursesyncError for unacknowledged impact, every call held back, or a wrong section id
 */
export async function checkBeforeRun(s: ApplySession, built: BuiltPlan, plan: Plan): Promise<Map<string, Error>> {
  refuseUnacknowledgedImpact(plan, s.options.acceptImpact === true);
  const blocked = await blockUnpublished(plan, built.desired);
  // Never a call into a section not checked in this run: every id exists and is of its program.
  if (plan.changes.some(isCall)) await verifySections(s.dir, built.desired, built.sectionIds, s.client, built.listed);
  return blocked;
}

/** Whether the run may go on: asked only when there is a call to make. */
export async function confirmRun(s: ApplySession, built: BuiltPlan, plan: Plan): Promise<boolean> {
  if (!s.options.confirm || !plan.changes.some(isCall)) return true;
  return s.options.confirm(plan, { concurrency: s.concurrency, baseUrl: s.baseUrl, verbatimText: built.verbatimText });
}
