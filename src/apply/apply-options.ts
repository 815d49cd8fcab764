/** What applyCourse takes and answers, and what its phases share once the apply has started. */
import type { ConnectionFlags } from '../school/connection.js';
import type { Plan } from '../plan/plan-schema.js';
import type { HtmlOnlySelection } from '../plan/html-only.js';
import type { SchoolClient } from '../school/client.js';
import type { StateStore } from '../state/state-store.js';
import type { CompiledRepo } from '../sync/build-plan.js';
import type { ApplyEvent, ApplyResult } from './apply-plan.js';
import type { ResolvePendingResult } from './resolve-pending.js';

/** What the confirmation is told besides the plan. */
export interface ConfirmContext {
  concurrency: number;
  baseUrl: string;
  /** The text of the files the compile read, as they are (BuiltPlan): showing the plan reads only the others. */
  verbatimText?: ((path: string) => string | undefined) | undefined;
}

export interface ApplyCourseOptions extends ConnectionFlags {
  /** A saved plan (`apply plan.json`) and its file name; without it the plan is built now. */
  savedPlan?: { plan: Plan; file: string };
  /** Read live lessons first and report drift (as `plan --refresh`). */
  refresh?: boolean;
  /** Requests in flight; default coursesync.yaml `apply.concurrency`, else 4. */
  concurrency?: number;
  /** Keys of uncertain creates to drop from state and create again. */
  recreate?: string[];
  /** Keys of tracked lessons to create anew (e.g. deleted in the school); the old entry is forgotten. */
  replace?: string[];
  /** Take the state lock even when another process holds it. */
  forceUnlock?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Shown the plan before any call; answer false to stop without changing anything. */
  confirm?: (plan: Plan, context: ConfirmContext) => Promise<boolean>;
  onEvent?: (event: ApplyEvent) => void;
  /** Told about pending calls resolved at the start, a stale lock taken over, … */
  onNotice?: (message: string) => void;
  signal?: AbortSignal;
  /** A client to use instead of one made from the connection settings (tests). */
  client?: SchoolClient;
  /** Apply even when the plan has error-level learner impact not acknowledged in the repo. */
  acceptImpact?: boolean;
  /** Hold back the updates whose HTML alone changes (`skip`), or send only them (`only`). */
  htmlOnly?: HtmlOnlySelection;
  /** The environment chosen with --env, in a repo with environments (docs/environments.md). */
  environment?: string | undefined;
  /** Apply content not applied to the environment this one is promoted from (said in the plan). */
  skipPromotionCheck?: boolean;
}

export interface ApplyCourseResult {
  plan: Plan;
  baseUrl: string;
  concurrency: number;
  /** What the start found pending from an interrupted apply. */
  resolvedAtStart: ResolvePendingResult;
  /** null when nothing was run: no calls, or the confirmation was declined. */
  result: ApplyResult | null;
  /** The second plan that filled in links to lessons created by the first (its outcomes follow the first's in `result`). */
  linkPlan?: Plan | null;
  cancelled: boolean;
  /** Lessons read back after the run (position mismatches, updates with an unknown outcome). */
  readBack: ResolvePendingResult | null;
  /** A read-back that could not be done: the marks stay in state for the next start. */
  readBackError: Error | null;
  /** The state file and its serial after the run. */
  stateFile: string;
  serial: number;
  /** Pending records left in state (the next apply resolves them). */
  pendingLeft: number;
  /** With --refresh: keys of drifted lessons that needed no call, recorded as the school has them. */
  settledDrift: string[];
}

/** An apply under way: the locked state, the repo compiled once, the school connected. */
export interface ApplySession {
  dir: string;
  options: ApplyCourseOptions;
  store: StateStore;
  env: NodeJS.ProcessEnv;
  notice: (message: string) => void;
  environment: string | undefined;
  course: CompiledRepo;
  baseUrl: string;
  client: SchoolClient;
  concurrency: number;
  /** The selection of HTML-only updates (--skip-html-only, --html-only), `all` by default. */
  htmlOnly: HtmlOnlySelection;
}
