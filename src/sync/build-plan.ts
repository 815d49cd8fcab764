/**
 * buildPlan: the composer behind `plan`, `apply` and the clone commands (I/O at the edges of the
 * pure planner): compile the course → read the state → resolve sections given by `name:` →
 * check every section id (with a token) → read live lessons with --refresh → diffCourse. It
 * needs no token except for --refresh and a `name:` section the state has not resolved yet;
 * composers that already compiled, read the state or connected pass those in (apply).
 */
import { sectionSource, type DesiredState } from '../model/desired.js';
import type { LiveLesson } from '../plan/diff-course.js';
import type { DriftStep, Plan } from '../plan/plan-schema.js';
import { nullRecord, type SectionState, type StateData } from '../model/state/schema.js';
import type { SectionFacts } from '../learner/learner-model.js';
import type { Section } from '../school-api/wire/sections.js';
import type { ConnectionFlags } from '../school/connection.js';
import type { SourceTree } from '../model/source-tree.js';
import pLimit from 'p-limit';
import { failure } from '../diagnostics/error-codes/index.js';
import type { CoursesyncError } from '../diagnostics/errors.js';
import { diffCourse } from '../plan/diff-course.js';
import { linkLessons } from '../plan/lesson-links.js';
import { explainReferences } from '../plan/explain-references.js';
import type { SchoolClient } from '../school/client.js';
import { SchoolApiError, SchoolConnectionError } from '../school/errors.js';
import { explainSchoolError, resolveBaseUrl, resolveToken, tokenVariable } from '../school/connection.js';
import { checkBaseUrl, checkStateEnvironment } from '../state/check-environment.js';
import { chosenEnvironment } from '../model/environments.js';
import { contentOf, notPromoted } from '../plan/promotion.js';
import { isCoursesyncError } from '../diagnostics/errors.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { loadCourse } from '../load/load-course.js';
import { renderThreadsFromEnv } from '../load/render-pool.js';
import { responseRecord } from '../model/state/hash-response.js';
import { readStateFile, statePath } from '../state/state-file.js';
import { knownLessonsOf } from '../compile/known-lessons.js';
import type { KnownLessons } from '../compile/compile-course.js';
import { compilerId } from '../load/compiler-id.js';
import { addCallSources } from './call-sources.js';
import { DEFAULT_CONCURRENCY } from '../model/config.js';
import { debugValues, timing } from '../load/timing.js';

export interface BuildPlanOptions extends ConnectionFlags {
  /** Read every tracked lesson live (PATCH /lessons/{id} with `{}`) and report drift. */
  refresh?: boolean;
  /** Requests in flight for --refresh; default: coursesync.yaml apply.concurrency, else 4. */
  concurrency?: number;
  env?: NodeJS.ProcessEnv;
  /**
   * Check section ids against the school when a token is set (default true). Apply turns it off
   * and runs verifySections itself, after refusing a stale saved plan (which sends no request).
   */
  verifySections?: boolean;
  /** The repo already compiled (compileRepo), so a composer compiles it once. */
  course?: CompiledRepo;
  /** The state already read (e.g. the locked StateStore's data), so it is read once. */
  state?: { state: StateData; exists: boolean };
  /** What that `state` knows, already made by knownToThisCompiler (ignored without `state`, and with --refresh). */
  known?: KnownLessons | undefined;
  /** The school already resolved and connected, so the base URL is resolved once. */
  school?: { baseUrl: string; client: SchoolClient };
  /** The environment chosen with --env, in a repo with environments (docs/environments.md). */
  environment?: string | undefined;
  /** The repo's files already read (with the stat index), so they are walked once. */
  source?: SourceTree;
  /** Plan content not applied to the environment this one is promoted from (said in the plan). */
  skipPromotionCheck?: boolean;
}

/** A valid repo, compiled: its desired state and its (warning) diagnostics. */
export interface CompiledRepo {
  desired: DesiredState;
  diagnostics: Diagnostic[];
  /** The text of a lesson file the compile read, when it is the file's very bytes (loadCourse): the plan's sources read no file twice. */
  verbatimText?: (path: string) => string | undefined;
}

/** The lessons `state` knows compiled clean by this very coursesync (its compiler id): what a compile takes unread. */
export async function knownToThisCompiler(state: Readonly<StateData>): Promise<KnownLessons> {
  return knownLessonsOf(state, await compilerId());
}

/**
 * Compile the course repo at `dir` (renderings cached by content digest under
 * .coursesync/cache/; COURSESYNC_RENDER_THREADS sets the threads rendering what is not cached,
 * default every core). With `state`, a lesson whose digest and compiler match the state's
 * record is taken from it, not read, parsed or rendered, cache or no cache.
 * @throws CoursesyncError `course/invalid` with the diagnostics when the repo has errors
 */
export async function compileRepo(dir: string, options: { env?: NodeJS.ProcessEnv; state?: Readonly<StateData> | undefined; known?: KnownLessons | undefined; environment?: string | undefined; source?: SourceTree | undefined } = {}): Promise<CompiledRepo> {
  const { env = process.env, state, environment, source } = options;
  const known = state ? (options.known ?? (await knownToThisCompiler(state))) : undefined;
  const result = await loadCourse(dir, { cache: true, renderThreads: renderThreadsFromEnv(env), known, environment, source });
  // COURSESYNC_DEBUG=compile: how many lesson files compiled (the others came from the state unread).
  if (debugValues(env).includes('compile')) {
    const { counts, unchanged, compiledAnyway } = result;
    process.stderr.write(`debug: ${counts.lessons - unchanged.length} lesson files compiled, ${unchanged.length} known unchanged from the state (${compiledAnyway.length} of them compiled all the same)\n`);
  }
  if (!result.desired) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    throw failure('course/invalid', { dir, errors, action: 'planned' }, { diagnostics: result.diagnostics });
  }
  return { desired: result.desired, diagnostics: result.diagnostics, verbatimText: result.verbatimText };
}

export interface BuiltPlan {
  plan: Plan;
  desired: DesiredState;
  state: StateData;
  /** Whether the state file existed (false: first run, empty state). */
  stateExists: boolean;
  /** Section folder → section, for `name:` sections resolved through the API in this run (apply records them in state). */
  resolvedSections: Record<string, SectionState>;
  /** The school base URL when one is configured. */
  baseUrl: string | undefined;
  /** Section folder → section id, every section of the repo. */
  sectionIds: ReadonlyMap<string, string>;
  /** Program id → its sections, for the programs listed through GET /sections in this run. */
  listed: ReadonlyMap<string, Section[]>;
  /** Lessons sent with links to lessons this plan creates: key → target keys (apply patches them after). */
  pendingLinks: Map<string, string[]>;
  /** With --refresh: the live lessons read, by state key. */
  live: ReadonlyMap<string, LiveLesson> | undefined;
  /** The text of a lesson file the compile read, when it is the file's very bytes: for readPlanSources. */
  verbatimText?: ((path: string) => string | undefined) | undefined;
  /** Whether this build sent a request to the school (then its answer depends on more than files). */
  askedSchool: boolean;
  /** The variable the token is read from (COURSESYNC_TOKEN, or the environment's `token_env`). */
  tokenVariable: string;
}

/**
 * Build the plan for the course repo at `dir`.
 * @throws CoursesyncError for an invalid repo (with its diagnostics), an unreadable state, a
 *   state of another school, or a `name:` section that cannot be resolved.
 */
export async function buildPlan(dir: string, options: BuildPlanOptions = {}): Promise<BuiltPlan> {
  const env = options.env ?? process.env;
  const environment = options.environment;
  const { state, exists } = options.state ?? (await readStateFile(dir, { environment }));
  const file = statePath(dir, environment);
  // Before the compile reuses what the state knows: a state of another environment is refused.
  checkStateEnvironment(state, file, environment);
  // --refresh may send a drifted body back: every lesson is compiled to its HTML then.
  const fromState = options.refresh ? undefined : state;
  const result = options.course ?? (await compileRepo(dir, { env, state: fromState, known: fromState && options.state ? options.known : undefined, environment, source: options.source }));
  const desired = result.desired;
  checkStateEnvironment(state, file, environment, desired);
  const promotion = await checkPromotion(dir, desired, options.skipPromotionCheck === true);
  const connection = { flags: options, config: desired.config, env, environment };

  // The base URL is needed only to talk to the school or to check the state belongs to it.
  let baseUrl: string | undefined = options.school?.baseUrl;
  if (baseUrl === undefined) {
    try {
      baseUrl = resolveBaseUrl(connection);
    } catch (e) {
      // An address that belongs to another environment is refused even when none is needed.
      if (options.refresh || (isCoursesyncError(e) && e.code.startsWith('environment/'))) throw e;
    }
  }
  if (baseUrl !== undefined) checkBaseUrl(state, baseUrl, file);

  // Sections: by id, by a name the state already resolved, or through GET /sections.
  const sectionIds = new Map<string, string>();
  const unresolved: Array<{ path: string; name: string; programId: string; file: string }> = [];
  for (const program of desired.programs) {
    for (const section of program.sections) {
      if ('id' in section.ref) {
        sectionIds.set(section.path, section.ref.id);
        continue;
      }
      const known = state.sections[section.path];
      if (known && known.name === section.ref.name && known.program_id === program.id) sectionIds.set(section.path, known.id);
      else unresolved.push({ path: section.path, name: section.ref.name, programId: program.id, file: sectionSource(section) });
    }
  }

  let client: SchoolClient | undefined = options.school?.client;
  let askedSchool = client !== undefined;
  const connect = async (why: string) => {
    askedSchool = true;
    if (client) return client;
    let token: string;
    try {
      token = resolveToken(connection);
    } catch (e) {
      if (isCoursesyncError(e) && e.code === 'environment/token-mismatch') throw e;
      throw failure('plan/needs-token', { why, byName: unresolved.map((u) => u.path) }, { cause: e });
    }
    if (baseUrl === undefined) baseUrl = resolveBaseUrl(connection);
    // The client and its wire schemas load only here: a plan without a token never asks the school.
    const { createSchoolClient } = await import('../school/client.js');
    client = createSchoolClient({ baseUrl, token, timeoutMs: desired.config.school?.timeout_ms });
    return client;
  };

  const resolvedSections: Record<string, SectionState> = nullRecord();
  const byProgram = new Map<string, Section[]>();
  if (unresolved.length > 0) {
    const first = unresolved[0]!;
    const api = await connect(
      `the section ${first.file} is given by name ("${first.name}")` + (unresolved.length > 1 ? ` (and ${unresolved.length - 1} more)` : ''),
    );
    const { listProgramSections, sectionNamed } = await import('../school/program-sections.js');
    for (const u of unresolved) {
      let list = byProgram.get(u.programId);
      if (!list) byProgram.set(u.programId, (list = await listProgramSections(api, u.programId)));
      const section = sectionNamed(list, u.name, u);
      sectionIds.set(u.path, section.id);
      resolvedSections[u.path] = { id: section.id, name: u.name, program_id: u.programId };
    }
  }

  refuseSectionTwice(desired, sectionIds);

  // Check before any write: every section id exists and is of its folder's program. Needs the
  // school, so a plan without a token says it was skipped (apply always has one).
  const notes: string[] = [];
  const tokenGiven = options.school !== undefined || options.tokenFile !== undefined || (env[tokenVariable(desired.config, environment)] ?? '') !== '';
  if (options.verifySections === false) {
    // The caller checks them itself.
  } else if (tokenGiven && (baseUrl !== undefined || options.baseUrl !== undefined || env.COURSESYNC_BASE_URL)) {
    try {
      const { verifySections } = await import('./verify-sections.js');
      const lists = await verifySections(dir, desired, sectionIds, await connect('checking the section ids'), byProgram);
      for (const [id, list] of lists) if (list !== null) byProgram.set(id, list);
    } catch (e) {
      // An unreachable school does not stop a plan that needs no request otherwise; apply,
      // which needs the school anyway, fails on it.
      if (!(e instanceof SchoolConnectionError)) throw e;
      notes.push(`Section ids were not checked against the school: ${e.message}. Apply checks them before any write.`);
    }
  } else {
    notes.push(
      `Section ids were not checked against the school (${tokenGiven ? 'no school base URL' : env.COURSESYNC_TOKEN === undefined ? 'no API token' : 'COURSESYNC_TOKEN is set but empty'}): a wrong or misplaced id shows up when a token is set (COURSESYNC_TOKEN or --token-file); apply always checks before any write.`,
    );
  }

  let live: Map<string, LiveLesson> | undefined;
  let sections: Map<string, SectionFacts> | undefined;
  if (options.refresh) {
    const api = await connect('--refresh reads every tracked lesson');
    live = await readLiveLessons(api, state, options.concurrency ?? desired.config.apply?.concurrency ?? DEFAULT_CONCURRENCY);
    // The learner impact counts the sections' own drips, publication and order.
    sections = await readSectionFacts(api, desired, byProgram);
  }

  // Links between lessons take their targets' ids from state; the digest stays the repo's.
  const linked = linkLessons(desired, state);
  const compiler = await compilerId();
  const plan = explainReferences(diffCourse(linked.desired, state, { sectionIds, live, baseUrl: baseUrl ?? state.base_url, sections, compiler }), linked.desired, linked.pending);
  timing('plan: diffed');
  if (environment !== undefined) plan.environment = environment;
  if (promotion) plan.promotion_skipped = promotion;
  await addCallSources(plan, state, dir, result.verbatimText);
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
  if (warnings.length > 0) plan.warnings = warnings;
  notes.push(...driftNotes(plan));
  if (notes.length > 0) plan.notes = notes;
  return {
    plan,
    desired: linked.desired,
    state,
    stateExists: exists,
    resolvedSections,
    baseUrl,
    sectionIds,
    listed: byProgram,
    live,
    pendingLinks: linked.pending,
    verbatimText: result.verbatimText,
    askedSchool,
    tokenVariable: tokenVariable(desired.config, environment),
  };
}

/**
 * An environment with `promote_from` plans only the content its source environment applied
 * last (docs/environments.md#promotion): anything else is refused, naming the lessons, unless
 * the check is skipped; then the plan says what was not promoted.
 * @throws CoursesyncError `environment/not-promoted`
 */
async function checkPromotion(dir: string, desired: DesiredState, skip: boolean): Promise<Plan['promotion_skipped']> {
  const from = desired.environment === undefined ? undefined : chosenEnvironment(desired.config, desired.environment).promote_from;
  if (from === undefined) return undefined;
  const source = (await readStateFile(dir, { environment: from })).state;
  checkStateEnvironment(source, statePath(dir, from), from);
  const lessons = notPromoted(desired, contentOf(desired), source.content, from);
  if (skip) return { from, lessons };
  if (lessons.length > 0) throw failure('environment/not-promoted', { environment: desired.environment!, source: from, lessons, commit: source.content?.commit ?? undefined });
  return undefined;
}

/**
 * The sections' drips, publication and order, for the learner impact: from the listings this
 * run already made (`known`), else GET /sections of the program.
 */
export async function readSectionFacts(api: SchoolClient, desired: DesiredState, known: ReadonlyMap<string, Section[]> = new Map()): Promise<Map<string, SectionFacts>> {
  const facts = new Map<string, SectionFacts>();
  const { listProgramSections } = await import('../school/program-sections.js');
  for (const program of desired.programs) {
    const list = known.get(program.id) ?? (await listProgramSections(api, program.id));
    for (const s of list) facts.set(s.id, { drip_delay: s.drip_delay, is_published: s.is_published, position: s.position });
  }
  return facts;
}

/** What drifted, exactly, and the two ways to settle it. */
function driftNotes(plan: Plan): string[] {
  const drifted = plan.changes.filter((c): c is DriftStep => c.action === 'drift');
  if (drifted.length === 0) return [];
  const list = drifted.map((c) => `${c.key} (${c.lesson_id}: ${c.drifted.join(', ')})`).join('; ');
  const first = drifted[0]!;
  return [
    `${drifted.length} lesson${drifted.length === 1 ? ' was' : 's were'} changed in the school since the last apply: ${list}. ` +
      '`coursesync apply --refresh` sends the repo\'s values back (the repo wins); ' +
      `to keep the school's version of a lesson instead, write it into its file with \`coursesync import ${first.lesson_id} --key ${first.key} --write-file\`.`,
  ];
}

/** PATCH /lessons/{id} with `{}` (changes nothing, returns the lesson) for every tracked lesson. */
async function readLiveLessons(
  api: SchoolClient,
  state: StateData,
  concurrency: number,
): Promise<Map<string, LiveLesson>> {
  const limit = pLimit(concurrency);
  const live = new Map<string, LiveLesson>();
  const gone: Array<{ key: string; id: string; path: string }> = [];
  const tracked = Object.entries(state.lessons).filter(([, l]) => l.id !== null);
  await Promise.all(
    tracked.map(([key, l]) =>
      limit(async () => {
        let lesson;
        try {
          lesson = await api.lessons.update(l.id!, {});
        } catch (e) {
          if (e instanceof SchoolApiError && e.status === 404) {
            gone.push({ key, id: l.id!, path: l.path });
            return;
          }
          throw explainSchoolError(e, `lesson ${l.id} (${l.path}, key ${key})`);
        }
        const values = lesson as unknown as Record<string, unknown>;
        live.set(key, { id: lesson.id, section_id: lesson.section_id, position: lesson.position, response: responseRecord(values, l.applied), values });
      }),
    ),
  );
  if (gone.length > 0) throw lessonsGoneError(gone.sort((a, b) => a.key.localeCompare(b.key)));
  return live;
}

/**
 * Tracked lessons the school answers 404 for (deleted there, most often): one error naming
 * each, with the exact commands that settle it.
 */
export function lessonsGoneError(gone: ReadonlyArray<{ key: string; id: string; path: string }>): CoursesyncError {
  return failure('state/lesson-gone', { gone });
}

/**
 * Two folders naming one section the same way are a compile error (repo/duplicate-section);
 * one by `name:` and one by `id:` meet only once names are resolved: refused here, naming both.
 * @throws CoursesyncError `plan/section-twice`
 */
function refuseSectionTwice(desired: DesiredState, sectionIds: ReadonlyMap<string, string>): void {
  const byId = new Map<string, Array<{ path: string; ref: string }>>();
  for (const program of desired.programs) {
    for (const section of program.sections) {
      const id = sectionIds.get(section.path);
      if (id === undefined) continue;
      const ref = 'id' in section.ref ? `id: ${section.ref.id}` : `name: "${section.ref.name}"`;
      byId.set(id, [...(byId.get(id) ?? []), { path: section.path, ref }]);
    }
  }
  for (const [id, folders] of byId) if (folders.length > 1) throw failure('plan/section-twice', { id, folders });
}
