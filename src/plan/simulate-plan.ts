/**
 * Replay a plan's calls on the state's positions with the shared position model (PURE). Tests
 * use it to check that a plan yields the desired order with exact predictions. (Apply keeps the
 * state's positions from the school's answers instead: src/apply/record-call.ts placeInState.)
 */
import { placementOf } from '../school-api/positions.js';
import type { StateData } from '../model/state/schema.js';
import type { CallStep, Plan } from './plan-schema.js';
import { isCall } from './plan-steps.js';
import { SchoolSlots } from './section-slots.js';

export interface SimulatedLesson {
  /** The repo key (state key for lessons the plan does not mention). */
  key: string;
  position: number;
}

/** Seed a simulation with the state's lessons (by key), of the sections `only` keeps (default all). */
export function slotsFromState(state: StateData, only?: (sectionId: string) => boolean): SchoolSlots {
  const sim = new SchoolSlots();
  for (const key in state.lessons) {
    const l = state.lessons[key]!;
    if (l.id !== null && l.position !== null && (only === undefined || only(l.section_id))) sim.seed(key, l.section_id, l.position);
  }
  return sim;
}

/** Run one call on a simulation and return the lesson's resulting position. */
export function simulateCall(sim: SchoolSlots, step: CallStep): number {
  const from = sim.sectionOf(step.key);
  const target = step.request.section_id ?? from ?? step.section_id;
  const placement = placementOf({
    kind: step.action === 'create' ? 'create' : 'update',
    position: step.request.position,
    sectionChanged: from !== undefined && from !== target,
  });
  return sim.moveTo(step.key, target, placement);
}

/**
 * Apply every call of `plan` (chain by chain, steps in order) to the positions in `state`.
 * Returns each section's lessons in position order, and the calls whose predicted position
 * differed from the simulated one (empty for a correct plan). With `only`, just the sections it
 * keeps are simulated: exact for them when every call's sections are among them.
 */
export function simulatePlan(
  state: StateData,
  plan: Plan,
  only?: (sectionId: string) => boolean,
): { sections: Map<string, SimulatedLesson[]>; mispredicted: string[] } {
  const sim = slotsFromState(state, only);
  for (const r of plan.renames) sim.rename(r.from, r.to);
  const byId = new Map<string, CallStep>();
  for (const c of plan.changes) if (isCall(c)) byId.set(c.call_id, c);
  const mispredicted: string[] = [];
  for (const chain of plan.chains) {
    for (const id of chain.steps) {
      const step = byId.get(id);
      if (!step) continue;
      const got = simulateCall(sim, step);
      if (step.position !== null && got !== step.position) mispredicted.push(id);
    }
  }
  const sections = new Map<string, SimulatedLesson[]>();
  for (const [id, list] of sim.snapshot()) sections.set(id, list.map(({ lesson, position }) => ({ key: lesson, position })));
  return { sections, mispredicted };
}
