/**
 * What a lesson's digest covers, its build inputs (PURE): recorded for each lesson that
 * compiled clean, and recomputed for a lesson the state knows, which is taken as recorded,
 * unread, when its digest still matches (lesson-digest.ts).
 */
import { problemKey, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { CourseConfig, Vars } from '../model/config.js';
import { assetFileName } from '../model/assets.js';
import type { Inherited } from '../model/lesson.js';
import type { ExpandedText, LessonSource, SourceTree } from '../model/source-tree.js';
import type { LessonAsset, LinkPlace } from '../model/desired.js';
import { readWarning } from '../model/state/parse-state.js';
import { isRecordedCode, type RecordedWarning } from '../model/state/schema.js';
import type { LessonFields } from '../school-api/school-rules.js';
import type { CompiledLesson } from './compile-lesson.js';
import type { LessonEntry } from './course-parts.js';
import { depsNow, digestMatches, lessonSettings, type LessonBuildInputs, type LessonDep } from './lesson-digest.js';
import { sha256 } from '../model/sha256.js';
import { dirOf, foldersOf } from './repo-paths.js';
import { pageFacts, type RepoPaths } from './resolve-refs.js';

/** A lesson the state recorded as compiled clean by this very compiler (its `compiler` matches). */
export interface KnownLesson {
  key: string;
  aliases: string[];
  acknowledge?: string[];
  /** The fields last applied: body and description as fingerprints. */
  fields: LessonFields;
  /** Repo paths of the files it referenced. */
  deps: string[];
  /** Paths its links go to at their pages in the repo (`repo_url:`), as recorded. */
  pages?: string[];
  /** Each lesson it links to and where the links are written (recorded with its deps). */
  lessonLinks?: ReadonlyMap<string, readonly LinkPlace[]>;
  /** Repo paths of the files its body included, and the names of the variables it used. */
  includes?: string[];
  vars?: string[];
  digest: string;
  /** The warnings its own text gave, as recorded: reported again while it is taken unread. */
  warnings?: RecordedWarning[];
}

/** Known lessons by file path: a Map, or answers made on demand (known-lessons.ts). */
export interface KnownByPath {
  readonly size: number;
  get(path: string): KnownLesson | undefined;
  keys(): IterableIterator<string>;
}

export interface KnownLessons {
  /** By lesson file path. */
  lessons: KnownByPath;
  /** Where the school has the lesson at a path (`program/id`), for the digests of links. */
  placeOf(path: string): string | undefined;
  /** The key the state tracks the lesson at a path under (any lesson, compiled clean or not): keys stay as applied. */
  keyAt?(path: string): string | undefined;
}

/** How a file a lesson may reference is known now (its kind and digest); undefined when the repo has no such file. */
export type DepOf = (path: string) => Omit<LessonDep, 'path'> | undefined;

/**
 * How each file a lesson may reference is known now: lesson files of sections (a `lesson`:
 * its place is in the digest), then every other file (a `file`), one lookup each; and what
 * decides a link that goes to a page in the repo (a `page`).
 */
export class DepIndex implements RepoPaths {
  private readonly lessons = new Map<string, string>();
  private readonly others = new Map<string, string>();
  private readonly names = new Map<string, string>();
  private folders: Set<string> | undefined;
  private left: Map<string, 'file' | 'folder'> | undefined;
  /**
   * @param source the files, less the ignored ones
   * @param read every file the repo holds (the same tree when `ignore:` leaves nothing out)
   */
  constructor(
    private readonly source: SourceTree,
    sectionOf: ReadonlyMap<string, string>,
    private readonly read: SourceTree = source,
  ) {
    for (const l of source.lessons) (sectionOf.has(l.path) ? this.lessons : this.others).set(l.path, l.digest);
  }
  /** The digest of the lesson file of a section at `path`, or undefined. */
  lessonDigest(path: string): string | undefined {
    return this.lessons.get(path);
  }
  /** The digest of any other file at `path` (a lesson file of no section is a file too), or undefined. */
  fileDigest(path: string): string | undefined {
    return this.others.get(path) ?? this.source.files?.get(path);
  }
  /** The published name of the file at `path` (assetFileName of its digest here), made once per file: many lessons show one image. */
  assetName(path: string, digest: string): string {
    let name = this.names.get(path);
    if (name === undefined) this.names.set(path, (name = assetFileName(path, digest)));
    return name;
  }
  /** Both as one answer. */
  readonly of: DepOf = (path) => {
    const lesson = this.lessons.get(path);
    if (lesson !== undefined) return { kind: 'lesson', digest: lesson };
    const file = this.fileDigest(path);
    return file === undefined ? undefined : { kind: 'file', digest: file };
  };
  isLesson(path: string): boolean {
    return this.lessons.has(path);
  }
  isFile(path: string): boolean {
    return this.fileDigest(path) !== undefined;
  }
  /** Whether a file the course reads lies under `path` ('' is the repo's root); the folders are listed on the first question. */
  isFolder(path: string): boolean {
    this.folders ??= foldersOf([...this.lessons.keys(), ...this.others.keys(), ...(this.source.files?.keys() ?? [])]);
    return this.folders.has(path);
  }
  /** What `ignore:` left out at `path`: a file, a folder above such files, or nothing (listed on the first question). */
  ignored(path: string): 'file' | 'folder' | undefined {
    if (!this.left) {
      this.left = new Map();
      if (this.read !== this.source) {
        for (const file of [...(this.read.files?.keys() ?? []), ...this.read.lessons.map((l) => l.path)]) {
          if (this.lessons.has(file) || this.fileDigest(file) !== undefined) continue;
          this.left.set(file, 'file');
          for (let dir = dirOf(file); dir !== ''; dir = dirOf(dir)) this.left.set(dir, 'folder');
        }
      }
    }
    return this.left.get(path);
  }
  /** The digest of what decides where a link to `path` goes when it goes to its page in the repo (resolve-refs.ts pageFacts). */
  pageDigest(path: string): string {
    return sha256(`page\0${pageFacts(path, this)}`);
  }
}

/** What the lessons of one section share in their digests, made once per section. */
export interface SectionInputs {
  /** The lesson defaults they inherit. */
  defaults: Inherited;
  /** The settings text of a lesson with no reference, and of one with references (lessonSettings). */
  settings: readonly [string, string];
}

export function sectionInputs(defaults: Inherited, config: CourseConfig, site: string | undefined): SectionInputs {
  return { defaults, settings: [lessonSettings(defaults, config, false, site), lessonSettings(defaults, config, true, site)] };
}

/** What checking a known lesson asks of the course. */
export interface KnownCheck {
  known: KnownLessons;
  config: CourseConfig;
  deps: DepIndex;
  /** The variables a lesson sees: asked only of a lesson that used some. */
  varsOf: (lesson: string) => Vars;
}

/**
 * The entry of a lesson known from the state whose digest still matches: its identity and
 * fields as recorded, its references as recorded (assets from the repo's digests). Its text is
 * never read. Undefined when it is not known or changed. The digest is checked from the
 * record's paths and the repo's digests, each looked up once, as its build inputs.
 */
export function knownEntry(lesson: LessonSource, section: SectionInputs, check: KnownCheck): LessonEntry | undefined {
  const known = check.known.lessons.get(lesson.path);
  if (!known) return undefined;
  const { deps: index, known: { placeOf } } = check;
  // The references as build inputs at once: nearly every known lesson matches, and its entry holds them.
  const deps: LessonDep[] = [];
  for (const path of known.deps) {
    const lessonDigest = index.lessonDigest(path);
    const kind = lessonDigest === undefined ? 'file' : 'lesson';
    const digest = lessonDigest ?? index.fileDigest(path);
    if (digest === undefined) return undefined;
    deps.push({ path, kind, digest });
  }
  for (const path of known.pages ?? []) deps.push({ path, kind: 'page', digest: index.pageDigest(path) });
  const build: LessonBuildInputs = { file: lesson.digest, settings: section.settings[deps.length > 0 ? 1 : 0], deps };
  if (known.includes) {
    build.includes = [];
    for (const path of known.includes) {
      const digest = index.lessonDigest(path) ?? index.fileDigest(path);
      if (digest === undefined) return undefined;
      build.includes.push({ path, digest });
    }
  }
  if (known.vars) {
    const vars = check.varsOf(lesson.path);
    build.vars = [];
    for (const name of known.vars) {
      // A variable no longer defined compiles again (and is reported).
      if (!Object.hasOwn(vars, name)) return undefined;
      build.vars.push({ name, value: String(vars[name]) });
    }
  }
  if (!digestMatches(known.digest, lesson.path, build, placeOf)) return undefined;
  // Kept with the build, so the next apply records them again rather than dropping them.
  if (known.warnings) build.warnings = known.warnings;
  return entryAsRecorded(lesson, section.defaults, known, check, build);
}

/** A known lesson's entry: compiled and resolved as the state records it. */
function entryAsRecorded(lesson: LessonSource, defaults: Inherited, known: KnownLesson, { config, deps: index }: KnownCheck, build: LessonBuildInputs): LessonEntry {
  // `image` only words why a body changed; a known lesson's body did not.
  const assets: LessonAsset[] = [];
  if (config.assets?.base_url !== undefined) for (const d of build.deps) if (d.kind === 'file') assets.push({ path: d.path, digest: d.digest, name: index.assetName(d.path, d.digest), image: false });
  const compiled: CompiledLesson = { identity: { key: known.key, aliases: known.aliases.map((key) => ({ key })) }, fields: known.fields };
  if (known.acknowledge) compiled.acknowledge = known.acknowledge;
  const entry: LessonEntry = { source: lesson, defaults, compiled, resolved: { fields: known.fields, assets, links: [], deps: known.deps }, build, known: true };
  if (known.lessonLinks) entry.lessonLinks = known.lessonLinks;
  return entry;
}

/** The warnings `own` (a lesson's diagnostics) as recorded, or undefined when one of them cannot be (an error, a warning depending on more than the digest covers). */
function recordedWarnings(own: readonly Diagnostic[]): RecordedWarning[] | undefined {
  const out: RecordedWarning[] = [];
  for (const d of own) {
    const w = asRecorded(d, undefined);
    if (!w) return undefined;
    out.push(w);
  }
  return out;
}

/** One warning as the state reads it back (`file` when it is about another file than the lesson's), or undefined when it cannot be recorded. */
function asRecorded({ file: _file, severity, ...rest }: Diagnostic, file: string | undefined): RecordedWarning | undefined {
  if (severity !== 'warning' || !isRecordedCode(rest.code)) return undefined;
  // As the state reads it back (a place from 1), or not at all: the state is read whole, so
  // one bad record would stop every run.
  return readWarning(Object.fromEntries(Object.entries({ ...rest, file }).filter(([, v]) => v !== undefined)));
}

/**
 * The warnings expanding a lesson found in the files it includes, as recorded (with their
 * file), or undefined when they cannot be: one is not recordable, or an included file has a
 * problem this expansion did not find (it is also a lesson, say, with problems of its own).
 */
function includedWarnings(expanded: ExpandedText, byFile: ReadonlyMap<string, readonly Diagnostic[]>): RecordedWarning[] | undefined {
  const found = new Set(expanded.onIncludes.map(problemKey));
  for (const path of expanded.includes) if (byFile.get(path)?.some((d) => !found.has(problemKey(d)))) return undefined;
  const out: RecordedWarning[] = [];
  for (const d of expanded.onIncludes) {
    const w = asRecorded(d, d.file);
    if (!w) return undefined;
    out.push(w);
  }
  return out;
}

/**
 * The build inputs of every lesson that compiled and resolved with no diagnostic on its file
 * but warnings of its own text (RECORDED_WARNING_CODES, kept with the build), and none on a
 * file it includes but such warnings that expanding it found, kept with their file (a warning
 * about another lesson, such as a link to a draft, is checked over the link graph after this,
 * for known and compiled lessons alike: links-to-drafts.ts), with where its links to drafts
 * are written and what decides its links to pages in the repo.
 */
export function recordBuilds(entries: LessonEntry[], index: Pick<DepIndex, 'of' | 'pageDigest'>, config: CourseConfig, out: Diagnostic[], drafts: ReadonlySet<string>, siteOf: (lesson: string) => string | undefined): void {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of out) {
    const list = byFile.get(d.file);
    if (list) list.push(d);
    else byFile.set(d.file, [d]);
  }
  for (const entry of entries) {
    if (entry.known || !entry.resolved) continue;
    const warnings = recordedWarnings(byFile.get(entry.source.path) ?? []);
    if (!warnings) continue;
    // The places of links to drafts only (a few bytes each): course-frame.ts compiles a lesson whose link may have turned to a draft.
    const at = entry.compiled.fields?.is_published ? entry.lessonLinks : undefined;
    const deps = depsNow(entry.resolved.deps, index.of)?.map((d) => (drafts.has(d.path) && at?.has(d.path) ? { ...d, at: [...at.get(d.path)!] } : d));
    // Last, in order: a known lesson's are checked in the order recorded (knownEntry).
    for (const path of entry.resolved.pages ?? []) deps?.push({ path, kind: 'page', digest: index.pageDigest(path) });
    const expanded = entry.source.expanded;
    // What its includes gave: recorded with the file each is about, and reported from the record.
    const included = expanded ? includedWarnings(expanded, byFile) : [];
    const includes = expanded && depsNow(expanded.includes, index.of);
    if (!deps || !included || (expanded && !includes)) continue;
    warnings.push(...included);
    entry.build = { file: entry.source.digest, settings: lessonSettings(entry.defaults, config, deps.length > 0, siteOf(entry.source.path)), deps };
    if (includes && includes.length > 0) entry.build.includes = includes.map(({ path, digest }) => ({ path, digest }));
    if (expanded && expanded.vars.length > 0) entry.build.vars = expanded.vars;
    if (warnings.length > 0) entry.build.warnings = warnings;
  }
}
