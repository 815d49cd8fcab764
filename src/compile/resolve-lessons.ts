/**
 * Every lesson's references resolved against the repo (PURE), once all lessons are known: the
 * repo as resolve-refs.ts sees it (lessons and their anchors, files, what `ignore:` left out,
 * why a Markdown file is not a lesson, where a program is published).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LinkPlace } from '../model/desired.js';
import type { SourceTree } from '../model/source-tree.js';
import { DEFAULT_LESSON_FIELDS } from '../school-api/school-rules.js';
import type { CourseFrame } from './course-frame.js';
import { programDirOf, programSites, type LessonCompiler, type LessonEntry } from './course-parts.js';
import { isPartial } from './expand-lesson.js';
import { isMissingSetting, summarizeMissingSettings } from './missing-settings.js';
import { resolveRefs, type RepoIndex } from './resolve-refs.js';
import { ancestors, dirOf } from './repo-paths.js';

/**
 * Resolve every clean lesson's references once all lessons are known (a link may go to any of
 * them). Markdown files that are not lessons (READMEs, docs) are files like any other.
 * Returns what resolves a known lesson's links again (see Resolution).
 */
export function resolveAll(frame: CourseFrame, read: SourceTree, entries: LessonEntry[], compile: LessonCompiler): Resolution {
  const { source, config, out, expand } = frame;
  const compiledAnyway = new Set<string>();
  const lessons: RepoIndex['lessons'] = new Map(
    entries.flatMap((e) => {
      if (!e.compiled.identity) return [];
      const key = e.compiled.identity.key;
      if (!e.known) return [[e.source.path, { key, anchors: setOf(e.compiled.anchors) }] as const];
      // A known lesson's anchors are needed only by a link to one of its fragments: compiled then.
      let anchors: { set: ReadonlySet<string> | undefined } | undefined;
      const target = {
        key,
        get anchors() {
          if (!anchors) compiledAnyway.add(e.source.path);
          const found = (anchors ??= { set: setOf(compile(expand(e.source), [], e.defaults).anchors) });
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
  const index: RepoIndex = { files, lessons, config, ignored, notLesson: notLessonReason(frame), siteOf: siteOf(frame) };
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
