/**
 * Source files → desired state (PURE): find programs, sections and lessons by their folders,
 * compile every file, check keys across the repo and lesson order, and report every problem
 * at once. The desired state exists only when there is no error.
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { sortDiagnostics, hasErrors } from '../diagnostics/diagnostic.js';
import { CourseConfigSchema, DEFAULT_CONFIG, type CourseConfig, type Vars } from '../model/config.js';
import { effectiveConfig, environmentNames, environmentProblems, type IdPerEnvironment } from '../model/environments.js';
import type { DesiredLesson, DesiredProgram, DesiredSection, DesiredState, SectionRef } from '../model/desired.js';
import { ProgramFileSchema } from '../model/program.js';
import { presentKeys } from '../model/field-rules.js';
import { SECTION_REF_RULE, SectionFileSchema } from '../model/section.js';
import type { LessonSource, SourceTree } from '../model/source-tree.js';
import { diag } from './codes.js';
import { compareNatural } from './natural-order.js';
import { compileLesson, type CompiledLesson, type RenderFn } from './compile-lesson.js';
import { compileYamlFile } from './compile-yaml-file.js';
import { checkDuplicateKeys, orderLessons, type LessonOrder } from './order-lessons.js';
import { applyIgnore, unmatchedPatterns } from './ignore-paths.js';
import { isMissingSetting, summarizeMissingSettings } from './missing-settings.js';
import { assignKeys } from './lesson-keys.js';
import { parseSummary } from './summary-toc.js';
import { suggest } from './suggest.js';
import type { ParsedYaml } from './parse-yaml.js';
import { resolveRefs, type RepoIndex, type ResolvedLesson } from './resolve-refs.js';
import { assetFileName } from '../model/assets.js';
import type { LessonDefaults } from '../model/lesson.js';
import { DEFAULT_LESSON_FIELDS, type LessonFields } from '../school-api/school-rules.js';
import { depsNow, lessonDigest, lessonSettings, type LessonBuildInputs, type LessonDep } from './lesson-digest.js';
import { expandLesson, isPartial } from './expand-lesson.js';
import type { IncludeFiles } from './expand-includes.js';

export interface CompileCounts {
  programs: number;
  sections: number;
  lessons: number;
}

export interface CompileResult {
  /** Undefined when there is any error. */
  desired?: DesiredState;
  /** Paths of the lessons known unchanged from the state's digests: not read, parsed or rendered. */
  unchanged: string[];
  /** Sorted by file, line, column, code. */
  diagnostics: Diagnostic[];
  counts: CompileCounts;
}

/** A lesson file with what compiling it gave. */
export interface LessonEntry {
  source: LessonSource;
  compiled: CompiledLesson;
  /** Its references resolved against the repo (when it compiled cleanly). */
  resolved?: ResolvedLesson;
  /** The lesson defaults it inherits. */
  defaults: LessonDefaults;
  /** What its digest covers, once it compiled with no diagnostic. */
  build?: LessonBuildInputs;
  /** Known unchanged (its digest matches the state's): compiled and resolved from the state's record. */
  known?: true;
}

/** A lesson the state recorded as compiled clean by this very compiler (its `compiler` matches). */
export interface KnownLesson {
  key: string;
  aliases: string[];
  acknowledge?: string[];
  /** The fields last applied: body and description as fingerprints. */
  fields: LessonFields;
  /** Repo paths of the files it referenced. */
  deps: string[];
  /** Repo paths of the files its body included, and the names of the variables it used. */
  includes?: string[];
  vars?: string[];
  digest: string;
}

export interface KnownLessons {
  /** By lesson file path. */
  lessons: ReadonlyMap<string, KnownLesson>;
  /** Where the school has the lesson at a path (`program/id`), for the digests of links. */
  placeOf(path: string): string | undefined;
  /** The key the state tracks the lesson at a path under (any lesson, compiled clean or not): keys stay as applied. */
  keyAt?(path: string): string | undefined;
}

interface SectionEntry {
  section?: DesiredSection;
  lessonOrder?: LessonOrder;
  /** A chapter of a book: its lesson files in SUMMARY.md order. */
  tocOrder?: string[];
  /** Its program has `site_url:`, which lesson digests do not cover: its lessons are always compiled. */
  sited?: true;
  defaults?: LessonDefaults;
  /** The defaults its lessons inherit (the repo's under the section's), made once. */
  inherited?: LessonDefaults;
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

export interface CompileOptions {
  /** Markdown renderer (default renderMarkdown): pass a cached one to skip unchanged content. */
  render?: RenderFn;
  /** Lesson compiler (default compileLesson): pass a cached one to skip unchanged files. */
  compileLesson?: typeof compileLesson;
  /**
   * Lessons known from the state: one whose digest (recomputed from its file's digest, the
   * settings it inherits and the digests of the files it references) still matches is taken as
   * recorded, its file's text never read. A lesson that links to it and needs its anchors
   * compiles it then.
   */
  known?: KnownLessons;
  /** What frameCourse found in this very `read` with this `known` (made once, used once), when the caller needed it first. */
  frame?: CourseFrame;
  /** The environment compiled for (`--env`): its settings and ids (docs/environments.md). */
  environment?: string | undefined;
}

/**
 * The first half of a compile: the config, programs and sections, and which lesson files are
 * known unchanged from the state. Compiling consumes it (its diagnostics and counts grow).
 */
export interface CourseFrame {
  /** The files, less the ignored ones. */
  source: SourceTree;
  config: CourseConfig;
  programs: ProgramMap;
  sections: Map<string, SectionEntry>;
  counts: CompileCounts;
  out: Diagnostic[];
  /** Lesson path → its entry as the state records it, for the lessons known unchanged. */
  known: Map<string, LessonEntry>;
  /** The lesson files compile will compile: in a section, not ignored, not known unchanged. What to render ahead. */
  toCompile: LessonSource[];
  /** How each file a lesson may reference is known now (depIndex). */
  depOf: ReturnType<typeof depIndex>;
  /** A lesson as it compiles: includes expanded (made once per lesson; problems reported once). */
  expand: (lesson: LessonSource) => LessonSource;
  /** Lesson file → the key of its section in `sections` (its folder, or its chapter in a book's SUMMARY.md). */
  sectionOf: ReadonlyMap<string, string>;
  /** Books: program folder → the path of its SUMMARY.md. */
  tocs: ReadonlyMap<string, string>;
  /** The key the state tracks a lesson file under (KnownLessons.keyAt). */
  keyAt?: ((path: string) => string | undefined) | undefined;
}

/** The frame of a compile of `read` (PURE): see CourseFrame. */
export function frameCourse(read: SourceTree, known?: KnownLessons, environment?: string): CourseFrame {
  const out: Diagnostic[] = [...read.diagnostics];
  // Counts are of what was found (folders and files), valid or not, so a summary with errors still adds up.
  const counts: CompileCounts = { programs: 0, sections: 0, lessons: 0 };
  const declared = compileConfig(read, out);
  const config = effectiveConfig(declared, environment);
  const ids: IdContext = { environment, declared: environmentNames(declared) };
  const source = applyIgnore(read, config.ignore ?? []);
  const tocs = new Map<string, TocProgram>();
  const programs = compilePrograms(source, counts, out, tocs, ids);
  const sections = compileSections(source, programs, counts, out, tocs, ids);
  const sectionOf = compileTocs(source, tocs, sections, counts, out, ids);
  for (const lesson of source.lessons) {
    if (!sectionOf.has(lesson.path) && !isPartial(lesson.path) && sections.has(dirOf(lesson.path))) sectionOf.set(lesson.path, dirOf(lesson.path));
  }
  const depOf = depIndex(source, sectionOf);
  const summaries = new Map([...tocs].map(([dir, t]) => [dir, t.summary]));
  const varsOf = (lesson: string) => varsOfLesson(lesson, config, programs);
  const expand = expander(source, varsOf, out);
  const frame: CourseFrame = { source, config, programs, sections, counts, out, known: new Map(), toCompile: [], depOf, expand, sectionOf, tocs: summaries, keyAt: known?.keyAt?.bind(known) };
  for (const lesson of source.lessons) {
    const section = sections.get(sectionOf.get(lesson.path) ?? '\0');
    if (!section) continue;
    const entry = section.sited ? undefined : knownEntry(lesson, inheritedDefaults(section, config), { known, config, vars: varsOf(lesson.path) }, depOf);
    if (entry) frame.known.set(lesson.path, entry);
    else frame.toCompile.push(frame.expand(lesson));
  }
  return frame;
}

/** What includes read: lesson files by their text (read once), other files through the reader. */
function includeFiles(source: SourceTree): IncludeFiles {
  const lessons = new Map(source.lessons.map((l) => [l.path, l]));
  const texts = new Map<string, string | undefined>();
  return {
    textOf(path) {
      if (!texts.has(path)) texts.set(path, lessons.get(path)?.text ?? (source.files?.has(path) ? source.readText?.(path) : undefined));
      return texts.get(path);
    },
    paths: () => [...lessons.keys(), ...(source.files?.keys() ?? [])],
  };
}

/** Expand each lesson once; a problem in a partial many lessons include is reported once. */
function expander(source: SourceTree, varsOf: (lesson: string) => Vars, out: Diagnostic[]): (lesson: LessonSource) => LessonSource {
  const files = includeFiles(source);
  const done = new Map<string, LessonSource>();
  const reported = new Set<string>();
  return (lesson) => {
    let expanded = done.get(lesson.path);
    if (expanded) return expanded;
    const found: Diagnostic[] = [];
    expanded = expandLesson(lesson, files, varsOf(lesson.path), found);
    for (const d of found) {
      const key = JSON.stringify([d.file, d.line, d.column, d.code, d.message]);
      if (!reported.has(key)) out.push(d);
      reported.add(key);
    }
    done.set(lesson.path, expanded);
    return expanded;
  };
}

/** The variables a lesson sees: the repo's, under its program's. */
function varsOfLesson(lesson: string, config: CourseConfig, programs: ProgramMap): Vars {
  const program = programs.get(dirOf(dirOf(lesson)));
  const own = program ? programVars.get(program) : undefined;
  return own ? { ...config.vars, ...own } : (config.vars ?? {});
}

/** Compile a course repo's files into its desired state and diagnostics. */
export function compileCourse(read: SourceTree, options: CompileOptions = {}): CompileResult {
  const frame = options.frame ?? frameCourse(read, options.known, options.environment);
  const { source, config, programs, sections, counts, out, tocs } = frame;
  const lessonsBySection = compileLessons(frame, options);
  const allLessons = [...lessonsBySection.values()].flat();
  assignKeys(allLessons, { programDirOf: (path) => [dirOf(path), ...ancestors(dirOf(path))].find((d) => programs.has(d)) ?? '', recordedKeyAt: frame.keyAt });
  checkDuplicateKeys(allLessons, out);
  warnUnusedPartials(source, programs, allLessons, out);
  resolveAll(source, read, allLessons, config, out, options, { expand: frame.expand, notLesson: notLessonReason(frame), siteOf: siteOf(frame) });
  recordBuilds(allLessons, frame.depOf, config, out);
  const unchanged = allLessons.filter((e) => e.known).map((e) => e.source.path);

  for (const [dir, entry] of sections) {
    if (!entry.section) continue;
    const ordered = entry.tocOrder ? inTocOrder(lessonsBySection.get(dir) ?? [], entry.tocOrder) : orderLessons(dir, lessonsBySection.get(dir) ?? [], entry.lessonOrder, out);
    entry.section.lessons = ordered.flatMap((e) => desiredLesson(e) ?? []);
  }
  const programList = [...programs.values()].flatMap((p) => p ?? []).sort((a, b) => compareNatural(a.path, b.path));
  // A book's chapters stay in SUMMARY.md order.
  for (const p of programList) if (!tocs.has(p.path)) p.sections.sort((a, b) => compareNatural(a.path, b.path));
  if (source.programs.length === 0) {
    out.push(diag('repo/no-programs', '.', undefined, 'no program folder found (a folder holding program.yaml)'));
  }

  const diagnostics = sortDiagnostics(out);
  if (hasErrors(diagnostics)) return { diagnostics, counts, unchanged };
  const desired: DesiredState = { config, programs: programList, digest: digestOf(programList) };
  if (options.environment !== undefined) desired.environment = options.environment;
  return { desired, diagnostics, counts, unchanged };
}

/** The lesson defaults of a section's lessons, made once per section (digests memoize settings by this object). */
function inheritedDefaults(section: SectionEntry, config: CourseConfig): LessonDefaults {
  return (section.inherited ??= { ...config.lesson_defaults, ...section.defaults });
}

/** Program folder → its program (undefined when its program.yaml is not valid). */
type ProgramMap = Map<string, DesiredProgram | undefined>;

/** Program → the variables its program.yaml gives. */
const programVars = new WeakMap<DesiredProgram, Vars>();

/** Program folder → the lesson defaults its program.yaml gives. */
const programDefaults = new WeakMap<DesiredProgram, LessonDefaults>();
/** Program → its `site_url:` (a book's address on the web). */
const programSites = new WeakMap<DesiredProgram, string>();

/** Programs: folders holding program.yaml, never nested. */
function compilePrograms(source: SourceTree, counts: CompileCounts, out: Diagnostic[], tocs: Map<string, TocProgram>, env: IdContext): ProgramMap {
  const dirs = new Set(source.programs.map((f) => dirOf(f.path)));
  const programs: ProgramMap = new Map();
  const ids = new Map<string, string>();
  for (const file of source.programs) {
    const dir = dirOf(file.path);
    const outer = ancestors(dir).find((a) => dirs.has(a));
    if (outer !== undefined) {
      out.push(diag('repo/nested-program', file.path, undefined, `program folder is inside the program folder ${outer || '.'}`));
      continue;
    }
    counts.programs++;
    programs.set(dir, undefined);
    const { data, yaml } = compileYamlFile(ProgramFileSchema, file, 'program', out);
    if (!data || !yaml) continue;
    const id = idOfEnvironment(data.id, env, file.path, yaml, 'program', out);
    if (id === undefined) continue;
    const seen = ids.get(id);
    if (seen !== undefined) {
      out.push(diag('repo/duplicate-program', file.path, yaml.placeOf(['id']), `program id "${id}" is also used by ${seen}`));
      continue;
    }
    ids.set(id, file.path);
    const program: DesiredProgram = { path: dir, id, sections: [] };
    if (typeof data.id !== 'string') program.ids = data.id;
    if (data.name !== undefined) program.name = data.name;
    if (data.lesson_defaults) programDefaults.set(program, data.lesson_defaults);
    if (data.vars) programVars.set(program, data.vars);
    if (data.site_url !== undefined) programSites.set(program, data.site_url);
    programs.set(dir, program);
    if (data.sections !== undefined && data.toc === undefined) {
      out.push(diag('toc/sections-without-toc', file.path, yaml?.placeOf(['sections'], 'key'), '`sections:` maps chapters of a SUMMARY.md, and this program.yaml has no `toc:`'));
    }
    if (data.toc !== undefined) tocs.set(dir, { program, file: file.path, yaml: yaml!, summary: joinPath(dir, data.toc), ids: data.sections ?? {} });
  }
  return programs;
}

/** Sections: folders holding section.yaml, directly inside a program folder; id or name, unique. */
function compileSections(source: SourceTree, programs: ProgramMap, counts: CompileCounts, out: Diagnostic[], tocs: ReadonlyMap<string, TocProgram>, env: IdContext): Map<string, SectionEntry> {
  const sections = new Map<string, SectionEntry>();
  const refs = new Map<string, string>();
  for (const file of source.sections) {
    const dir = dirOf(file.path);
    const parent = dirOf(dir);
    const book = [dir, ...ancestors(dir)].find((a) => tocs.has(a));
    if (book !== undefined) {
      out.push(diag('toc/section-yaml', file.path, undefined, `the program ${book || '.'} takes its sections from ${tocs.get(book)!.summary}, not from section folders`));
      continue;
    }
    const entry: SectionEntry = {};
    sections.set(dir, entry);
    if (!dir || !programs.has(parent)) {
      const inside = ancestors(dir).some((a) => programs.has(a)) ? 'is nested too deep in its program' : 'is not inside a program folder';
      out.push(diag('repo/section-outside-program', file.path, undefined, `section folder ${dir || '.'} ${inside}`));
      continue;
    }
    counts.sections++;
    const { data, yaml } = compileYamlFile(SectionFileSchema, file, 'section', out);
    if (!data || !yaml) continue;
    const given = presentKeys(SECTION_REF_RULE, data);
    if (given.length !== 1) {
      const both = given.length > 1;
      out.push(diag('section/id-or-name', file.path, both ? yaml.placeOf(['name'], 'key') : yaml.start, both ? 'section.yaml gives both id and name' : 'section.yaml gives neither id nor name'));
      continue;
    }
    const id = data.id === undefined ? undefined : idOfEnvironment(data.id, env, file.path, yaml, 'section', out);
    if (data.id !== undefined && id === undefined) continue;
    const ref: SectionRef = id !== undefined ? { id } : { name: data.name as string };
    const program = programs.get(parent);
    // Ids are unique in the school; names only within their program.
    const refKey = 'id' in ref ? `id:${ref.id}` : `name:${parent}:${ref.name}`;
    const seen = refs.get(refKey);
    if (seen !== undefined) {
      const what = 'id' in ref ? `section id "${ref.id}"` : `section name "${ref.name}"`;
      out.push(diag('repo/duplicate-section', file.path, yaml.placeOf(['id' in ref ? 'id' : 'name']), `${what} is also used by ${seen}`));
      continue;
    }
    refs.set(refKey, file.path);
    entry.section = { path: dir, ref, lessons: [] };
    if (data.lessons) entry.lessonOrder = { keys: data.lessons, yaml };
    // Nearest wins: the section's defaults over its program's over the repo's.
    entry.defaults = { ...(program ? programDefaults.get(program) : undefined), ...data.lesson_defaults };
    if (program && programSites.has(program)) entry.sited = true;
    program?.sections.push(entry.section);
  }
  return sections;
}

/** Lessons: *.md directly inside a section folder, compiled; Markdown elsewhere is placed or ignored. */
function compileLessons(frame: CourseFrame, options: CompileOptions): Map<string, LessonEntry[]> {
  const { source, programs, sections, counts, out } = frame;
  const bySection = new Map<string, LessonEntry[]>();
  // A section.yaml that exists but could not be read is reported already (by source/): its
  // folder is not also said to lack one.
  const missingSectionYaml = new Set(source.diagnostics.filter((d) => d.file.endsWith('/section.yaml')).map((d) => dirOf(d.file)));
  for (const lesson of source.lessons) {
    if (isPartial(lesson.path)) continue; // included by lessons, never one itself
    const dir = dirOf(lesson.path);
    const sectionKey = frame.sectionOf.get(lesson.path);
    const section = sectionKey === undefined ? undefined : sections.get(sectionKey);
    if (section && sectionKey !== undefined) {
      counts.lessons++;
      const list = bySection.get(sectionKey) ?? [];
      const defaults = inheritedDefaults(section, frame.config);
      const known = frame.known.get(lesson.path);
      const expanded = known ? lesson : frame.expand(lesson);
      list.push(known ?? { source: expanded, defaults, compiled: (options.compileLesson ?? compileLesson)(expanded, out, options.render, defaults) });
      bySection.set(sectionKey, list);
      continue;
    }
    const chain = ancestors(dir);
    const book = [dir, ...chain].find((a) => frame.tocs.has(a));
    if (book !== undefined) {
      const summary = frame.tocs.get(book)!;
      // Files SUMMARY.md does not list are not in the book (mdBook's rule), but say so.
      if (lesson.path !== summary) out.push(diag('toc/unlisted', lesson.path, undefined, `Markdown file is not listed in ${summary}, so it is not a lesson`));
      continue;
    }
    const outer = chain.find((a) => sections.has(a));
    if (outer !== undefined) {
      out.push(diag('repo/nested-lesson-folder', lesson.path, undefined, `lesson file is in a subfolder of the section folder ${outer}`));
      continue;
    }
    const programDir = [dir, ...chain].find((a) => programs.has(a));
    if (programDir === undefined) continue; // Markdown outside programs (READMEs, docs) is not course content.
    if (programDir === dir) {
      out.push(diag('repo/stray-markdown', lesson.path, undefined, 'Markdown file directly in a program folder is not in any section'));
      continue;
    }
    // The folder right below the program folder on the way to this file should be a section.
    const folder = [dir, ...chain].find((a) => dirOf(a) === programDir) ?? dir;
    if (!missingSectionYaml.has(folder)) {
      missingSectionYaml.add(folder);
      out.push(diag('section/missing-yaml', folder, undefined, `folder ${folder} holds lesson files but no section.yaml`));
    }
  }
  return bySection;
}

function compileConfig(source: SourceTree, out: Diagnostic[]): CourseConfig {
  if (!source.config) return DEFAULT_CONFIG;
  // `archive` with `removed_lessons: keep` is allowed: it is ready for when the policy changes.
  const { data, yaml } = compileYamlFile(CourseConfigSchema, source.config, 'config', out, true);
  if (!data) return DEFAULT_CONFIG;
  if (data.ignore && yaml) {
    const paths = [...source.programs, ...source.sections, ...source.lessons].map((f) => f.path).concat([...(source.files?.keys() ?? []), ...(source.refused?.keys() ?? [])]);
    for (const i of unmatchedPatterns(data.ignore, paths)) {
      out.push(diag('config/ignore-unmatched', source.config.path, yaml.placeOf(['ignore', i]), `the \`ignore:\` pattern ${JSON.stringify(data.ignore[i])} matches no file of the repo`));
    }
  }
  for (const [path, message] of environmentProblems(data)) out.push(diag('config/invalid-field', source.config.path, yaml?.placeOf(path), message, 'see docs/environments.md'));
  return data;
}

/** The environment compiled for and the declared ones, for ids given per environment. */
interface IdContext {
  environment: string | undefined;
  declared: readonly string[];
}

/**
 * The id of a program.yaml or section.yaml for the environment compiled for: the id itself, or
 * its entry in a map by environment. A map must name exactly the declared environments (a
 * missing one would leave that school without the folder; an unknown one is a typo).
 */
function idOfEnvironment(id: IdPerEnvironment, env: IdContext, file: string, yaml: ParsedYaml, kind: 'program' | 'section', out: Diagnostic[], at: string[] = ['id']): string | undefined {
  if (typeof id === 'string') return id;
  // A program.yaml's sections: map (a book's chapter → section id) is a program.yaml too.
  const code = kind === 'program' || at[0] !== 'id' ? 'program/invalid-field' : 'section/invalid-field';
  // `id`, or `the id of "Chapter"` for an entry of a book's sections: map.
  const what = at.length === 1 ? at[0]! : `the id of "${at[at.length - 1]}"`;
  if (env.declared.length === 0) {
    out.push(diag(code, file, yaml.placeOf(at), `${what} is given per environment, but coursesync.yaml declares no environments`, 'give one id, or declare the environments under `environments:` in coursesync.yaml'));
    return undefined;
  }
  const before = out.length;
  for (const name of Object.keys(id)) {
    if (!env.declared.includes(name)) out.push(diag(code, file, yaml.placeOf([...at, name], 'key'), `"${name}" is not an environment (declared: ${env.declared.join(', ')})`, 'name each declared environment once'));
  }
  const missing = env.declared.filter((n) => !(n in id));
  if (missing.length > 0) out.push(diag(code, file, yaml.placeOf(at), `${what} has no entry for environment${missing.length === 1 ? '' : 's'} ${missing.join(', ')}`, `add \`${missing[0]}: <${kind} id>\` under ${at[at.length - 1]}`));
  if (out.length > before) return undefined;
  return env.environment !== undefined ? id[env.environment] : id[env.declared[0]!];
}

/**
 * Resolve every clean lesson's references once all lessons are known (a link may go to any of
 * them). Markdown files that are not lessons (READMEs, docs) are files like any other.
 */
function resolveAll(
  source: SourceTree,
  read: SourceTree,
  entries: LessonEntry[],
  config: CourseConfig,
  out: Diagnostic[],
  options: CompileOptions,
  { expand, notLesson, siteOf }: Pick<RepoIndex, 'notLesson' | 'siteOf'> & { expand: (lesson: LessonSource) => LessonSource },
): void {
  const lessons: RepoIndex['lessons'] = new Map(
    entries.flatMap((e) => {
      if (!e.compiled.identity) return [];
      const key = e.compiled.identity.key;
      const draft = e.compiled.fields?.is_published === false;
      if (!e.known) return [[e.source.path, { key, draft, anchors: setOf(e.compiled.anchors) }] as const];
      // A known lesson's anchors are needed only by a link to one of its fragments: compiled then.
      let anchors: { set: ReadonlySet<string> | undefined } | undefined;
      const target = {
        key,
        draft,
        get anchors() {
          const found = (anchors ??= { set: setOf((options.compileLesson ?? compileLesson)(expand(e.source), [], options.render, e.defaults).anchors) });
          return found.set;
        },
      };
      return [[e.source.path, target] as const];
    }),
  );
  const files = new Map(source.files ?? []);
  for (const l of source.lessons) if (!lessons.has(l.path)) files.set(l.path, l.digest);
  // What `ignore:` left out, so a reference to it says why it is missing.
  const ignored = new Set<string>();
  if (read !== source) {
    for (const path of [...(read.files?.keys() ?? []), ...read.lessons.map((l) => l.path)]) if (!files.has(path) && !lessons.has(path)) ignored.add(path);
  }
  const index: RepoIndex = { files, lessons, config, ignored, notLesson, siteOf };
  if (source.refused) index.refused = source.refused;
  const needSettings: Diagnostic[] = [];
  for (const entry of entries) {
    const { fields, refs } = entry.compiled;
    if (entry.known) continue;
    if (fields && (!refs || refs.length === 0)) {
      entry.resolved = { fields, assets: [], links: [], deps: [] };
      continue;
    }
    if (!refs || refs.length === 0) continue;
    const found: Diagnostic[] = [];
    // A lesson with errors is not sent, but its broken references are reported with them.
    const resolved = resolveRefs(entry.source.path, fields ?? DEFAULT_LESSON_FIELDS, refs, index, found);
    if (fields && !found.some((d) => d.severity === 'error')) entry.resolved = resolved;
    for (const d of found) {
      if (!fields && d.code === 'lesson/link-to-draft') continue;
      (isMissingSetting(d) ? needSettings : out).push(d);
    }
  }
  out.push(...summarizeMissingSettings(needSettings));
}

const setOf = (list: readonly string[] | undefined): ReadonlySet<string> | undefined => list && new Set(list);

/** The program folder of a lesson file and the site its program.yaml says it is published at. */
function siteOf(frame: CourseFrame): (path: string) => { dir: string; url: string } | undefined {
  return (path) => {
    const dir = [dirOf(path), ...ancestors(dirOf(path))].find((d) => frame.programs.has(d));
    const program = dir === undefined ? undefined : frame.programs.get(dir);
    const url = program ? programSites.get(program) : undefined;
    return dir !== undefined && url !== undefined ? { dir, url } : undefined;
  };
}

/** Why a Markdown file of the repo is not a lesson, for a link to it (docs/course-repo.md#links-to-markdown). */
function notLessonReason(frame: CourseFrame): (path: string) => string {
  return (path) => {
    const dir = dirOf(path);
    if (frame.sectionOf.has(path)) return 'is a lesson file with errors (see its own diagnostics)';
    if (isPartial(path)) return 'is a partial (under _partials/ or named _*.md), which lessons include with {{#include}} and which is never a lesson';
    const chain = [dir, ...ancestors(dir)];
    const program = chain.find((d) => frame.programs.has(d));
    if (program === undefined) return 'is outside every program folder (no program.yaml above it), so it is not a lesson';
    const summary = frame.tocs.get(program);
    if (summary === path) return 'is the book\'s table of contents, not a lesson';
    if (summary !== undefined) return `is not listed in ${summary}, so it is not a lesson`;
    if (dir === program) return `is directly in the program folder ${program || '.'}, not in a section folder, so it is not a lesson`;
    const section = chain.find((d) => frame.sections.has(d));
    if (section !== undefined) return `is in a subfolder of the section folder ${section}, so it is not a lesson`;
    const folder = chain.find((d) => dirOf(d) === program) ?? dir;
    return `is in the folder ${folder}, which has no section.yaml, so it is not a lesson`;
  };
}

function desiredLesson(entry: LessonEntry): DesiredLesson | undefined {
  const { identity, copied_from, acknowledge } = entry.compiled;
  const resolved = entry.resolved;
  if (!identity || !resolved) return undefined;
  const lesson: DesiredLesson = {
    key: identity.key,
    aliases: identity.aliases.map((a) => a.key),
    path: entry.source.path,
    fields: resolved.fields,
    digest: entry.source.digest,
  };
  const expanded = entry.source.expanded;
  // A saved plan must notice an edited include or variable as it does an edited file.
  if (expanded) lesson.digest = createHash('sha256').update(`${entry.source.digest}\0${expanded.digest}`).digest('hex');
  if (resolved.assets.length > 0) {
    lesson.assets = resolved.assets;
    // A saved plan must notice an edited image: the lesson's digest covers the files it shows.
    const hash = createHash('sha256').update(lesson.digest);
    for (const a of [...resolved.assets].sort((x, y) => (x.path < y.path ? -1 : 1))) hash.update(`\0${a.path}\0${a.digest}`);
    lesson.digest = hash.digest('hex');
  }
  if (entry.build) lesson.build = entry.build;
  if (entry.known) lesson.unchanged = true;
  if (resolved.links.length > 0) lesson.links = resolved.links;
  if (copied_from !== undefined) lesson.copied_from = copied_from;
  if (acknowledge !== undefined) lesson.acknowledge = acknowledge;
  return lesson;
}

/** How each file a lesson may reference is known now: lesson files of sections, then every other file. */
function depIndex(source: SourceTree, sectionOf: ReadonlyMap<string, string>): (path: string) => Omit<LessonDep, 'path'> | undefined {
  const lessons = new Map(source.lessons.map((l) => [l.path, l.digest]));
  return (path) => {
    const lesson = lessons.get(path);
    if (lesson !== undefined) return { kind: sectionOf.has(path) ? 'lesson' : 'file', digest: lesson };
    const file = source.files?.get(path);
    return file === undefined ? undefined : { kind: 'file', digest: file };
  };
}

/**
 * The entry of a lesson known from the state whose digest still matches: its identity and
 * fields as recorded, its references as recorded (assets from the repo's digests). Its text is
 * never read. Undefined when it is not known or changed.
 */
function knownEntry(
  lesson: LessonSource,
  defaults: LessonDefaults,
  options: { known?: KnownLessons | undefined; config: CourseConfig; vars: Vars },
  depOf: ReturnType<typeof depIndex> | undefined,
): LessonEntry | undefined {
  const known = options.known?.lessons.get(lesson.path);
  if (!known || !depOf) return undefined;
  const deps = depsNow(known.deps, depOf);
  const includes = known.includes && depsNow(known.includes, depOf);
  if (!deps || (known.includes && !includes)) return undefined;
  const build: LessonBuildInputs = { file: lesson.digest, settings: lessonSettings(defaults, options.config, deps.length > 0), deps };
  if (includes) build.includes = includes.map(({ path, digest }) => ({ path, digest }));
  if (known.vars) {
    // A variable no longer defined compiles again (and is reported).
    if (!known.vars.every((name) => Object.hasOwn(options.vars, name))) return undefined;
    build.vars = known.vars.map((name) => ({ name, value: String(options.vars[name]) }));
  }
  if (lessonDigest(lesson.path, build, options.known!.placeOf) !== known.digest) return undefined;
  const base = options.config.assets?.base_url;
  // `image` only words why a body changed; a known lesson's body did not.
  const assets = base === undefined ? [] : deps.filter((d) => d.kind === 'file').map((d) => ({ path: d.path, digest: d.digest, name: assetFileName(d.path, d.digest), image: false }));
  const compiled: CompiledLesson = { identity: { key: known.key, aliases: known.aliases.map((key) => ({ key })) }, fields: known.fields };
  if (known.acknowledge) compiled.acknowledge = known.acknowledge;
  return { source: lesson, defaults, compiled, resolved: { fields: known.fields, assets, links: [], deps: known.deps }, build, known: true };
}

/** The build inputs of every lesson that compiled and resolved with no diagnostic on its file. */
function recordBuilds(entries: LessonEntry[], depOf: ReturnType<typeof depIndex>, config: CourseConfig, out: Diagnostic[]): void {
  const flagged = new Set(out.map((d) => d.file));
  for (const entry of entries) {
    if (entry.known || !entry.resolved || flagged.has(entry.source.path)) continue;
    const deps = depsNow(entry.resolved.deps, depOf);
    const expanded = entry.source.expanded;
    const includes = expanded && depsNow(expanded.includes, depOf);
    if (!deps || (expanded && !includes)) continue;
    entry.build = { file: entry.source.digest, settings: lessonSettings(entry.defaults, config, deps.length > 0), deps };
    if (includes && includes.length > 0) entry.build.includes = includes.map(({ path, digest }) => ({ path, digest }));
    if (expanded && expanded.vars.length > 0) entry.build.vars = expanded.vars;
  }
}

/**
 * A partial in a program folder that no lesson includes is said so: a file that was a lesson
 * (`_intro.md`) never silently stops being one.
 */
function warnUnusedPartials(source: SourceTree, programs: ProgramMap, entries: readonly LessonEntry[], out: Diagnostic[]): void {
  const included = new Set(entries.flatMap((e) => (e.known ? (e.build?.includes ?? []).map((i) => i.path) : (e.source.expanded?.includes ?? []))));
  for (const lesson of source.lessons) {
    if (!isPartial(lesson.path) || included.has(lesson.path)) continue;
    const dir = dirOf(lesson.path);
    if (![dir, ...ancestors(dir)].some((a) => programs.has(a))) continue;
    out.push(diag('include/unused-partial', lesson.path, undefined, 'no lesson includes this file, and as a partial (under _partials/ or named _*.md) it is not a lesson itself'));
  }
}

/** Folders above `dir`, nearest first, ending with the repo root ''. */
function ancestors(dir: string): string[] {
  const list: string[] = [];
  let d = dir;
  while (d !== '') {
    d = dirOf(d);
    list.push(d);
  }
  return list;
}

/** sha256 over everything a saved plan depends on in the repo: program ids, lesson identity, place and content. */
function digestOf(programs: DesiredProgram[]): string {
  const hash = createHash('sha256');
  for (const p of programs) {
    hash.update(`program\0${p.id}\0${p.path}\n`);
    for (const s of p.sections) {
      const ref = 'id' in s.ref ? `id\0${s.ref.id}` : `name\0${s.ref.name}`;
      s.lessons.forEach((l, i) => hash.update(`lesson\0${l.key}\0${l.path}\0${l.digest}\0${i}\0${ref}\0${l.aliases.join(',')}\n`));
    }
  }
  return hash.digest('hex');
}

/** A program whose structure comes from its book's SUMMARY.md. */
interface TocProgram {
  program: DesiredProgram;
  /** Its program.yaml, and that file's YAML for places. */
  file: string;
  yaml: ParsedYaml;
  /** Repo path of the SUMMARY.md. */
  summary: string;
  /** Chapter title → section id (or one per environment), from program.yaml `sections:`. */
  ids: Record<string, IdPerEnvironment>;
}

/**
 * The sections of every book: one per chapter of its SUMMARY.md, named like the chapter (or
 * mapped to an id), holding the chapter's files in order. Returns lesson file → section key.
 */
function compileTocs(source: SourceTree, tocs: ReadonlyMap<string, TocProgram>, sections: Map<string, SectionEntry>, counts: CompileCounts, out: Diagnostic[], env: IdContext): Map<string, string> {
  const sectionOf = new Map<string, string>();
  const lessons = new Map(source.lessons.map((l) => [l.path, l]));
  for (const [dir, toc] of tocs) {
    const summary = lessons.get(toc.summary);
    if (!summary) {
      out.push(diag('toc/not-found', toc.file, toc.yaml.placeOf(['toc']), `no file ${toc.summary} in the repo`, suggestFile(toc.summary, [...lessons.keys()].filter((p) => p.startsWith(dir === '' ? '' : `${dir}/`)))));
      continue;
    }
    const chapters = parseSummary(summary.path, summary.text, out);
    const titles = new Map<string, number>();
    for (const chapter of chapters) {
      counts.sections++;
      const where = { file: summary.path, ...chapter.place };
      const files = chapter.files.filter((f) => {
        if (lessons.has(f.path)) return true;
        const near = suggestFile(f.path, [...lessons.keys()]);
        out.push(diag('toc/missing-file', summary.path, f.place, `no file ${f.path} in the repo`, near));
        return false;
      });
      const given = toc.ids[chapter.title];
      // An id map with an error is reported; the chapter still holds its files (none is said to be unlisted).
      const id = given === undefined ? undefined : idOfEnvironment(given, env, toc.file, toc.yaml, 'section', out, ['sections', chapter.title]);
      const seen = titles.get(chapter.title);
      if (seen !== undefined && id === undefined) {
        out.push(diag('repo/duplicate-section', summary.path, chapter.place, `chapter "${chapter.title}" has the same title as the chapter at line ${seen}, so both would be one section`, 'give one of them another title, or map each to its section id under `sections:` in program.yaml'));
        continue;
      }
      titles.set(chapter.title, chapter.place.line);
      const key = chapter.files[0]?.path ?? `${summary.path}:${chapter.place.line}`;
      const section: DesiredSection = { path: key, ref: id !== undefined ? { id } : { name: chapter.title }, lessons: [], toc: where };
      const entry: SectionEntry = { section, tocOrder: files.map((f) => f.path), defaults: { ...programDefaults.get(toc.program) } };
      if (programSites.has(toc.program)) entry.sited = true;
      sections.set(key, entry);
      toc.program.sections.push(section);
      for (const f of files) sectionOf.set(f.path, key);
    }
    const known = new Set(chapters.map((c) => c.title));
    for (const title of Object.keys(toc.ids)) {
      if (known.has(title)) continue;
      const near = suggest(title, [...known]);
      out.push(diag('toc/unknown-chapter', toc.file, toc.yaml.placeOf(['sections', title], 'key'), `"${title}" is not the title of a chapter of ${toc.summary}`, near ? `did you mean "${near}"?` : undefined));
    }
  }
  return sectionOf;
}

/** A chapter's lessons in SUMMARY.md order. */
function inTocOrder(lessons: LessonEntry[], order: readonly string[]): LessonEntry[] {
  const index = new Map(order.map((p, i) => [p, i]));
  return [...lessons].sort((a, b) => index.get(a.source.path)! - index.get(b.source.path)!);
}

function suggestFile(path: string, files: string[]): string | undefined {
  const near = suggest(path, files);
  return near ? `did you mean ${near}?` : undefined;
}

/** `dir` + a relative path, `.` and `..` resolved (a path leaving the repo keeps its `..`: no file has it). */
function joinPath(dir: string, rel: string): string {
  const parts = dir === '' ? [] : dir.split('/');
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}
