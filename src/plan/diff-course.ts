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
import { DEFAULT_LESSON_FIELDS, type DesiredLesson, type DesiredState, type LessonFields } from '../model/desired.js';
import { nullRecord, type LessonState, type StateData } from '../state/schema.js';
import { diffFields, createRequest, revertDrift, updateRequest } from './diff-fields.js';
import { keepInOrder } from './keep-in-order.js';
import {
  PLAN_FORMAT_VERSION,
  type CallStep,
  type Chain,
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
import { changeCause } from './change-cause.js';
import { placesOf } from '../state/known-lessons.js';
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
  const config: CourseConfig = desired.config;
  const desiredKeys = new Set<string>();
  for (const p of desired.programs) for (const s of p.sections) for (const l of s.lessons) desiredKeys.add(l.key);

  // A create left pending by a killed apply may or may not exist: uncertain, like a create
  // that apply itself recorded as uncertain. Treat it as a state entry with no id.
  const lessonsInState: Record<string, LessonState> = nullRecord(state.lessons);
  for (const call of Object.values(state.pending)) {
    if (call.action !== 'create' || lessonsInState[call.key]?.id) continue;
    lessonsInState[call.key] = uncertainCreateEntry({ ...call, since: call.started_at }, findRepoLesson(desired, call.key));
  }
  // With --refresh, plan positions from where lessons really are (a UI move would otherwise
  // make every prediction in that section wrong); drift is still judged against the state.
  const recorded = state;
  if (options.live) {
    for (const [key, l] of options.live) {
      const entry = lessonsInState[key];
      if (entry && entry.id !== null) lessonsInState[key] = { ...entry, section_id: l.section_id, position: l.position };
    }
  }
  state = { ...state, lessons: lessonsInState };
  const drift = options.live ? diffLive(recorded, options.live) : [];
  const placeOf = placesOf(recorded);
  const driftByKey = new Map(drift.map((d) => [d.key, d]));

  // 1. Matching.
  const claimed = new Set<string>();
  const movedLesson = contentMatcher(state, desiredKeys, claimed);
  const matches: Match[] = [];
  const sectionOrder: string[] = [];
  const desiredBySection = new Map<string, Match[]>();
  const uncertain: UncertainStep[] = [];
  const renames: Plan['renames'] = [];
  for (const program of desired.programs) {
    for (const section of program.sections) {
      const sectionId = options.sectionIds.get(section.path) ?? ('id' in section.ref ? section.ref.id : undefined);
      if (sectionId === undefined) {
        throw failure('plan/unresolved-section', { path: section.path });
      }
      if (!desiredBySection.has(sectionId)) {
        desiredBySection.set(sectionId, []);
        sectionOrder.push(sectionId);
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
        let changes = diffFields(prior ? prior.applied : null, lesson.fields);
        const drifted = stateKey === null ? undefined : driftByKey.get(stateKey);
        if (drifted) changes = revertDrift(drifted.drifted, options.live!.get(stateKey!)!.values, lesson.fields, changes);
        const m: Match = { lesson, programId: program.id, sectionId, stateKey, prior, changes };
        const cause = changeCause(prior, lesson, changes, placeOf, options.compiler);
        if (cause) m.cause = cause;
        matches.push(m);
        desiredBySection.get(sectionId)!.push(m);
      }
    }
  }

  // Removed lessons, per policy.
  const removals: Removal[] = [];
  const orphans: OrphanStep[] = [];
  for (const key of Object.keys(state.lessons).sort()) {
    if (claimed.has(key)) continue;
    const prior = state.lessons[key]!;
    if (prior.id === null) {
      uncertain.push(uncertainStep(key, prior, prior.path));
      continue;
    }
    if (config.removed_lessons === 'keep') {
      orphans.push({
        action: 'orphan',
        key,
        path: prior.path,
        lesson_id: prior.id,
        program_id: prior.program_id,
        section_id: prior.section_id,
        position: prior.position,
        fields: [],
      });
      continue;
    }
    const dest = config.archive ?? prior.section_id;
    if (dest === prior.section_id && !prior.applied.is_published) continue; // already done
    removals.push({ key, prior, dest });
  }

  // 2. Which lessons stay in place, per destination section.
  const kept = new Set<Match>();
  const hasCalls = new Set<string>();
  for (const [sectionId, list] of desiredBySection) {
    const staying = list
      .map((m, desiredIndex) => ({ m, desiredIndex }))
      .filter(({ m }) => m.prior !== null && m.prior.section_id === sectionId)
      .sort((a, b) => (a.m.prior!.position ?? Infinity) - (b.m.prior!.position ?? Infinity));
    const keep = keepInOrder(staying.map(({ m, desiredIndex }) => ({ desiredIndex, weight: m.changes.length === 0 ? 2 : 1 })));
    keep.forEach((i) => kept.add(staying[i]!.m));
    if (list.some((m) => !kept.has(m) || m.changes.length > 0)) hasCalls.add(sectionId);
  }
  for (const r of removals) hasCalls.add(r.dest!);
  for (const r of removals) if (!sectionOrder.includes(r.dest!)) sectionOrder.push(r.dest!);

  // 3. Chains: union sections linked by a departure from a section with calls of its own.
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  for (const s of hasCalls) parent.set(s, s);
  const link = (from: string, to: string) => {
    if (from !== to && hasCalls.has(from) && hasCalls.has(to)) parent.set(find(from), find(to));
  };
  for (const m of matches) if (m.prior && m.prior.section_id !== m.sectionId) link(m.prior.section_id, m.sectionId);
  for (const r of removals) link(r.prior.section_id, r.dest!);
  const groups = new Map<string, string[]>();
  for (const s of sectionOrder) {
    if (!hasCalls.has(s)) continue;
    const root = find(s);
    groups.set(root, [...(groups.get(root) ?? []), s]);
  }

  // Simulate the school, seeded from state (renamed lessons under their new keys).
  const sim = new SchoolSlots();
  for (const [key, l] of Object.entries(state.lessons)) if (l.id !== null && l.position !== null) sim.seed(key, l.section_id, l.position);
  for (const r of renames) sim.rename(r.from, r.to);

  const chains: Chain[] = [];
  const calls: CallStep[] = [];
  for (const sections of groups.values()) {
    const steps: string[] = [];
    for (const sectionId of sections) {
      let pred: string | null = null;
      for (const m of desiredBySection.get(sectionId) ?? []) {
        const step = planLesson(m, kept.has(m), pred, sim);
        pred = m.lesson.key;
        if (step) {
          calls.push(step);
          steps.push(step.call_id);
        }
      }
      for (const r of removals.filter((x) => x.dest === sectionId)) {
        const step = planRemoval(r, sim);
        calls.push(step);
        steps.push(step.call_id);
      }
    }
    chains.push({ sections, steps });
  }

  const changes: PlanChange[] = [...calls, ...orphans, ...drift, ...uncertain.sort((a, b) => a.key.localeCompare(b.key))];
  const summary: PlanSummary = { create: 0, update: 0, move: 0, unpublish: 0, orphan: 0, drift: 0, uncertain: 0, unchanged: 0 };
  for (const c of changes) summary[c.action]++;
  const withCall = new Set(calls.map((c) => c.key));
  summary.unchanged = matches.filter((m) => !withCall.has(m.lesson.key)).length;
  const plan: Omit<Plan, 'impact'> = {
    format_version: PLAN_FORMAT_VERSION,
    summary,
    changes,
    chains,
    renames,
    state: { lineage: state.lineage, serial: state.serial },
    desired_digest: desired.digest,
    base_url: options.baseUrl ?? state.base_url,
    refreshed: options.live !== undefined,
  };
  return { ...plan, impact: assessImpact(desired, state, plan, { sectionIds: options.sectionIds, sections: options.sections }) };
}

/** The call for one desired lesson, simulated; undefined when it needs none. */
function planLesson(m: Match, isKept: boolean, pred: string | null, sim: SchoolSlots): CallStep | undefined {
  const key = m.lesson.key;
  const common = { key, path: m.lesson.path, program_id: m.programId, section_id: m.sectionId, ...(m.cause ? { cause: m.cause } : {}) };
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
