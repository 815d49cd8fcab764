/**
 * The first phase of an apply, before any request: the state checked to be this environment's,
 * the repo compiled once (reusing what the state knows of unchanged lessons, except those
 * `--replace` forgets, which are created anew from their HTML; nothing with `--refresh`, which
 * may send a drifted body back), the school resolved and connected, and a saved plan of another
 * environment refused.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { DEFAULT_CONCURRENCY } from '../model/config.js';
import type { Plan } from '../plan/plan-schema.js';
import { createSchoolClient } from '../school/client.js';
import { resolveConnection } from '../school/connection.js';
import { checkStateEnvironment } from '../state/check-environment.js';
import type { StateStore } from '../state/state-store.js';
import { compileRepo } from '../sync/build-plan.js';
import type { ApplyCourseOptions, ApplySession } from './apply-options.js';
import { withoutKeys } from './replace-lessons.js';

/** Start an apply of `dir` with the state `store` locked. */
export async function openApply(dir: string, options: ApplyCourseOptions, store: StateStore): Promise<ApplySession> {
  const env = options.env ?? process.env;
  const environment = options.environment;
  // A state of another environment is refused before what it knows is reused, and before any request.
  checkStateEnvironment(store.data, store.file, environment);
  const known = options.refresh ? undefined : options.replace?.length ? withoutKeys(store.data, options.replace) : store.data;
  const course = await compileRepo(dir, { env, state: known, environment });
  checkStateEnvironment(store.data, store.file, environment, course.desired);
  const connection = resolveConnection({ flags: options, config: course.desired.config, env, environment });
  const client = options.client ?? createSchoolClient({ baseUrl: connection.baseUrl, token: connection.token, timeoutMs: connection.timeoutMs });
  if (options.savedPlan) refuseOtherEnvironment(options.savedPlan, environment);
  return {
    dir,
    options,
    store,
    env,
    notice: options.onNotice ?? (() => {}),
    environment,
    course,
    baseUrl: connection.baseUrl,
    client,
    concurrency: options.concurrency ?? course.desired.config.apply?.concurrency ?? DEFAULT_CONCURRENCY,
    htmlOnly: options.htmlOnly ?? 'all',
  };
}

/** A saved plan made for another environment (or for none) is stale before anything is read. */
function refuseOtherEnvironment(saved: { plan: Plan; file: string }, environment: string | undefined): void {
  const made = saved.plan.environment;
  if (made === environment) return;
  const madeFor = made === undefined ? 'no environment' : `the environment ${made}`;
  const now = environment === undefined ? 'a repo without environments' : `the environment ${environment}`;
  throw failure('apply/stale-plan', { file: saved.file, why: `it was made for ${madeFor}, not ${now}` });
}

/** Flags that cannot go with a saved plan (it was made without them), refused before the lock. */
export function refuseWithSavedPlan(options: ApplyCourseOptions): void {
  if (!options.savedPlan) return;
  if (options.recreate?.length) throw failure('apply/recreate-with-plan', { key: options.recreate[0]! });
  if (options.replace?.length) throw failure('apply/replace-with-plan', { key: options.replace[0]! });
}
