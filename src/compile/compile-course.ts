/**
 * Source files → desired state (PURE): find programs, sections and lessons by their folders,
 * compile every file, check keys across the repo and lesson order, and report every problem
 * at once. The desired state exists only when there is no error. compileCourse composes the
 * steps; each lives in the module named for it (course-frame.ts, lessons-by-section.ts, …).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { sortDiagnostics, hasErrors } from '../diagnostics/diagnostic.js';
import type { DesiredState } from '../model/desired.js';
import type { SourceTree } from '../model/source-tree.js';
import { compileLesson, type RenderFn } from './compile-lesson.js';
import { checkDuplicateKeys } from './order-lessons.js';
import { assignKeys } from './lesson-keys.js';
import { programDirOf, type CompileCounts, type LessonCompiler } from './course-parts.js';
import { frameCourse, type CourseFrame } from './course-frame.js';
import { reportNoPrograms } from './course-programs.js';
import { desiredPrograms, desiredState } from './desired-state.js';
import { recordBuilds, type KnownLessons } from './lesson-builds.js';
import { compileLessons, warnUnusedPartials } from './lessons-by-section.js';
import { draftsOf, warnLinksToDrafts } from './links-to-drafts.js';
import { resolveAll } from './resolve-lessons.js';

// What other folders import from here, wherever it is made.
export { frameCourse, type CourseFrame } from './course-frame.js';
export type { CompileCounts, LessonEntry } from './course-parts.js';
export type { KnownLesson, KnownLessons } from './lesson-builds.js';

export interface CompileResult {
  /** Undefined when there is any error. */
  desired?: DesiredState;
  /** Paths of the lessons known unchanged from the state's digests: not read, parsed or rendered. */
  unchanged: string[];
  /** Of those, the ones compiled all the same: for their anchors (a lesson compiled now links to one of their #fragments), or for where they link to a lesson become a draft. */
  compiledAnyway: string[];
  /** Sorted by file, line, column, code. */
  diagnostics: Diagnostic[];
  counts: CompileCounts;
}

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

/** Compile a course repo's files into its desired state and diagnostics. */
export function compileCourse(read: SourceTree, options: CompileOptions = {}): CompileResult {
  const frame = options.frame ?? frameCourse(read, options.known, options.environment);
  const { source, config, programs, counts, out } = frame;
  const compile = lessonCompiler(options);
  // The lessons known from the state are taken as recorded: the steps that check or finish a
  // lesson's own build go through `compiled` alone; those across lessons (keys, order, links
  // to drafts) through every lesson, with no work per known lesson they can answer without.
  const { bySection, compiled, partials } = compileLessons(frame, compile);
  const lessons = [...bySection.values()].flat();
  assignKeys(lessons, { programDirOf: (path) => programDirOf(programs, path) ?? '', recordedKeyAt: frame.keyAt });
  checkDuplicateKeys(lessons, out);
  warnUnusedPartials(partials, programs, lessons, out);
  const resolution = resolveAll(frame, lessons, compiled, compile);
  const drafts = draftsOf(lessons);
  recordBuilds(compiled, frame.deps, config, out, drafts, (path) => frame.sections.get(frame.sectionOf.get(path) ?? '\0')?.site);
  warnLinksToDrafts(lessons, drafts, out, resolution.linksOf);
  const compiledAnyway = [...resolution.compiledAnyway];
  const unchanged: string[] = [];
  for (const e of lessons) if (e.known) unchanged.push(e.source.path);
  const programList = desiredPrograms(frame, bySection);
  reportNoPrograms(source, out);
  const diagnostics = sortDiagnostics(out);
  if (hasErrors(diagnostics)) return { diagnostics, counts, unchanged, compiledAnyway };
  return { desired: desiredState(config, programList, options.environment), diagnostics, counts, unchanged, compiledAnyway };
}

/** compileLesson (or the caller's cached one) with this compile's renderer. */
function lessonCompiler(options: CompileOptions): LessonCompiler {
  return (lesson, out, defaults) => (options.compileLesson ?? compileLesson)(lesson, out, options.render, defaults);
}
