/**
 * What an apply records in the state once the run is confirmed, before its first call (one
 * write), whether a call is made or not: the lineage of a first state, the school, the
 * environment's stamp, the keys `--replace` forgets, renamed files, sections resolved by name,
 * drift that needs no call (the live lesson becomes the recorded one, so it settles) and
 * renamed keys.
 */
import type { DesiredState } from '../model/desired.js';
import type { LiveLesson } from '../plan/diff-live.js';
import type { Plan } from '../plan/plan-schema.js';
import { isCall } from '../plan/plan-steps.js';
import type { StateData } from '../model/state/schema.js';
import { stampEnvironment } from '../state/stamp-environment.js';
import type { BuiltPlan } from '../sync/build-plan.js';
import type { ApplySession } from './apply-options.js';

/** The state-only changes of a plan, found before the confirmation. */
export interface StateOnlyChanges {
  /** Drifted lessons (--refresh) with no call: the school already holds the repo's values, or only positions moved. */
  settled: Array<LiveLesson & { key: string }>;
  /** Tracked lessons whose file was renamed or moved, keeping its key. */
  movedFiles: Array<{ key: string; path: string }>;
  /** Keys `--replace` forgets. */
  replaced: ReadonlyArray<{ key: string }>;
}

/** Live lessons of drift steps whose key has no call in the plan. */
function driftWithoutCall(plan: Plan, live: BuiltPlan['live']): Array<LiveLesson & { key: string }> {
  if (!live) return [];
  const called = new Set(plan.changes.filter(isCall).map((c) => ('state_key' in c ? c.state_key : c.key)));
  const out: Array<LiveLesson & { key: string }> = [];
  for (const c of plan.changes) {
    const l = c.action === 'drift' && !called.has(c.key) ? live.get(c.key) : undefined;
    if (l) out.push({ ...l, key: c.key });
  }
  return out;
}

/** Tracked lessons whose file was renamed or moved: the state records the path it has now. */
function renamedFiles(desired: DesiredState, state: Readonly<StateData>): Array<{ key: string; path: string }> {
  const out: Array<{ key: string; path: string }> = [];
  for (const p of desired.programs) {
    for (const s of p.sections) {
      for (const l of s.lessons) {
        const entry = state.lessons[l.key];
        if (entry && entry.id !== null && entry.path !== l.path) out.push({ key: l.key, path: l.path });
      }
    }
  }
  return out;
}

export function stateOnlyChanges(built: BuiltPlan, plan: Plan, state: Readonly<StateData>, replaced: ReadonlyArray<{ key: string }>): StateOnlyChanges {
  return { settled: driftWithoutCall(plan, built.live), movedFiles: renamedFiles(built.desired, state), replaced };
}

/** Write what the plan records with no call, in one write (none when there is nothing). */
export async function recordBeforeRun(s: ApplySession, built: BuiltPlan, plan: Plan, changes: StateOnlyChanges): Promise<void> {
  const { settled, movedFiles, replaced } = changes;
  const stateOnly = plan.renames.length > 0 || Object.keys(built.resolvedSections).length > 0 || settled.length > 0 || replaced.length > 0 || movedFiles.length > 0;
  if (!stateOnly && !plan.changes.some(isCall)) return;
  const { store } = s;
  await store.update((d) => {
    // A state file written for the first time takes the plan's lineage, so a plan saved
    // before the first apply still matches it.
    if (!store.existed && d.serial === 0) d.lineage = plan.state.lineage;
    d.base_url = s.baseUrl;
    if (s.environment !== undefined) stampEnvironment(d, s.environment, built.desired);
    for (const { key } of replaced) delete d.lessons[key];
    for (const { key, path } of movedFiles) d.lessons[key] = { ...d.lessons[key]!, path };
    Object.assign(d.sections, built.resolvedSections);
    for (const l of settled) {
      const entry = d.lessons[l.key];
      if (entry) d.lessons[l.key] = { ...entry, section_id: l.section_id, position: l.position, response: l.response };
    }
    for (const r of plan.renames) {
      const entry = d.lessons[r.from];
      if (!entry || d.lessons[r.to]) continue;
      d.lessons[r.to] = entry;
      delete d.lessons[r.from];
    }
  });
}
