/**
 * What a plan was asked beyond the repo's files, and whether the memo may answer it (PURE): a
 * module of its own so that the entry (cli/plan-early.ts) asks the one rule the plan asks,
 * without loading the memo.
 */
import { debugValues } from '../load/timing.js';

/** What a plan was asked, beyond the repo's files. */
export interface PlanQuestion {
  envFlag?: string | undefined;
  baseUrlFlag?: string | undefined;
  tokenFile?: string | undefined;
  refresh?: boolean | undefined;
  skipPromotionCheck?: boolean | undefined;
  env: NodeJS.ProcessEnv;
}

/** Whether a plan of `question` may be answered from, or kept in, the memo (and so reads the repo aside: load/read-aside.ts). */
export function memoizable(question: PlanQuestion): boolean {
  return !question.refresh && question.tokenFile === undefined && debugValues(question.env).every((d) => d === 'timing');
}
