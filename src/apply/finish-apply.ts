/**
 * The end of an apply: the lessons the run marked are read back (position mismatches, updates
 * whose outcome is unknown), and the state records how each lesson now in the school was built
 * (so the next plan need not render it) and, after a complete apply of an environment, the
 * content it applied (for the environments promoted from it).
 */
import type { DesiredState } from '../model/desired.js';
import { nullRecord } from '../model/state/schema.js';
import { contentOf } from '../plan/promotion.js';
import { compilerId } from '../load/compiler-id.js';
import { headCommit } from '../source/git-commit.js';
import type { StateStore } from '../state/state-store.js';
import type { BuiltPlan } from '../sync/build-plan.js';
import type { Plan } from '../plan/plan-schema.js';
import type { ApplySession } from './apply-options.js';
import { blobsOfCalls, recordBuilds } from './record-builds.js';
import { lookupIn } from './resolve-at-start.js';
import { resolvePendingCalls, type ResolvePendingResult } from './resolve-pending.js';

/** Read back what the run marked; a read-back that fails leaves its marks for the next start. */
export async function readBackAfterRun(s: ApplySession): Promise<{ readBack: ResolvePendingResult | null; readBackError: Error | null }> {
  if (Object.keys(s.store.data.pending).length === 0 || s.options.signal?.aborted) return { readBack: null, readBackError: null };
  try {
    return { readBack: await resolvePendingCalls(s.store, s.client, { concurrency: s.concurrency, lookup: lookupIn(s.course.desired, s.store) }), readBackError: null };
  } catch (e) {
    return { readBack: null, readBackError: e instanceof Error ? e : new Error(String(e)) };
  }
}

/**
 * Record the builds of `last` (the repo as applied, links filled) and, when `complete` (every
 * call done, nothing left pending or uncertain, every update sent), the content applied. The
 * files of `plan`'s calls are not read again: the plan has their blob ids.
 */
export async function recordAfterRun(s: ApplySession, last: BuiltPlan, plan: Plan, complete: boolean): Promise<void> {
  await recordBuilds(s.store, s.dir, last.desired, await compilerId(), new Set(last.pendingLinks.keys()), blobsOfCalls(plan));
  if (complete && s.htmlOnly === 'all') await recordContent(s.store, s.dir, last.desired);
}

/**
 * Record what an environment applied (its content digests and the git commit) once an apply of
 * it completed, for the environments promoted from it (docs/environments.md#promotion).
 */
async function recordContent(store: StateStore, dir: string, desired: DesiredState): Promise<void> {
  if (store.environment === undefined || (!store.existed && store.data.serial === 0)) return;
  const content = contentOf(desired);
  // The commit that first applied this content: an apply with nothing new writes nothing.
  if (store.data.content?.digest === content.digest) return;
  const commit = await headCommit(dir);
  await store.update((d) => {
    d.content = { digest: content.digest, commit, lessons: nullRecord(content.lessons) };
  });
}
