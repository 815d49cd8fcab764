/**
 * A saved plan (`coursesync apply plan.json`) is applied only when it still describes the
 * present: the same state (lineage and serial), the same repo (desired-state digest) and the
 * same school (base URL). Otherwise its positions and ids could be wrong, so it is refused with
 * the reason and the command that makes a fresh one. PURE.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { withoutTrailingSlash } from '../school/base-url.js';
import type { Plan } from '../plan/plan-schema.js';
import type { StateData } from '../model/state/schema.js';


const trimSlash = (u: string | null) => (u === null ? null : withoutTrailingSlash(u));

/**
 * @param plan the saved plan
 * @param now what the plan must match: the state as loaded (and whether its file existed), the
 *   repo's desired digest, the school's base URL
 * @throws CoursesyncError `apply/stale-plan` naming what changed
 */
export function checkSavedPlan(
  plan: Plan,
  now: { file: string; state: StateData; stateExists: boolean; desiredDigest: string; baseUrl: string },
): void {
  const refuse = (why: string) => {
    throw failure('apply/stale-plan', { file: now.file, why });
  };
  if (plan.base_url !== null && trimSlash(plan.base_url) !== trimSlash(now.baseUrl)) {
    refuse(`it was made for ${plan.base_url}, not for ${now.baseUrl}`);
  }
  // No state file yet: a plan made before the first apply (serial 0) is current whatever its
  // lineage (a missing state gets a fresh lineage every time it is read; apply adopts the plan's).
  if (!now.stateExists) {
    if (plan.state.serial !== 0) refuse('it was made from a state file that no longer exists');
  } else if (plan.state.lineage !== now.state.lineage) {
    refuse(`it was made from another state (lineage ${plan.state.lineage}, the state is now ${now.state.lineage})`);
  } else if (plan.state.serial !== now.state.serial) {
    refuse(`the state changed since the plan was made (serial ${plan.state.serial}, now ${now.state.serial}): another apply ran`);
  }
  if (plan.desired_digest !== now.desiredDigest) refuse('the repo changed since the plan was made (lesson files, order or sections)');
}
