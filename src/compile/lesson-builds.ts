/**
 * What a lesson's digest covers, its build inputs (PURE): recorded for each lesson that
 * compiled clean, and recomputed for a lesson the state knows, which is taken as recorded,
 * unread, when its digest still matches (lesson-digest.ts).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CourseConfig, Vars } from '../model/config.js';
import { assetFileName } from '../model/assets.js';
import type { LessonDefaults } from '../model/lesson.js';
import type { LessonSource, SourceTree } from '../model/source-tree.js';
import type { LinkPlace } from '../model/desired.js';
import type { LessonFields } from '../school-api/school-rules.js';
import type { CompiledLesson } from './compile-lesson.js';
import type { LessonEntry } from './course-parts.js';
import { depsNow, lessonDigest, lessonSettings, type LessonBuildInputs, type LessonDep } from './lesson-digest.js';

/** A lesson the state recorded as compiled clean by this very compiler (its `compiler` matches). */
export interface KnownLesson {
  key: string;
  aliases: string[];
  acknowledge?: string[];
  /** The fields last applied: body and description as fingerprints. */
  fields: LessonFields;
  /** Repo paths of the files it referenced. */
  deps: string[];
  /** Each lesson it links to and where the links are written (recorded with its deps). */
  lessonLinks?: ReadonlyMap<string, readonly LinkPlace[]>;
  /** Repo paths of the files its body included, and the names of the variables it used. */
  includes?: string[];
  vars?: string[];
  digest: string;
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

/** How each file a lesson may reference is known now: lesson files of sections, then every other file. */
export function depIndex(source: SourceTree, sectionOf: ReadonlyMap<string, string>): DepOf {
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
export function knownEntry(
  lesson: LessonSource,
  defaults: LessonDefaults,
  options: { known?: KnownLessons | undefined; config: CourseConfig; vars: Vars },
  depOf: DepOf | undefined,
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
  const entry: LessonEntry = { source: lesson, defaults, compiled, resolved: { fields: known.fields, assets, links: [], deps: known.deps }, build, known: true };
  if (known.lessonLinks) entry.lessonLinks = known.lessonLinks;
  return entry;
}

/**
 * The build inputs of every lesson that compiled and resolved with no diagnostic on its file
 * (a warning about another lesson, such as a link to a draft, is checked over the link graph
 * after this, for known and compiled lessons alike: links-to-drafts.ts), with where its links
 * to drafts are written.
 */
export function recordBuilds(entries: LessonEntry[], depOf: DepOf, config: CourseConfig, out: Diagnostic[], drafts: ReadonlySet<string>): void {
  const flagged = new Set(out.map((d) => d.file));
  for (const entry of entries) {
    if (entry.known || !entry.resolved || flagged.has(entry.source.path)) continue;
    // The places of links to drafts only (a few bytes each): course-frame.ts compiles a lesson whose link may have turned to a draft.
    const at = entry.compiled.fields?.is_published ? entry.lessonLinks : undefined;
    const deps = depsNow(entry.resolved.deps, depOf)?.map((d) => (drafts.has(d.path) && at?.has(d.path) ? { ...d, at: [...at.get(d.path)!] } : d));
    const expanded = entry.source.expanded;
    const includes = expanded && depsNow(expanded.includes, depOf);
    if (!deps || (expanded && !includes)) continue;
    entry.build = { file: entry.source.digest, settings: lessonSettings(entry.defaults, config, deps.length > 0), deps };
    if (includes && includes.length > 0) entry.build.includes = includes.map(({ path, digest }) => ({ path, digest }));
    if (expanded && expanded.vars.length > 0) entry.build.vars = expanded.vars;
  }
}
