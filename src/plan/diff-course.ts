/**
 * The planner (PURE): desired state × state (× live lessons with --refresh) → Plan.
 *
 * 1. Match each desired lesson to state by key, else by one of its aliases (a rename keeps the
 *    remote lesson). State entries nobody claims were removed from the repo.
 * 2. Per destination section, keep the maximum-weight subsequence of the lessons that stay there
 *    and are already in desired order (keep-in-order.ts); every other lesson gets a call with an
 *    explicit position: right after its desired predecessor, simulated with the shared position
 *    model so every prediction accounts for the calls before it.
 * 3. Group sections into chains: a lesson leaving a section that has calls of its own ties the
 *    two sections into one sequence (otherwise predictions would depend on timing).
 */
import { failure } from '../diagnostics/error-codes/index.js';
import type { CourseConfig } from '../model/config.js';
import type { DesiredLesson, DesiredState } from '../model/desired.js';
import { nullRecord, type LessonState, type StateData } from '../model/state/schema.js';
import { diffFields, createRequest, revertDrift, updateRequest } from './diff-fields.js';
import { keepInOrder } from './keep-in-order.js';
import {
  PLAN_FORMAT_VERSION,
  type CallStep,
  type Chain,
  type DriftStep,
  type FieldChange,
  type OrphanStep,
  type Plan,
  type PlanChange,
  type PlanSummary,
  type UncertainStep,
} from './plan-schema.js';
import { SchoolSlots } from './section-slots.js';
import { findRepoLesson, uncertainCreateEntry, uncertainHint } from './uncertain-create.js';
import { diffLive, type LiveLesson } from './diff-live.js';
import { assessImpact } from './impact.js';
import { changeCause, changedInputs } from './change-cause.js';
import { placesOf } from '../compile/known-lessons.js';
import type { SectionFacts } from '../learner/learner-model.js';

export type { LiveLesson } from './diff-live.js';

export interface DiffOptions {
  /** Section folder path → section id, for every section (resolved `name:` refs included). */
  sectionIds: ReadonlyMap<string, string>;
  /** With --refresh: live lessons by state key. */
  live?: ReadonlyMap<string, LiveLesson>;
  /** The school the plan is for (recorded in the plan). */
  baseUrl?: string | null;
  /** What GET /sections said (drip, publication, position), by section id, when it was read: for the learner impact. */
  sections?: ReadonlyMap<string, SectionFacts>;
  /** The short digest of the compiler now, to tell a change the compiler alone made (`cause: renderer`). */
  compiler?: string;
}

/** A desired lesson with where it goes and what it was. */
interface Match {
  lesson: DesiredLesson;
  programId: string;
  sectionId: string;
  stateKey: string | null;
  prior: LessonState | null;
  changes: FieldChange[];
  cause?: CallStep['cause'];
  /** What it took in that changed (changedInputs), when its HTML changed. */
  why?: string[];
}

/** What happens to a lesson removed from the repo. */
interface Removal {
  key: string;
  prior: LessonState;
  /** Destination section of an unpublish call, or undefined for no call (orphan / nothing). */
  dest?: string;
}

/**
 * Compute the plan that takes the school from `state` to `desired`.
 * @param desired what the repo says (from loadCourse)
 * @param state the last-applied state (empty on a first run)
 * @param options resolved section ids and, with --refresh, live lessons
 */
export function diffCourse(desired: DesiredState, state: StateData, options: DiffOptions): Plan {
  const drift = options.live ? driftNamedNow(desired, diffLive(state, options.live)) : [];
  const working = planningState(desired, state, options.live);
  const matched = matchLessons(desired, working, options, { placeOf: lazyPlaces(state), drift: new Map(drift.map((d) => [d.key, d])) });
  const removed = removedLessons(working, matched.claimed, desired.config);
  const { kept, hasCalls } = keptInPlace(matched.bySection, removed.removals);
  const sectionOrder = [...new Set([...matched.bySection.keys(), ...removed.removals.map((r) => r.dest!)])];
  const groups = chainsOfSections(sectionOrder, hasCalls, [
    ...matched.matches.filter((m) => m.prior && m.prior.section_id !== m.sectionId).map((m) => [m.prior!.section_id, m.sectionId] as const),
    ...removed.removals.map((r) => [r.prior.section_id, r.dest!] as const),
  ]);
  const { chains, calls } = planCalls(groups, matched, removed.removals, kept, simulationOf(working, matched.renames));
  const uncertain = [...matched.uncertain, ...removed.uncertain].sort((a, b) => a.key.localeCompare(b.key));
  const changes: PlanChange[] = [...calls, ...removed.orphans, ...drift, ...uncertain];
  const plan: Omit<Plan, 'impact'> = {
    format_version: PLAN_FORMAT_VERSION,
    summary: summarize(changes, calls, matched.matches, matched.settled),
    changes,
    chains,
    renames: matched.renames,
    state: { lineage: state.lineage, serial: state.serial },
    desired_digest: desired.digest,
    base_url: options.baseUrl ?? state.base_url,
    refreshed: options.live !== undefined,
  };
  return { ...plan, impact: assessImpact(desired, working, plan, { sectionIds: options.sectionIds, sections: options.sections }) };
}

/** Drift lines name each file as it is now (a renamed file's state entry still has its old path). */
function driftNamedNow(desired: DesiredState, drift: DriftStep[]): DriftStep[] {
  const pathNow = new Map(desired.programs.flatMap((p) => p.sections.flatMap((s) => s.lessons.flatMap((l) => [l.key, ...l.aliases].map((k) => [k, l.path] as const)))));
  return drift.map((d) => ({ ...d, path: pathNow.get(d.key) ?? d.path }));
}

/**
 * The state the planner works from: a create left pending by a killed apply is an uncertain
 * entry (it may or may not exist, like a create apply itself recorded as uncertain), and with
 * --refresh every lesson is where the school really has it (a UI move would otherwise make every
 * prediction in its section wrong). Drift is still judged against the state as recorded.
 */
function planningState(desired: DesiredState, state: StateData, live: ReadonlyMap<string, LiveLesson> | undefined): StateData {
  // Nothing pending, nothing live: the state as recorded (no copy of every lesson), when its record is already key-safe.
  if (live === undefined && Object.keys(state.pending).length === 0 && Object.getPrototypeOf(state.lessons) === null) return state;
  const lessons: Record<string, LessonState> = nullRecord(state.lessons);
  for (const call of Object.values(state.pending)) {
    if (call.action !== 'create' || lessons[call.key]?.id) continue;
    lessons[call.key] = uncertainCreateEntry({ ...call, since: call.started_at }, findRepoLesson(desired, call.key));
  }
  for (const [key, l] of live ?? []) {
    const entry = lessons[key];
    if (entry && entry.id !== null) lessons[key] = { ...entry, section_id: l.section_id, position: l.position };
  }
  return { ...state, lessons };
}

/** Each desired lesson matched to state by key, else by an alias no one else claims (a rename); per section, in desired order. */
function matchLessons(
  desired: DesiredState,
  state: StateData,
  options: DiffOptions,
  facts: { placeOf: (path: string) => string | undefined; drift: ReadonlyMap<string, DriftStep> },
) {
  const desiredKeys = new Set<string>();
  for (const p of desired.programs) for (const s of p.sections) for (const key of s.settled?.keys ?? s.lessons.map((l) => l.key)) desiredKeys.add(key);
  const claimed = new Set<string>();
  const movedLesson = contentMatcher(state, desiredKeys, claimed);
  const matches: Match[] = [];
  const bySection = new Map<string, Match[]>();
  const uncertain: UncertainStep[] = [];
  const renames: Plan['renames'] = [];
  let settled = 0;
  for (const program of desired.programs) {
    for (const section of program.sections) {
      const sectionId = options.sectionIds.get(section.path) ?? ('id' in section.ref ? section.ref.id : undefined);
      if (sectionId === undefined) throw failure('plan/unresolved-section', { path: section.path });
      const list = bySection.get(sectionId) ?? bySection.set(sectionId, []).get(sectionId)!;
      if (section.settled && options.live === undefined && settledInPlace(section.settled.keys, state, sectionId)) {
        for (const key of section.settled.keys) claimed.add(key);
        settled += section.settled.keys.length;
        continue;
      }
      for (const lesson of section.lessons) {
        let stateKey: string | null = state.lessons[lesson.key] ? lesson.key : null;
        if (stateKey === null) {
          stateKey = lesson.aliases.find((a) => state.lessons[a] && !desiredKeys.has(a) && !claimed.has(a)) ?? null;
        }
        const byContent = stateKey === null ? movedLesson(lesson) : null;
        if (byContent !== null) stateKey = byContent;
        const prior = stateKey === null ? null : state.lessons[stateKey]!;
        if (stateKey !== null) claimed.add(stateKey);
        if (stateKey !== null && stateKey !== lesson.key) renames.push(byContent === null ? { from: stateKey, to: lesson.key } : { from: stateKey, to: lesson.key, by: 'content' });
        if (prior && prior.id === null) {
          uncertain.push(uncertainStep(stateKey!, prior, lesson.path));
          continue;
        }
        const drifted = stateKey === null ? undefined : facts.drift.get(stateKey);
        // A lesson known unchanged carries the state's own fields object: nothing to compare.
        const diffed = prior !== null && prior.applied === lesson.fields ? [] : diffFields(prior ? prior.applied : null, lesson.fields);
        const changes = drifted ? revertDrift(drifted.drifted, options.live!.get(stateKey!)!.values, lesson.fields, diffed) : diffed;
        const m: Match = { lesson, programId: program.id, sectionId, stateKey, prior, changes };
        const cause = changeCause(prior, lesson, changes, facts.placeOf, options.compiler);
        if (cause) m.cause = cause;
        const why = cause ? changedInputs(prior, lesson) : [];
        if (why.length > 0) m.why = why;
        matches.push(m);
        list.push(m);
      }
    }
  }
  return { claimed, matches, bySection, uncertain, renames, settled };
}

/**
 * Whether the lessons of a settled section (each known unchanged: its fields are the state's)
 * are all where the state has them, in order: in this section, placed, positions increasing.
 * Then each is matched by its key and kept in place with no call, which is what matching them
 * one by one finds, without a match each.
 */
function settledInPlace(keys: readonly string[], state: StateData, sectionId: string): boolean {
  let last = -Infinity;
  for (const key of keys) {
    const p = state.lessons[key];
    if (!p || p.id === null || p.uncertain || p.section_id !== sectionId || p.position === null || p.position <= last) return false;
    last = p.position;
  }
  return true;
}

/** State entries no desired lesson claimed, per `removed_lessons`: kept as orphans, or unpublished (and archived). */
function removedLessons(state: StateData, claimed: ReadonlySet<string>, config: CourseConfig) {
  const removals: Removal[] = [];
  const orphans: OrphanStep[] = [];
  const uncertain: UncertainStep[] = [];
  // Sort only the keys no one claimed (usually none), not every lesson of the school.
  const unclaimed: string[] = [];
  for (const key in state.lessons) if (!claimed.has(key)) unclaimed.push(key);
  for (const key of unclaimed.sort()) {
    const prior = state.lessons[key]!;
    if (prior.id === null) uncertain.push(uncertainStep(key, prior, prior.path));
    else if (config.removed_lessons === 'keep') {
      orphans.push({ action: 'orphan', key, path: prior.path, lesson_id: prior.id, program_id: prior.program_id, section_id: prior.section_id, position: prior.position, fields: [] });
    } else {
      const dest = config.archive ?? prior.section_id;
      if (dest !== prior.section_id || prior.applied.is_published) removals.push({ key, prior, dest }); // else already done
    }
  }
  return { removals, orphans, uncertain };
}

/**
 * Per destination section, the lessons that stay where they are: the maximum-weight subsequence
 * already in desired order (an unchanged lesson weighs 2, a changed one 1); and the sections with calls.
 */
function keptInPlace(bySection: ReadonlyMap<string, Match[]>, removals: readonly Removal[]) {
  const kept = new Set<Match>();
  const hasCalls = new Set(removals.map((r) => r.dest!));
  for (const [sectionId, list] of bySection) {
    if (unchangedInOrder(list, sectionId)) {
      for (const m of list) kept.add(m);
      continue;
    }
    const staying = list
      .map((m, desiredIndex) => ({ m, desiredIndex }))
      .filter(({ m }) => m.prior !== null && m.prior.section_id === sectionId)
      .sort((a, b) => (a.m.prior!.position ?? Infinity) - (b.m.prior!.position ?? Infinity));
    const keep = keepInOrder(staying.map(({ m, desiredIndex }) => ({ desiredIndex, weight: m.changes.length === 0 ? 2 : 1 })));
    keep.forEach((i) => kept.add(staying[i]!.m));
    if (list.some((m) => !kept.has(m) || m.changes.length > 0)) hasCalls.add(sectionId);
  }
  return { kept, hasCalls };
}

/**
 * Whether every lesson of a section stays in it unchanged and the state already has them in
 * desired order (positions strictly increasing): then all are kept and the section needs no
 * call, which is what keepInOrder finds, without sorting (most sections of most plans).
 */
function unchangedInOrder(list: readonly Match[], sectionId: string): boolean {
  let last = -Infinity;
  for (const m of list) {
    const p = m.prior;
    if (p === null || p.section_id !== sectionId || p.position === null || p.position <= last || m.changes.length > 0) return false;
    last = p.position;
  }
  return true;
}

/** placesOf(state), made on the first lesson whose cause needs it (a body or description change). */
function lazyPlaces(state: StateData): (path: string) => string | undefined {
  let placeOf: ((path: string) => string | undefined) | undefined;
  return (path) => (placeOf ??= placesOf(state))(path);
}

/**
 * The sections with calls, grouped into chains: a lesson leaving a section with calls of its own
 * for another ties the two into one sequence (otherwise predictions would depend on timing).
 * Each chain lists its sections in `sectionOrder`.
 */
function chainsOfSections(sectionOrder: readonly string[], hasCalls: ReadonlySet<string>, departures: ReadonlyArray<readonly [string, string]>): string[][] {
  const root = new Map([...hasCalls].map((s) => [s, s]));
  const find = (s: string): string => (root.get(s) === s ? s : find(root.get(s)!));
  for (const [from, to] of departures) if (from !== to && hasCalls.has(from) && hasCalls.has(to)) root.set(find(from), find(to));
  const groups = new Map<string, string[]>();
  for (const s of sectionOrder) if (hasCalls.has(s)) groups.set(find(s), [...(groups.get(find(s)) ?? []), s]);
  return [...groups.values()];
}

/** The school as the state has it (renamed lessons under their new keys), to predict every call's position. */
function simulationOf(state: StateData, renames: ReadonlyArray<{ from: string; to: string }>): SchoolSlots {
  const sim = new SchoolSlots();
  for (const key in state.lessons) {
    const l = state.lessons[key]!;
    if (l.id !== null && l.position !== null) sim.seed(key, l.section_id, l.position);
  }
  for (const r of renames) sim.rename(r.from, r.to);
  return sim;
}

/** The calls of each chain in order: per section, its desired lessons, then its removals; each simulated. */
function planCalls(groups: readonly string[][], matched: { bySection: ReadonlyMap<string, Match[]> }, removals: readonly Removal[], kept: ReadonlySet<Match>, sim: SchoolSlots) {
  const chains: Chain[] = [];
  const calls: CallStep[] = [];
  for (const sections of groups) {
    const steps: CallStep[] = [];
    for (const sectionId of sections) {
      let pred: string | null = null;
      for (const m of matched.bySection.get(sectionId) ?? []) {
        const step = planLesson(m, kept.has(m), pred, sim);
        pred = m.lesson.key;
        if (step) steps.push(step);
      }
      for (const r of removals) if (r.dest === sectionId) steps.push(planRemoval(r, sim));
    }
    calls.push(...steps);
    chains.push({ sections, steps: steps.map((s) => s.call_id) });
  }
  return { chains, calls };
}

/** Counts by action; a desired lesson with no call is unchanged (`settled`: those of settled sections in place). */
function summarize(changes: readonly PlanChange[], calls: readonly CallStep[], matches: readonly Match[], settled: number): PlanSummary {
  const summary: PlanSummary = { create: 0, update: 0, move: 0, unpublish: 0, orphan: 0, drift: 0, uncertain: 0, unchanged: 0 };
  for (const c of changes) summary[c.action]++;
  const withCall = new Set(calls.map((c) => c.key));
  summary.unchanged = settled + matches.filter((m) => !withCall.has(m.lesson.key)).length;
  return summary;
}

/** The call for one desired lesson, simulated; undefined when it needs none. */
function planLesson(m: Match, isKept: boolean, pred: string | null, sim: SchoolSlots): CallStep | undefined {
  const key = m.lesson.key;
  const common = { key, path: m.lesson.path, program_id: m.programId, section_id: m.sectionId, ...(m.cause ? { cause: m.cause } : {}), ...(m.why ? { why: m.why } : {}) };
  if (isKept) {
    if (m.changes.length === 0) return undefined;
    return {
      action: 'update',
      ...common,
      call_id: `update:${key}`,
      state_key: m.stateKey!,
      lesson_id: m.prior!.id,
      position: sim.positionOf(key) ?? null,
      fields: m.changes,
      request: updateRequest(m.changes, m.lesson.fields),
    };
  }
  const target = pred === null ? 1 : (sim.positionOf(pred) ?? 0) + 1;
  const position = sim.moveTo(key, m.sectionId, { at: target });
  if (m.prior === null) {
    return {
      action: 'create',
      ...common,
      call_id: `create:${key}`,
      lesson_id: null,
      position,
      fields: m.changes,
      request: createRequest(m.lesson.fields, m.sectionId, target),
    };
  }
  const request = { ...updateRequest(m.changes, m.lesson.fields), position: target } as CallStep['request'];
  if (m.prior.section_id !== m.sectionId) request.section_id = m.sectionId;
  return {
    action: 'move',
    ...common,
    call_id: `move:${key}`,
    state_key: m.stateKey!,
    lesson_id: m.prior.id,
    position,
    fields: m.changes,
    from: { program_id: m.prior.program_id, section_id: m.prior.section_id, position: m.prior.position },
    request,
  };
}

/** Unpublish a removed lesson; with `archive`, also move it last into the archive section. */
function planRemoval(r: Removal, sim: SchoolSlots): CallStep {
  const archived = r.dest !== r.prior.section_id;
  const request: CallStep['request'] = {};
  const fields: FieldChange[] = [];
  if (r.prior.applied.is_published) {
    request.is_published = false;
    fields.push({ field: 'is_published', before: true, after: false });
  }
  let position = sim.positionOf(r.key) ?? r.prior.position;
  if (archived) {
    request.section_id = r.dest!;
    request.position = 0;
    position = sim.moveTo(r.key, r.dest!, 'last');
  }
  return {
    action: 'unpublish',
    key: r.key,
    path: r.prior.path,
    lesson_id: r.prior.id,
    program_id: r.prior.program_id,
    section_id: r.dest!,
    position,
    fields,
    call_id: `unpublish:${r.key}`,
    request,
    from_section_id: r.prior.section_id,
    archived,
  };
}

function uncertainStep(key: string, prior: LessonState, path: string): UncertainStep {
  const u = prior.uncertain;
  return {
    action: 'uncertain',
    key,
    path,
    lesson_id: null,
    program_id: prior.program_id,
    section_id: u?.section_id ?? prior.section_id,
    position: null,
    fields: [],
    name: u?.name ?? prior.applied.name,
    since: u?.since ?? '',
    hint: uncertainHint(key),
  };
}

/**
 * A lesson whose key the state does not know (a file moved to a folder that gives it another
 * key) is the state's lesson that no repo lesson claims and whose applied fields it still
 * has, exactly: git's exact rename detection, on what the state records. Null when none or
 * when several such lessons would fit (then nothing is guessed).
 */
function contentMatcher(state: StateData, desiredKeys: ReadonlySet<string>, claimed: ReadonlySet<string>): (lesson: DesiredLesson) => string | null {
  let byName: Map<string, string[]> | undefined;
  return (lesson) => {
    if (byName === undefined) {
      byName = new Map();
      for (const [key, l] of Object.entries(state.lessons)) {
        if (desiredKeys.has(key) || l.id === null) continue;
        const list = byName.get(l.applied.name) ?? [];
        list.push(key);
        byName.set(l.applied.name, list);
      }
    }
    const fits = (byName.get(lesson.fields.name) ?? []).filter((k) => !claimed.has(k) && diffFields(state.lessons[k]!.applied, lesson.fields).length === 0);
    return fits.length === 1 ? fits[0]! : null;
  };
}
