/**
 * The kinds of a plan's steps, apart from the zod schemas of plan-schema.ts (which re-exports
 * them): the renderings need these, and a plan answered from the memo then loads no zod.
 */
import type { Action, CallStep, PlanChange } from './plan-schema.js';

export const ACTIONS = ['create', 'update', 'move', 'unpublish', 'orphan', 'drift', 'uncertain'] as const satisfies readonly Action[];

/** Whether a change sends a request. */
export function isCall(change: PlanChange): change is CallStep {
  return change.action === 'create' || change.action === 'update' || change.action === 'move' || change.action === 'unpublish';
}
