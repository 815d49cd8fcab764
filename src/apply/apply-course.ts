/**
 * The apply composer: lock the state → resolve calls an interrupted apply left pending →
 * `--recreate` → build the plan (the same buildPlan as `coursesync plan`) or check a saved one
 * → confirm → record renames and resolved sections → run the plan → read back lessons whose
 * answers surprised us. The CLI (src/cli/apply.ts) and the demo call this; it prints nothing.
 */
import { CoursesyncError } from '../diagnostics/errors.js';
import type { DesiredState } from '../model/desired.js';
import { buildPlan, compileRepo, type BuiltPlan } from '../sync/build-plan.js';
import type { StateData } from '../state/schema.js';
import { verifySections } from '../sync/verify-sections.js';
import { resolveConnection, type ConnectionFlags } from '../school/connection.js';
import { isCall, type Plan } from '../plan/plan-schema.js';
import type { LiveLesson } from '../plan/diff-live.js';
import { createSchoolClient, type SchoolClient } from '../school/client.js';
import { StateStore } from '../state/state-store.js';
import { applyPlan, type ApplyEvent, type ApplyResult } from './apply-plan.js';
import { checkSavedPlan } from './check-saved-plan.js';
import { resolvePendingCalls, type LessonLookup, type ResolvePendingResult } from './resolve-pending.js';

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
  confirm?: (plan: Plan, context: { concurrency: number; baseUrl: string }) => Promise<boolean>;
  onEvent?: (event: ApplyEvent) => void;
  /** Told about pending calls resolved at the start, a stale lock taken over, … */
  onNotice?: (message: string) => void;
  signal?: AbortSignal;
  /** A client to use instead of one made from the connection settings (tests). */
  client?: SchoolClient;
}

export interface ApplyCourseResult {
  plan: Plan;
  baseUrl: string;
  concurrency: number;
  /** What the start found pending from an interrupted apply. */
  resolvedAtStart: ResolvePendingResult;
  /** null when nothing was run: no calls, or the confirmation was declined. */
  result: ApplyResult | null;
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

/** Find a repo lesson by key, for filling in the entry of an interrupted create. */
function lookupIn(desired: DesiredState): LessonLookup {
  return (key) => {
    for (const p of desired.programs)
      for (const s of p.sections) for (const l of s.lessons) if (l.key === key) return { program_id: p.id, path: l.path, fields: l.fields };
    return undefined;
  };
}

/**
 * Apply the course repo at `dir` to its school. Failed calls are outcomes in the result, not
 * exceptions; exceptions are user errors (invalid repo, stale plan, no token, locked state, …)
 * raised before any call, or a state file that cannot be written.
 */
export async function applyCourse(dir: string, options: ApplyCourseOptions = {}): Promise<ApplyCourseResult> {
  const env = options.env ?? process.env;
  const notice = options.onNotice ?? (() => {});
  if (options.savedPlan && options.recreate?.length) {
    throw new CoursesyncError('--recreate cannot be used with a saved plan: it changes what the plan must do', {
      code: 'apply/recreate-with-plan',
      hint: `run \`coursesync apply --recreate ${options.recreate[0]}\` without a plan file, or \`coursesync plan --out plan.json\` after resolving the uncertain create`,
    });
  }
  if (options.savedPlan && options.replace?.length) {
    throw new CoursesyncError('--replace cannot be used with a saved plan: it changes what the plan must do', {
      code: 'apply/replace-with-plan',
      hint: `run \`coursesync apply --replace ${options.replace[0]}\` without a plan file`,
    });
  }
  const store = await StateStore.load(dir, { lock: true, force: options.forceUnlock, warn: notice });
  try {
    // Compiled once, the state read once (the locked store's), the school resolved once: every
    // buildPlan below reuses them.
    const course = await compileRepo(dir, env);
    const connection = resolveConnection({ flags: options, config: course.desired.config, env });
    const baseUrl = connection.baseUrl;
    const client = options.client ?? createSchoolClient({ baseUrl, token: connection.token, timeoutMs: connection.timeoutMs });
    const planOptions = {
      refresh: options.refresh,
      concurrency: options.concurrency,
      env,
      verifySections: false,
      course,
      state: { state: store.data as StateData, exists: store.existed },
      school: { baseUrl, client },
    };
    // A lesson to replace may be gone from the school: read live lessons only once it is forgotten.
    let built: BuiltPlan = await buildPlan(dir, options.replace?.length ? { ...planOptions, refresh: false } : planOptions);
    const concurrency = options.concurrency ?? built.desired.config.apply?.concurrency ?? 4;
    if (options.savedPlan) {
      checkSavedPlan(options.savedPlan.plan, {
        file: options.savedPlan.file,
        state: store.data,
        stateExists: store.existed,
        desiredDigest: built.desired.digest,
        baseUrl,
      });
    }
    // Never a create into a section not checked in this run: every id exists and is of its program.
    await verifySections(dir, built.desired, built.sectionIds, client, built.listed);

    // A killed apply's pending calls: learn the truth before planning.
    const resolvedAtStart = await resolvePendingCalls(store, client, { concurrency, lookup: lookupIn(built.desired) });
    const resolvedCount = resolvedAtStart.uncertain.length + resolvedAtStart.refreshed.length;
    if (resolvedCount > 0) {
      if (resolvedAtStart.uncertain.length > 0) notice(`an interrupted apply left ${resolvedAtStart.uncertain.length} create(s) whose outcome is unknown: ${resolvedAtStart.uncertain.join(', ')} (recorded as uncertain)`);
      if (resolvedAtStart.refreshed.length > 0) notice(`an interrupted apply left calls pending: read back ${resolvedAtStart.refreshed.length} lesson(s) from the school to learn their real positions`);
      if (options.savedPlan) {
        throw new CoursesyncError(`the saved plan ${options.savedPlan.file} is stale: the state held calls left pending by an interrupted apply, resolved now; nothing was applied`, {
          code: 'apply/stale-plan',
          hint: 'make a new plan with `coursesync plan --out plan.json`, review it, then run `coursesync apply plan.json`',
        });
      }
    }

    if (options.recreate?.length) {
      for (const key of options.recreate) {
        const entry = store.data.lessons[key];
        if (!entry || entry.id !== null) {
          throw new CoursesyncError(`--recreate ${key}: the state has no uncertain create with that key`, {
            code: 'apply/recreate-unknown',
            hint: 'run `coursesync plan` to see the uncertain creates (marked `?`) and their keys',
          });
        }
      }
      await store.update((d) => {
        for (const key of options.recreate!) delete d.lessons[key];
      });
      notice(`dropped the uncertain create(s) ${options.recreate.join(', ')}: they will be created again`);
    }
    if (options.replace?.length) {
      for (const key of options.replace) {
        const problem = !store.data.lessons[key] ? 'the state tracks no lesson with that key' : !lookupIn(built.desired)(key) ? 'no lesson file of the repo has that key' : undefined;
        if (problem) {
          throw new CoursesyncError(`--replace ${key}: ${problem}`, {
            code: 'apply/replace-unknown',
            hint: '`coursesync state list` shows the tracked keys; --replace creates the lesson of a repo file anew',
          });
        }
      }
      const old = options.replace.map((key) => `${key} (${store.data.lessons[key]!.id ?? 'uncertain'})`);
      await store.update((d) => {
        for (const key of options.replace!) delete d.lessons[key];
      });
      notice(`forgot ${old.join(', ')}: created anew by this apply (an old lesson that still exists in the school is left there, untracked)`);
    }
    if (resolvedCount > 0 || options.recreate?.length || options.replace?.length) built = await buildPlan(dir, planOptions);

    const plan = options.savedPlan?.plan ?? built.plan;
    const calls = plan.changes.filter(isCall).length;
    const base = { plan, baseUrl, concurrency, resolvedAtStart, readBack: null, readBackError: null, stateFile: store.file, settledDrift: [] as string[] };
    // Drift that needs no call (the school already holds the repo's values, or only positions
    // moved and the order still holds): the live lesson becomes the recorded one, so it settles.
    const settled = driftWithoutCall(plan, built.live);
    base.settledDrift = settled.map((l) => l.key);
    const stateOnly = plan.renames.length > 0 || Object.keys(built.resolvedSections).length > 0 || settled.length > 0;

    if (calls > 0 && options.confirm && !(await options.confirm(plan, { concurrency, baseUrl }))) {
      return { ...base, result: null, cancelled: true, serial: store.data.serial, pendingLeft: 0 };
    }
    if (calls > 0 || stateOnly) {
      await store.update((d) => {
        // A state file written for the first time takes the plan's lineage, so a plan saved
        // before the first apply still matches it.
        if (!store.existed && d.serial === 0) d.lineage = plan.state.lineage;
        d.base_url = baseUrl;
        Object.assign(d.sections, built.resolvedSections);
        for (const l of settled) {
          const entry = d.lessons[l.key];
          if (entry) d.lessons[l.key] = { ...entry, section_id: l.section_id, position: l.position, response: { ...l.response } };
        }
        for (const r of plan.renames) {
          const entry = d.lessons[r.from];
          if (!entry || d.lessons[r.to]) continue;
          d.lessons[r.to] = entry;
          delete d.lessons[r.from];
        }
      });
    }
    if (calls === 0) return { ...base, result: null, cancelled: false, serial: store.data.serial, pendingLeft: 0 };

    const result = await applyPlan(plan, { client, store, concurrency, onEvent: options.onEvent, signal: options.signal });

    // Marks left by the run (position mismatches, updates whose outcome is unknown): read back now.
    let readBack: ResolvePendingResult | null = null;
    let readBackError: Error | null = null;
    if (Object.keys(store.data.pending).length > 0 && !options.signal?.aborted) {
      try {
        readBack = await resolvePendingCalls(store, client, { concurrency, lookup: lookupIn(built.desired) });
      } catch (e) {
        readBackError = e instanceof Error ? e : new Error(String(e));
      }
    }
    return { ...base, result, cancelled: false, readBack, readBackError, serial: store.data.serial, pendingLeft: Object.keys(store.data.pending).length };
  } finally {
    await store.close();
  }
}
