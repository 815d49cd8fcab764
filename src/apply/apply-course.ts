/**
 * The apply composer, one named phase per line: lock the state → open (compile the repo once,
 * connect) → resolve what an interrupted apply left pending → drop the `--recreate` keys → check
 * the `--replace` lessons are gone → build the plan once (or check a saved one against it) →
 * check (impact, unpublished files, section ids) → confirm → record what needs no call → run the
 * calls (and the link-only pass) → read back what surprised us → record builds and content. The
 * CLI (src/cli/apply.ts) and the demo call this; it prints nothing.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { isCall } from '../plan/plan-steps.js';
import { StateStore } from '../state/state-store.js';
import type { ApplyCourseOptions, ApplyCourseResult } from './apply-options.js';
import { checkBeforeRun, confirmRun } from './check-before-run.js';
import { readBackAfterRun, recordAfterRun } from './finish-apply.js';
import { openApply, refuseWithSavedPlan } from './open-apply.js';
import { planApply } from './plan-apply.js';
import { recordBeforeRun, stateOnlyChanges } from './record-before-run.js';
import { replaceLessons } from './replace-lessons.js';
import { dropRecreated, resolveAtStart } from './resolve-at-start.js';
import { completed, runCalls } from './run-calls.js';

export type { ApplyCourseOptions, ApplyCourseResult, ConfirmContext } from './apply-options.js';

/**
 * Apply the course repo at `dir` to its school. Failed calls are outcomes in the result, not
 * exceptions; exceptions are user errors (invalid repo, stale plan, no token, locked state, …)
 * raised before any call, or a state file that cannot be written.
 */
export async function applyCourse(dir: string, options: ApplyCourseOptions = {}): Promise<ApplyCourseResult> {
  refuseWithSavedPlan(options);
  const store = await StateStore.load(dir, { lock: true, force: options.forceUnlock, warn: options.onNotice ?? (() => {}), environment: options.environment });
  const result = await applyLocked(dir, options, store).finally(() => store.close());
  // A journal left unfolded: state.json lacks this run's changes, and a workflow must not commit it.
  if (store.foldError) throw failure('state/fold-failed', { file: store.file, journal: store.journalFile, reason: store.foldError.message }, { cause: store.foldError });
  return result;
}

/** applyCourse with the state locked (the caller closes the store). */
async function applyLocked(dir: string, options: ApplyCourseOptions, store: StateStore): Promise<ApplyCourseResult> {
  const s = await openApply(dir, options, store);
  const resolvedAtStart = await resolveAtStart(s);
  await dropRecreated(s);
  const { replaced, state } = await replaceLessons(s);
  const { built, plan } = await planApply(s, state);
  const changes = stateOnlyChanges(built, plan, store.data, replaced);
  const pendingLeft = () => Object.keys(store.data.pending).length;
  const base = { plan, baseUrl: s.baseUrl, concurrency: s.concurrency, resolvedAtStart, readBack: null, readBackError: null, stateFile: store.file, settledDrift: changes.settled.map((l) => l.key) };
  const blocked = await checkBeforeRun(s, built, plan);
  if (!(await confirmRun(s, built, plan))) return { ...base, result: null, cancelled: true, serial: store.data.serial, pendingLeft: 0 };
  await recordBeforeRun(s, built, plan, changes);
  if (!plan.changes.some(isCall)) {
    await recordAfterRun(s, built, plan, plan.summary.uncertain === 0);
    return { ...base, result: null, cancelled: false, serial: store.data.serial, pendingLeft: 0 };
  }
  const { result, linkPlan, last } = await runCalls(s, built, plan, blocked);
  const { readBack, readBackError } = await readBackAfterRun(s);
  // Only a complete apply is something another environment may be promoted from; a stopped one records nothing more.
  if (!options.signal?.aborted) await recordAfterRun(s, last, plan, completed(result) && readBackError === null && pendingLeft() === 0 && plan.summary.uncertain === 0);
  return { ...base, result, linkPlan, cancelled: false, readBack, readBackError, serial: store.data.serial, pendingLeft: pendingLeft() };
}
