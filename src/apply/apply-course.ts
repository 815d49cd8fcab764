/**
 * The apply composer: lock the state → compile the repo once → build the plan (the same
 * buildPlan as `coursesync plan`) or check a saved one → resolve calls an interrupted apply left
 * pending → `--recreate` / `--replace` (the old lesson checked gone, planned without it) →
 * refuse unacknowledged learner impact → hold back lessons whose files are not published →
 * check the section ids → confirm → forget the replaced keys and record renames, resolved
 * sections and settled drift → run the plan (and, when lessons linked to lessons it
 * created, the link-only pass) → read back lessons whose answers surprised us. The CLI
 * (src/cli/apply.ts) and the demo call this; it prints nothing.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import type { UnpublishedFile } from '../diagnostics/error-codes/state.js';
import type { DesiredState, LessonAsset } from '../model/desired.js';
import { findUnpublished } from '../assets/check-published.js';
import { assetsByLesson } from '../assets/lesson-assets.js';
import { buildPlan, compileRepo, type BuiltPlan } from '../sync/build-plan.js';
import type { StateData } from '../model/state/schema.js';
import { verifySections } from '../sync/verify-sections.js';
import { resolveConnection, type ConnectionFlags } from '../school/connection.js';
import { isCall, type Plan } from '../plan/plan-schema.js';
import { refuseUnacknowledgedImpact } from '../plan/impact-gate.js';
import type { LiveLesson } from '../plan/diff-live.js';
import { createSchoolClient, type SchoolClient } from '../school/client.js';
import { StateStore } from '../state/state-store.js';
import { applyPlan, type ApplyEvent, type ApplyResult } from './apply-plan.js';
import { checkSavedPlan } from './check-saved-plan.js';
import { heldBackNote, selectHtmlOnly, type HtmlOnlySelection } from '../plan/html-only.js';
import { findRepoLesson } from '../plan/uncertain-create.js';
import { resolvePendingCalls, type LessonLookup, type ResolvePendingResult } from './resolve-pending.js';
import { recordBuilds } from './record-builds.js';
import { checkReplaced, withoutKeys } from './replace-lessons.js';
import { compilerId } from '../load/compiler-id.js';
import { DEFAULT_CONCURRENCY } from '../model/config.js';
import { checkStateEnvironment } from '../state/check-environment.js';
import { stampEnvironment } from '../state/stamp-environment.js';
import { contentOf } from '../plan/promotion.js';
import { headCommit } from '../source/git-commit.js';
import { nullRecord } from '../model/state/schema.js';

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

/** A built plan with its HTML-only updates selected (--skip-html-only, --html-only). */
function selectBuilt(built: BuiltPlan, selection: HtmlOnlySelection): BuiltPlan {
  return { ...built, plan: selectHtmlOnly(built.plan, selection) };
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

/**
 * Every asset of a lesson whose body or description this plan sends must answer 200 at its URL
 * first: a lesson is never sent pointing at a file nobody serves. Returns, per call of such a
 * lesson, which of its files do not answer; empty when all answer.
 */
async function findUnpublishedAssets(plan: Plan, desired: DesiredState): Promise<Map<string, UnpublishedFile[]>> {
  const unpublished = new Map<string, UnpublishedFile[]>();
  const base = desired.config.assets?.base_url;
  if (base === undefined) return unpublished;
  const byLesson = assetsByLesson(desired);
  const sending = plan.changes.filter(isCall).filter((step) => step.request.body !== undefined || step.request.description !== undefined);
  const needed = new Map<string, LessonAsset>();
  for (const step of sending) for (const asset of byLesson.get(step.key) ?? []) needed.set(asset.name, asset);
  if (needed.size === 0) return unpublished;
  const missing = new Map((await findUnpublished(base, [...needed.values()])).map((m) => [m.asset.name, m]));
  if (missing.size === 0) return unpublished;
  for (const step of sending) {
    // Named by the lesson's own path to the file (files with the same bytes share one URL).
    const own = (byLesson.get(step.key) ?? []).flatMap((a) => {
      const m = missing.get(a.name);
      return m ? [{ path: a.path, url: m.url, reason: m.reason }] : [];
    });
    if (own.length > 0) unpublished.set(step.call_id, own);
  }
  return unpublished;
}

/**
 * Tracked lessons whose file was renamed or moved, keeping its key: the state records the path
 * it has now (so `state list` and later lines show it), whether a call is made or not.
 */
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

/** Find a repo lesson by key, for filling in the entry of an interrupted create. */
function lookupIn(desired: DesiredState): LessonLookup {
  return (key) => findRepoLesson(desired, key);
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
    throw failure('apply/recreate-with-plan', { key: options.recreate[0]! });
  }
  if (options.savedPlan && options.replace?.length) {
    throw failure('apply/replace-with-plan', { key: options.replace[0]! });
  }
  const environment = options.environment;
  const store = await StateStore.load(dir, { lock: true, force: options.forceUnlock, warn: notice, environment });
  const result = await applyLocked(dir, options, store, env, notice, environment).finally(() => store.close());
  // A journal left unfolded: state.json lacks this run's changes, and a workflow must not commit it.
  if (store.foldError) throw failure('state/fold-failed', { file: store.file, journal: store.journalFile, reason: store.foldError.message }, { cause: store.foldError });
  return result;
}

/** applyCourse with the state locked (the caller closes the store). */
async function applyLocked(dir: string, options: ApplyCourseOptions, store: StateStore, env: NodeJS.ProcessEnv, notice: (message: string) => void, environment: string | undefined): Promise<ApplyCourseResult> {
  // Compiled once, the state read once (the locked store's), the school resolved once: every
  // buildPlan below reuses them.
  // --refresh may send a drifted body back: every lesson is compiled to its HTML then.
  // A state of another environment is refused before what it knows is reused, and before any request.
  checkStateEnvironment(store.data, store.file, environment);
  const course = await compileRepo(dir, env, options.refresh ? undefined : store.data, environment);
  checkStateEnvironment(store.data, store.file, environment, course.desired);
  const connection = resolveConnection({ flags: options, config: course.desired.config, env, environment });
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
    environment,
    skipPromotionCheck: options.skipPromotionCheck,
  };
  // A lesson to replace may be gone from the school: read live lessons only once it is forgotten.
  let built: BuiltPlan = await buildPlan(dir, options.replace?.length ? { ...planOptions, refresh: false } : planOptions);
  const concurrency = options.concurrency ?? built.desired.config.apply?.concurrency ?? DEFAULT_CONCURRENCY;
  if (options.savedPlan && options.savedPlan.plan.environment !== environment) {
    const made = options.savedPlan.plan.environment;
    throw failure('apply/stale-plan', { file: options.savedPlan.file, why: `it was made for ${made === undefined ? 'no environment' : `the environment ${made}`}, not ${environment === undefined ? 'a repo without environments' : `the environment ${environment}`}` });
  }
  if (options.savedPlan) {
    checkSavedPlan(options.savedPlan.plan, {
      file: options.savedPlan.file,
      state: store.data,
      stateExists: store.existed,
      desiredDigest: built.desired.digest,
      baseUrl,
    });
  }
  // A killed apply's pending calls: learn the truth before planning.
  const resolvedAtStart = await resolvePendingCalls(store, client, { concurrency, lookup: lookupIn(built.desired) });
  const resolvedCount = resolvedAtStart.uncertain.length + resolvedAtStart.refreshed.length;
  if (resolvedCount > 0) {
    if (resolvedAtStart.uncertain.length > 0) notice(`an interrupted apply left ${resolvedAtStart.uncertain.length} create(s) whose outcome is unknown: ${resolvedAtStart.uncertain.join(', ')} (recorded as uncertain)`);
    if (resolvedAtStart.refreshed.length > 0) notice(`an interrupted apply left calls pending: read back ${resolvedAtStart.refreshed.length} lesson(s) from the school to learn their real positions`);
    if (options.savedPlan) {
      throw failure('apply/stale-plan', { file: options.savedPlan.file, why: 'the state held calls left pending by an interrupted apply, resolved now' });
    }
  }

  if (options.recreate?.length) {
    for (const key of options.recreate) {
      const entry = store.data.lessons[key];
      if (!entry || entry.id !== null) {
        throw failure('apply/recreate-unknown', { key });
      }
    }
    await store.update((d) => {
      for (const key of options.recreate!) delete d.lessons[key];
    });
    notice(`dropped the uncertain create(s) ${options.recreate.join(', ')}: they will be created again`);
  }
  // --replace: the old lessons must be gone; planned without them, forgotten only once the run is confirmed.
  const replaced = options.replace?.length ? await checkReplaced(options.replace, store.data, lookupIn(built.desired), client) : [];
  if (replaced.length > 0) {
    const view = withoutKeys(store.data, options.replace!);
    notice(`${replaced.map((r) => `${r.key} (${r.id})`).join(', ')} ${replaced.length === 1 ? 'is' : 'are'} gone from the school: this apply creates ${replaced.length === 1 ? 'it' : 'them'} anew`);
    // A forgotten lesson is created anew from its HTML: compiled again without what the state knew of it.
    if (!options.refresh) planOptions.course = await compileRepo(dir, env, view, environment);
    built = await buildPlan(dir, { ...planOptions, state: { state: view, exists: store.existed } });
  } else if (resolvedCount > 0 || options.recreate?.length) {
    built = await buildPlan(dir, planOptions);
  }

  const plan = selectHtmlOnly(options.savedPlan?.plan ?? built.plan, options.htmlOnly ?? 'all');
  const held = heldBackNote(plan);
  if (held) notice(held);
  const calls = plan.changes.filter(isCall).length;
  const base = { plan, baseUrl, concurrency, resolvedAtStart, readBack: null, readBackError: null, stateFile: store.file, settledDrift: [] as string[] };
  // Drift that needs no call (the school already holds the repo's values, or only positions
  // moved and the order still holds): the live lesson becomes the recorded one, so it settles.
  const settled = driftWithoutCall(plan, built.live);
  base.settledDrift = settled.map((l) => l.key);
  const movedFiles = renamedFiles(built.desired, store.data);
  const stateOnly = plan.renames.length > 0 || Object.keys(built.resolvedSections).length > 0 || settled.length > 0 || replaced.length > 0 || movedFiles.length > 0;
  refuseUnacknowledgedImpact(plan, options.acceptImpact === true);

  // Lessons whose images or files are not published are not sent; when that is every call,
  // apply stops here and says so.
  const unpublished = calls > 0 ? await findUnpublishedAssets(plan, built.desired) : new Map<string, UnpublishedFile[]>();
  const assetBase = built.desired.config.assets?.base_url ?? '';
  if (unpublished.size > 0 && unpublished.size === calls) {
    const lessons = [...new Map(plan.changes.filter(isCall).map((step) => [step.path, unpublished.get(step.call_id)!])).entries()].map(([path, files]) => ({ path, files }));
    throw failure('apply/assets-unpublished', { lessons, base: assetBase });
  }
  const blocked = new Map([...unpublished].map(([id, files]) => [id, failure('apply/asset-unpublished', { files, base: assetBase })]));

  // Never a call into a section not checked in this run: every id exists and is of its program.
  // (With nothing to send, nothing is checked: an unchanged re-apply sends no request.)
  if (calls > 0) await verifySections(dir, built.desired, built.sectionIds, client, built.listed);

  if (calls > 0 && options.confirm && !(await options.confirm(plan, { concurrency, baseUrl }))) {
    return { ...base, result: null, cancelled: true, serial: store.data.serial, pendingLeft: 0 };
  }
  if (calls > 0 || stateOnly) {
    await store.update((d) => {
      // A state file written for the first time takes the plan's lineage, so a plan saved
      // before the first apply still matches it.
      if (!store.existed && d.serial === 0) d.lineage = plan.state.lineage;
      d.base_url = baseUrl;
      if (environment !== undefined) stampEnvironment(d, environment, built.desired);
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
  if (calls === 0) {
    await recordBuilds(store, dir, built.desired, await compilerId(), new Set(built.pendingLinks.keys()));
    if (plan.summary.uncertain === 0 && (options.htmlOnly ?? 'all') === 'all') await recordContent(store, dir, built.desired);
    return { ...base, result: null, cancelled: false, serial: store.data.serial, pendingLeft: 0 };
  }

  const lessonUrl = built.desired.config.school?.lesson_url;
  let result = await applyPlan(plan, { client, store, concurrency, onEvent: options.onEvent, signal: options.signal, blocked, lessonUrl });

  // Links to lessons this run created were sent pending: now that their ids are in state,
  // a second plan holds exactly the updates that fill them in (one apply is enough).
  let linkPlan: Plan | null = null;
  let last = built;
  // After a failure (a lesson held back for an unpublished file included), the next apply fills them in.
  const allDone = result.outcomes.every((o) => o.status === 'done') && !result.interrupted;
  if (built.pendingLinks.size > 0 && allDone && !options.signal?.aborted) {
    // The school was read (with --refresh) before the first pass; what changed since is what this run sent.
    const again = selectBuilt(await buildPlan(dir, { ...planOptions, refresh: false }), options.htmlOnly ?? 'all');
    // Its desired state has every link filled, calls or not (a link to a lesson created
    // earlier in the same chain was filled when sent): what the builds are recorded from.
    last = again;
    if (again.plan.changes.some(isCall)) {
      linkPlan = again.plan;
      const second = await applyPlan(again.plan, { client, store, concurrency, onEvent: options.onEvent, signal: options.signal, lessonUrl });
      result = { outcomes: [...result.outcomes, ...second.outcomes], mismatches: [...result.mismatches, ...second.mismatches], interrupted: second.interrupted };
    }
  }

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
  // The lessons now as the repo says get their digests, so the next plan need not render them.
  if (!options.signal?.aborted) await recordBuilds(store, dir, last.desired, await compilerId(), new Set(last.pendingLinks.keys()));
  // Only a complete apply is something another environment may be promoted from.
  const complete = result.outcomes.every((o) => o.status === 'done') && !result.interrupted && !options.signal?.aborted;
  if (complete && readBackError === null && Object.keys(store.data.pending).length === 0 && plan.summary.uncertain === 0 && (options.htmlOnly ?? 'all') === 'all') {
    await recordContent(store, dir, last.desired);
  }
  return { ...base, result, linkPlan, cancelled: false, readBack, readBackError, serial: store.data.serial, pendingLeft: Object.keys(store.data.pending).length };
}
