/**
 * Every lesson's references resolved against the repo (PURE), once all lessons are known: the
 * repo as resolve-refs.ts sees it (lessons and their anchors, files, what `ignore:` left out,
 * why a Markdown file is not a lesson, where a program is published).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LinkPlace } from '../model/desired.js';
import { DEFAULT_LESSON_FIELDS } from '../school-api/school-rules.js';
import type { CourseFrame } from './course-frame.js';
import { programDirOf, programSites, sitePathOf, type LessonCompiler, type LessonEntry } from './course-parts.js';
import { isPartial } from './expand-lesson.js';
import { isMissingSetting, summarizeMissingSettings } from './missing-settings.js';
import { resolveRefs, type RepoIndex } from './resolve-refs.js';
import { ancestors, dirOf } from './repo-paths.js';

/**
 * Resolve every clean lesson's references once all lessons are known (a link may go to any of
 * them). Markdown files that are not lessons (READMEs, docs) are files like any other.
 * `compiled`: the entries compiled now (the others are known from the state, resolved as
 * recorded). Returns what resolves a known lesson's links again (see Resolution).
 */
export function resolveAll(frame: CourseFrame, entries: readonly LessonEntry[], compiled: readonly LessonEntry[], compile: LessonCompiler): Resolution {
  const { config, out, expand } = frame;
  const compiledAnyway = new Set<string>();
  const index: RepoIndex = { ...repoIndex(frame, entries, compiled, compiledAnyway, compile), config, notLesson: notLessonReason(frame), siteOf: siteOf(frame), sitePath: sitePathOf(frame.programs) };
  if (frame.source.refused) index.refused = frame.source.refused;
  const needSettings: Diagnostic[] = [];
  for (const entry of compiled) {
    const { fields, refs } = entry.compiled;
    if (fields && (!refs || refs.length === 0)) {
      entry.resolved = { fields, assets: [], links: [], deps: [] };
      continue;
    }
    if (!refs || refs.length === 0) continue;
    const found: Diagnostic[] = [];
    // A lesson with errors is not sent, but its broken references are reported with them.
    const resolved = resolveRefs(entry.source.path, fields ?? DEFAULT_LESSON_FIELDS, refs, index, found);
    if (fields && !found.some((d) => d.severity === 'error')) entry.resolved = resolved;
    if (fields && resolved.lessonLinks && resolved.lessonLinks.size > 0) entry.lessonLinks = resolved.lessonLinks;
    for (const d of found) (isMissingSetting(d) ? needSettings : out).push(d);
  }
  out.push(...summarizeMissingSettings(needSettings));
  const linksOf = (entry: LessonEntry) => {
    // Its build was recorded clean: only where its links are is wanted, its diagnostics are not.
    compiledAnyway.add(entry.source.path);
    const { fields, refs } = compile(expand(entry.source), [], entry.defaults);
    return fields && refs ? (resolveRefs(entry.source.path, fields, refs, index, []).lessonLinks ?? new Map()) : new Map();
  };
  return { compiledAnyway, linksOf };
}

type LessonTarget = { key: string; anchors: ReadonlySet<string> | undefined };

/**
 * The repo as references see it, answered on demand: a plan that compiles one lesson looks up
 * the few paths it references, not every lesson and file of the repo. The lessons are the
 * entries with an identity: those compiled now, and those known from the state (frame.known,
 * as compileLessons took them: a partial is never a lesson); every other file of the repo,
 * Markdown that is not a lesson included, is a file.
 */
function repoIndex(
  frame: CourseFrame,
  entries: readonly LessonEntry[],
  compiled: readonly LessonEntry[],
  compiledAnyway: Set<string>,
  compile: LessonCompiler,
): Pick<RepoIndex, 'files' | 'lessons' | 'isFolder' | 'ignored'> {
  const { source, expand } = frame;
  const now = new Map<string, LessonTarget>();
  for (const e of compiled) if (e.compiled.identity) now.set(e.source.path, { key: e.compiled.identity.key, anchors: setOf(e.compiled.anchors) });
  const known = new Map<string, LessonTarget>();
  const knownAt = (path: string): LessonTarget | undefined => {
    const e = isPartial(path) ? undefined : frame.known.get(path);
    if (!e?.compiled.identity) return undefined;
    let target = known.get(path);
    if (target) return target;
    // A known lesson's anchors are needed only by a link to one of its fragments: compiled then.
    let anchors: { set: ReadonlySet<string> | undefined } | undefined;
    target = {
      key: e.compiled.identity.key,
      get anchors() {
        if (!anchors) compiledAnyway.add(e.source.path);
        anchors ??= { set: setOf(compile(expand(e.source), [], e.defaults).anchors) };
        return anchors.set;
      },
    };
    known.set(path, target);
    return target;
  };
  const lessonAt = (path: string) => now.get(path) ?? knownAt(path);
  const lessons = {
    get: lessonAt,
    has: (path: string) => lessonAt(path) !== undefined,
    keys: () => entries.flatMap((e) => (e.compiled.identity ? [e.source.path] : [])),
  };
  // The frame's deps know every lesson file and every other file of the repo, by digest.
  const fileAt = (path: string) => (lessonAt(path) === undefined ? frame.deps.of(path)?.digest : undefined);
  const files = {
    get: fileAt,
    has: (path: string) => fileAt(path) !== undefined,
    keys: () => [...(source.files?.keys() ?? []), ...source.lessons.flatMap((l) => (lessonAt(l.path) === undefined ? [l.path] : []))],
  };
  // Folders, and what `ignore:` left out, as the frame knows them: what decides a link to a page in the repo is one rule (resolve-refs.ts pageFacts).
  return { files, lessons, isFolder: (path) => frame.deps.isFolder(path), ignored: (path) => frame.deps.ignored(path) };
}

/** What resolving every lesson leaves for the checks after it. */
export interface Resolution {
  /** Known lessons compiled all the same: for their anchors, or for where their links are (linksOf); it grows with linksOf. */
  compiledAnyway: ReadonlySet<string>;
  /** Compile a known lesson again for the lessons it links to and where (its text unchanged, so as recorded). */
  linksOf(entry: LessonEntry): ReadonlyMap<string, readonly LinkPlace[]>;
}

const setOf = (list: readonly string[] | undefined): ReadonlySet<string> | undefined => list && new Set(list);

/** The program folder of a lesson file and the site its program.yaml says it is published at. */
function siteOf(frame: CourseFrame): (path: string) => { dir: string; url: string } | undefined {
  return (path) => {
    const dir = programDirOf(frame.programs, path);
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
    const program = programDirOf(frame.programs, path);
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
