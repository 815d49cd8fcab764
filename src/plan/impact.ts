/**
 * Learner impact of a plan (PURE): what each change means for learners already enrolled, one
 * entry per lesson and rule, by comparing the learner view of the school before the plan (the
 * state) with the view after it (the plan's calls replayed on the state's positions). The rules
 * and their levels are in docs/learner-impact.md; their names in src/model/acknowledge.ts.
 */
import { quoted } from '../diagnostics/diagnostic.js';
import { ackCovers, IMPACT_LEVELS, IMPACT_RULES, type ImpactRule } from '../model/acknowledge.js';
import type { DesiredLesson, DesiredSection, DesiredState, LessonFields } from '../model/desired.js';
import { learnerView, type LearnerLesson, type LearnerProgram, type LearnerLessonInput, type LearnerProgramInput, type LearnerView, type SectionFacts } from '../learner/learner-model.js';
import type { StateData } from '../model/state/schema.js';
import type { Impact, Plan } from './plan-schema.js';
import { simulatePlan } from './simulate-plan.js';

export interface ImpactOptions {
  /** Section folder → section id, as the planner resolved them. */
  sectionIds: ReadonlyMap<string, string>;
  /** What GET /sections said, by section id, when it was read. */
  sections?: ReadonlyMap<string, SectionFacts>;
}

type Placed = Map<string, Array<{ position: number; lesson: LearnerLessonInput }>>;

/** The fields learners see of a lesson (inputOf): an update in place that changes none of them changes neither view. */
const LEARNER_FIELDS: ReadonlySet<string> = new Set<keyof LessonFields>(['name', 'lesson_type', 'drip_delay', 'is_published', 'is_progression_locked']);

/** A call that leaves the learner view as it is: an update in place of fields learners do not see (a body, a description). */
const isQuiet = (c: Plan['changes'][number]): boolean => c.action === 'update' && !c.fields.some((f) => LEARNER_FIELDS.has(f.field));

function inputOf(key: string, path: string, f: LessonFields): LearnerLessonInput {
  return { key, path, name: f.name, lesson_type: f.lesson_type, drip_delay: f.drip_delay, is_published: f.is_published, is_progression_locked: f.is_progression_locked };
}

/**
 * The learner impact of `plan` (made from `desired` and `state`), errors first.
 * @param state the state the plan was made from (positions as the planner saw them)
 */
export function assessImpact(desired: DesiredState, state: StateData, plan: Omit<Plan, 'impact'>, options: ImpactOptions): Impact[] {
  // No call and no rename: the school learners see stays as it is. Building both views of a
  // large school only to find them equal was a tenth of a warm plan (test/bench/README.md).
  if (plan.renames.length === 0 && plan.changes.every(isQuiet)) return [];
  const facts = options.sections ?? new Map<string, SectionFacts>();
  const renamedTo = new Map(plan.renames.map((r) => [r.from, r.to]));
  const desiredByKey = new Map<string, DesiredLesson>();
  // Program and section order: the repo's, then sections only the state knows.
  const programOf = new Map<string, string>();
  const sectionPath = new Map<string, string>();
  const programs: Array<{ id: string; path: string; sections: string[] }> = [];
  const programById = new Map<string, { id: string; path: string; sections: string[] }>();
  const addSection = (programId: string, sectionId: string, path = '') => {
    let p = programById.get(programId);
    if (!p) {
      p = { id: programId, path: programId, sections: [] };
      programById.set(programId, p);
      programs.push(p);
    }
    if (!programOf.has(sectionId)) {
      programOf.set(sectionId, programId);
      p.sections.push(sectionId);
    }
    if (path && !sectionPath.has(sectionId)) sectionPath.set(sectionId, path);
  };
  for (const p of desired.programs) {
    programById.set(p.id, { id: p.id, path: p.path, sections: [] });
    programs.push(programById.get(p.id)!);
    for (const s of p.sections) {
      const id = options.sectionIds.get(s.path) ?? ('id' in s.ref ? s.ref.id : `name:${s.ref.name}`);
      addSection(p.id, id, s.path);
    }
  }
  for (const c of plan.changes) addSection(c.program_id, c.section_id);
  for (const l of Object.values(state.lessons)) if (l.id !== null) addSection(l.program_id, l.section_id);
  // Only the programs the plan touches can change for learners: in any other one, every lesson
  // keeps its place and its fields (a lesson whose fields change gets a call), so both views of
  // it are equal and it has no impact. Views are per program (order, drips and locks restart).
  const touched = touchedPrograms(plan, state, programOf);
  const inView = (sectionId: string) => touched.has(programOf.get(sectionId) ?? '');
  // The repo's lessons the views hold: every key looked up below is of a touched program. A
  // settled section's lessons are the state's entries at their own keys (same path, same fields
  // object): the views take them from the state, as they do a lesson the repo no longer has, and
  // one is made only for what an impact on it acknowledges.
  const settledOf = new Map<string, DesiredSection>();
  for (const p of desired.programs) {
    if (!touched.has(p.id)) continue;
    for (const s of p.sections) {
      if (s.settled) for (const key of s.settled.keys) settledOf.set(key, s);
      else for (const l of s.lessons) desiredByKey.set(l.key, l);
    }
  }
  const desiredOf = (key: string): DesiredLesson | undefined => desiredByKey.get(key) ?? settledOf.get(key)?.lessons.find((l) => l.key === key);

  const viewOf = (placed: Placed): LearnerView =>
    learnerView(
      programs.filter((p) => touched.has(p.id)).map(
        (p): LearnerProgramInput => ({
          id: p.id,
          path: p.path,
          sections: p.sections.map((id) => ({
            id,
            path: sectionPath.get(id) ?? '',
            lessons: (placed.get(id) ?? []).sort((a, b) => a.position - b.position).map((x) => x.lesson),
          })),
        }),
      ),
      facts,
    );
  const place = (placed: Placed, sectionId: string, position: number, lesson: LearnerLessonInput) => {
    const list = placed.get(sectionId) ?? [];
    list.push({ position, lesson });
    placed.set(sectionId, list);
  };

  // Before: the state's lessons where they are, under their repo keys.
  const beforePlaced: Placed = new Map();
  for (const [key, l] of Object.entries(state.lessons)) {
    if (l.id === null || l.position === null || !inView(l.section_id)) continue;
    place(beforePlaced, l.section_id, l.position, inputOf(renamedTo.get(key) ?? key, l.path, l.applied));
  }
  // After: the plan's calls replayed; repo lessons with the repo's fields, the others as the state has them.
  const unpublished = new Map<string, boolean>();
  for (const c of plan.changes) if (c.action === 'unpublish') unpublished.set(c.key, c.archived);
  const stateKeyOf = new Map(plan.renames.map((r) => [r.to, r.from]));
  const afterPlaced: Placed = new Map();
  for (const [sectionId, list] of simulatePlan(state, { ...plan, impact: [] }, inView).sections) {
    if (!inView(sectionId)) continue;
    for (const { key, position } of list) {
      const d = desiredByKey.get(key);
      const s = state.lessons[stateKeyOf.get(key) ?? key];
      if (d) place(afterPlaced, sectionId, position, inputOf(key, d.path, d.fields));
      else if (s) place(afterPlaced, sectionId, position, inputOf(key, s.path, unpublished.has(key) ? { ...s.applied, is_published: false } : s.applied));
    }
  }
  const before = viewOf(beforePlaced);
  const after = viewOf(afterPlaced);
  const newLocks = newLocksInFront(before, after);
  const bothVisible = visibleInBoth(before, after);

  const out: Array<Omit<Impact, 'acknowledged'>> = [];
  // `accepts`: the size of a sized rule's impact, which an acknowledgement must name (acknowledge.ts).
  const add = (rule: ImpactRule, l: { key: string; path: string }, message: string, accepts?: string | number) =>
    out.push({ level: IMPACT_RULES[rule], rule, key: l.key, path: l.path, message, ...(accepts === undefined ? {} : { accepts: String(accepts) }) });
  // Quoted as JSON: a name holding a newline or a quote stays on one line, unambiguous.
  const name = (l: LearnerLesson) => quoted(l.name);
  const section = (l: LearnerLesson) => l.sectionPath || `section ${l.sectionId}`;

  for (const a of after.lessons.values()) {
    const b = before.lessons.get(a.key);
    if (!b) {
      const gate = a.lockCount > 0 ? after.programById.get(a.programId)!.locks[a.lockCount - 1] : undefined;
      if (a.visible) add('new-lesson', a, `new lesson ${name(a)} unlocks on day ${a.unlockDay}${gate ? `, after the lock of ${gate}` : ''}`);
    } else if (b.visible && !a.visible) {
      if (unpublished.get(a.key) === true) add('archived', a, `${name(a)} is archived into ${section(a)}: learners lose access to it`);
      else add('unpublished', a, `${name(a)} becomes hidden (${a.hiddenBy === 'lesson' ? 'a draft' : `its ${a.hiddenBy} is unpublished`}): learners lose access to it`);
    } else if (!b.visible && a.visible) {
      if (b.hiddenBy === 'lesson') add('published', a, `draft ${name(a)} is published and unlocks on day ${a.unlockDay}`);
    } else if (b.visible && a.visible) {
      if (a.lesson_type !== b.lesson_type) add('type-change', a, `${name(a)} changes type from ${b.lesson_type} to ${a.lesson_type}`, a.lesson_type);
      const days = `unlocks on day ${a.unlockDay} instead of ${b.unlockDay}`;
      if (a.unlockDay > b.unlockDay) {
        if (a.sectionId !== b.sectionId && a.sectionDrip > b.sectionDrip) add('later-section', a, `${name(a)} moves to ${section(a)}, which unlocks later: it ${days} (content learners could open becomes locked again)`, a.unlockDay);
        else add('drip-grows', a, `${name(a)} ${days} (content learners could open becomes locked again)`, a.unlockDay);
      } else if (a.unlockDay < b.unlockDay) {
        add('calendar-shift', a, `${name(a)} ${days} (the unlock calendar of ${section(a)} shifts)`);
      }
      const passed = newLocks(a, b);
      if (passed.length > 0) add('behind-lock', a, `${name(a)} moves behind the progression lock of ${passed.join(', ')}: learners must complete it first`);
    }
    if (a.locks && b?.locks !== true) {
      const { count, first } = bothVisible(a);
      if (count > 0) {
        const names = first.join(', ') + (count > first.length ? ` and ${count - first.length} more` : '');
        add('lock-added', a, `a progression lock on ${name(a)} now gates ${count} published lesson${count === 1 ? '' : 's'} after it until learners complete it: ${names}`, count);
      }
    }
  }
  const identity = identityChanges(plan, state, before, desiredByKey);
  out.push(...identity.impacts);

  const acknowledged = (i: Omit<Impact, 'acknowledged'>, also: string | undefined) =>
    (desiredOf(i.key)?.acknowledge ?? []).some((token) => ackCovers(token, i.rule, i.accepts)) ||
    (desired.config.acknowledge ?? []).some((a) => ackCovers(a.rule, i.rule, i.accepts) && (a.lesson === i.key || a.lesson === also));
  return out
    .map((i) => ({ ...i, acknowledged: acknowledged(i, identity.from.get(i.key) ?? stateKeyOf.get(i.key)) }))
    .sort((x, y) => IMPACT_LEVELS.indexOf(x.level) - IMPACT_LEVELS.indexOf(y.level) || x.path.localeCompare(y.path) || x.rule.localeCompare(y.rule));
}

/**
 * The programs a plan touches: those of every section a change comes from or goes to (a
 * section's program as the views place it, `programOf`), and of every renamed lesson; a quiet
 * update (isQuiet) touches none.
 */
function touchedPrograms(plan: Omit<Plan, 'impact'>, state: StateData, programOf: ReadonlyMap<string, string>): Set<string> {
  const touched = new Set<string>();
  const section = (id: string | undefined) => {
    const program = id === undefined ? undefined : programOf.get(id);
    if (program !== undefined) touched.add(program);
  };
  for (const c of plan.changes) {
    if (isQuiet(c)) continue;
    touched.add(c.program_id);
    section(c.section_id);
    if (c.action === 'move') {
      touched.add(c.from.program_id);
      section(c.from.section_id);
    }
    if (c.action === 'unpublish') section(c.from_section_id);
  }
  for (const r of plan.renames) {
    const prior = state.lessons[r.from];
    if (prior) {
      touched.add(prior.program_id);
      section(prior.section_id);
    }
  }
  return touched;
}

/**
 * For a lesson before (b) and after (a) the plan: the locks that existed before and stand in
 * front of it only after. Linear in the course in the usual case (the locks that stay keep
 * their order: fronts are prefixes, compared by counts); a per-lesson set otherwise.
 */
function newLocksInFront(before: LearnerView, after: LearnerView): (a: LearnerLesson, b: LearnerLesson) => string[] {
  // Per program: the locks counted both before and after, in order, and prefix counts over the program's locks.
  const persistent = (view: LearnerView, other: LearnerView) => {
    const m = new Map<string, { seq: string[]; prefix: number[] }>();
    for (const p of view.programs) {
      const prefix = [0];
      const seq: string[] = [];
      for (const k of p.locks) {
        const kept = other.lessons.get(k)?.locks === true;
        if (kept) seq.push(k);
        prefix.push(prefix.at(-1)! + (kept ? 1 : 0));
      }
      m.set(p.id, { seq, prefix });
    }
    return m;
  };
  const pa = persistent(after, before);
  const pb = persistent(before, after);
  const same = new Map<string, boolean>();
  return (a, b) => {
    if (a.lockCount === 0) return [];
    const A = pa.get(a.programId)!;
    const B = pb.get(b.programId)!;
    const pair = `${b.programId}\0${a.programId}`;
    let equal = same.get(pair);
    if (equal === undefined) {
      equal = a.programId === b.programId && A.seq.length === B.seq.length && A.seq.every((k, i) => k === B.seq[i]);
      same.set(pair, equal);
    }
    const nowIn = A.prefix[a.lockCount]!;
    if (equal) {
      const wasIn = B.prefix[b.lockCount]!;
      return nowIn > wasIn ? A.seq.slice(wasIn, nowIn) : [];
    }
    const front = new Set(B.seq.slice(0, B.prefix[b.lockCount]!));
    return A.seq.slice(0, nowIn).filter((k) => !front.has(k));
  };
}

/** For a lesson after the plan: how many later lessons of its program learners could see before and still can, and the first three. */
function visibleInBoth(before: LearnerView, after: LearnerView): (a: LearnerLesson) => { count: number; first: string[] } {
  const suffix = new Map<string, number[]>();
  const both = (x: LearnerLesson) => x.visible && before.lessons.get(x.key)?.visible === true;
  const suffixOf = (p: LearnerProgram) => {
    let s = suffix.get(p.id);
    if (!s) {
      s = new Array<number>(p.lessons.length + 1).fill(0);
      for (let i = p.lessons.length - 1; i >= 0; i--) s[i] = s[i + 1]! + (both(p.lessons[i]!) ? 1 : 0);
      suffix.set(p.id, s);
    }
    return s;
  };
  return (a) => {
    const p = after.programById.get(a.programId)!;
    const count = suffixOf(p)[a.order + 1]!;
    const first: string[] = [];
    for (let i = a.order + 1; i < p.lessons.length && first.length < Math.min(3, count); i++) if (both(p.lessons[i]!)) first.push(p.lessons[i]!.key);
    return { count, first };
  };
}

/**
 * A create paired with a visible lesson the same plan leaves behind (same file, or same name):
 * the key changed without `aliases`, so learners lose their progress. `from`: new key → old key.
 */
function identityChanges(
  plan: Omit<Plan, 'impact'>,
  state: StateData,
  before: LearnerView,
  desiredByKey: ReadonlyMap<string, DesiredLesson>,
): { impacts: Array<Omit<Impact, 'acknowledged'>>; from: Map<string, string> } {
  const from = new Map<string, string>();
  const removed = plan.changes.filter((c) => (c.action === 'orphan' || c.action === 'unpublish') && before.lessons.get(c.key)?.visible === true);
  const impacts: Array<Omit<Impact, 'acknowledged'>> = [];
  const taken = new Set<string>();
  const byPath = new Map<string, typeof removed>();
  const byName = new Map<string, typeof removed>();
  for (const r of removed) {
    byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
    const name = state.lessons[r.key]?.applied.name;
    if (name !== undefined) byName.set(name, [...(byName.get(name) ?? []), r]);
  }
  for (const c of plan.changes) {
    if (c.action !== 'create') continue;
    const name = desiredByKey.get(c.key)?.fields.name;
    const free = (list: typeof removed | undefined) => list?.find((r) => !taken.has(r.key));
    const old = free(byPath.get(c.path)) ?? (name === undefined ? undefined : free(byName.get(name)));
    if (!old) continue;
    from.set(c.key, old.key);
    taken.add(old.key);
    impacts.push({
      level: IMPACT_RULES['identity-change'],
      rule: 'identity-change',
      key: c.key,
      path: c.path,
      message:
        `the key changes from ${old.key} to ${c.key}: the school gets a new lesson and ${old.key} is ${old.action === 'orphan' ? 'left orphaned' : 'unpublished'}, ` +
        `so learners lose their progress; add \`aliases: [${old.key}]\` to keep the lesson`,
    });
  }
  return { impacts, from };
}
