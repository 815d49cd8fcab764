/**
 * checkSavedPlan: a saved plan is applied only while it describes the present (same school,
 * same state by lineage and serial, same repo by desired digest); each way it can be stale is
 * refused with `apply/stale-plan` naming what changed, and a current plan passes.
 */
import { describe, expect, it } from 'vitest';
import { checkSavedPlan } from '../../src/apply/check-saved-plan.js';
import { emptyState, type StateData } from '../../src/model/state/schema.js';
import { diffCourse } from '../../src/plan/diff-course.js';
import type { Plan } from '../../src/plan/plan-schema.js';
import { desiredOf, LINEAGE, sectionIdsOf, stateOf } from '../plan/build-course.js';

const URL_NOW = 'https://school.example.com/api/v1';
const desired = desiredOf({ prog_a: { sec_1: ['a', 'b', 'c'] } });
const state = stateOf({ prog_a: { sec_1: ['a', 'b'] } });
/** A real plan of `desired` against `from` (one create), as `coursesync plan --out` saves it. */
const planOf = (from: StateData, baseUrl = URL_NOW): Plan => diffCourse(desired, from, { sectionIds: sectionIdsOf(desired), baseUrl });

const now = (over: Partial<Parameters<typeof checkSavedPlan>[1]> = {}) => ({
  file: 'plan.json',
  state,
  stateExists: true,
  desiredDigest: planOf(state).desired_digest,
  baseUrl: URL_NOW,
  ...over,
});

/** The `why` of the refusal, or 'current' when the plan passes. */
function verdict(plan: Plan, at: Parameters<typeof checkSavedPlan>[1]): string {
  try {
    checkSavedPlan(plan, at);
    return 'current';
  } catch (e) {
    expect(e).toMatchObject({ code: 'apply/stale-plan' });
    return (e as Error).message;
  }
}

describe('checkSavedPlan', () => {
  it('passes a plan of this state, repo and school, whatever the trailing slash of the URL', () => {
    expect(planOf(state).changes.filter((c) => c.action === 'create')).toHaveLength(1);
    expect(verdict(planOf(state), now())).toBe('current');
    expect(verdict(planOf(state, `${URL_NOW}/`), now())).toBe('current');
    expect(verdict(planOf(state), now({ baseUrl: `${URL_NOW}//` }))).toBe('current');
  });

  it('refuses a plan made for another school', () => {
    expect(verdict(planOf(state, 'https://other.example.com/api/v1'), now())).toBe(
      'the saved plan plan.json is stale: it was made for https://other.example.com/api/v1, not for https://school.example.com/api/v1; nothing was applied',
    );
  });

  it('refuses a plan once another apply has written the state (serial), or the state is another (lineage)', () => {
    expect(verdict(planOf(state), now({ state: { ...state, serial: state.serial + 1 } }))).toMatch(/the state changed since the plan was made \(serial 3, now 4\): another apply ran/);
    const other = { ...state, lineage: '11111111-1111-4111-8111-111111111111' };
    expect(verdict(planOf(state), now({ state: other }))).toMatch(`it was made from another state (lineage ${LINEAGE}, the state is now 11111111-1111-4111-8111-111111111111)`);
  });

  it('refuses a plan when the repo changed', () => {
    // The digest of the desired state as compiled now (the caller computes it from the repo).
    expect(verdict(planOf(state), now({ desiredDigest: 'e'.repeat(64) }))).toMatch(/the repo changed since the plan was made/);
  });

  it('without a state file: a plan made before the first apply is current whatever its lineage; one made from a state is not', () => {
    const fresh = emptyState(LINEAGE);
    const firstPlan = planOf(fresh);
    const readAgain = emptyState('22222222-2222-4222-8222-222222222222'); // a missing state gets a new lineage per read
    expect(verdict(firstPlan, now({ state: readAgain, stateExists: false, desiredDigest: firstPlan.desired_digest }))).toBe('current');
    expect(verdict(planOf(state), now({ state: readAgain, stateExists: false }))).toMatch(/it was made from a state file that no longer exists/);
  });
});
