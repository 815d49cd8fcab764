/**
 * Includes and variables, wired to the course (PURE): each lesson expanded once
 * (expand-lesson.ts) with the files of the source tree and the variables its program sees.
 */
import { problemKey, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { CourseConfig, Vars } from '../model/config.js';
import type { LessonSource, SourceTree } from '../model/source-tree.js';
import { programVars, type ProgramMap } from './course-parts.js';
import type { IncludeFiles } from './expand-includes.js';
import { expandLesson } from './expand-lesson.js';
import { dirOf } from './repo-paths.js';

/** What includes read: lesson files by their text (read once), other files through the reader. */
function includeFiles(source: SourceTree): IncludeFiles {
  // Made when a lesson first includes something: a plan of known lessons expands a few lessons, most of them with no include.
  let lessons: Map<string, LessonSource> | undefined;
  const lessonAt = (path: string) => (lessons ??= new Map(source.lessons.map((l) => [l.path, l]))).get(path);
  const texts = new Map<string, string | undefined>();
  return {
    textOf(path) {
      if (!texts.has(path)) texts.set(path, lessonAt(path)?.text ?? (source.files?.has(path) ? source.readText?.(path) : undefined));
      return texts.get(path);
    },
    paths: () => [...source.lessons.map((l) => l.path), ...(source.files?.keys() ?? [])],
  };
}

/** Each lesson expanded once, and each problem reported once, whichever lesson found it. */
export interface Expander {
  expand(lesson: LessonSource): LessonSource;
  /** Report problems as found again (a lesson taken from the state reports those it recorded): once, as expanding reports them. */
  report(found: readonly Diagnostic[]): void;
}

/**
 * Expand each lesson once; a problem in a partial many lessons include is reported once.
 * `rootOf`: the folder a lesson's template includes (`{% include "/…" %}`) start from.
 * `fromRecord`: whether a lesson was taken from the state, its problems reported from its
 * record; such a lesson is expanded only to be compiled for another's sake (its anchors), and
 * what it finds then was reported already.
 */
export function expander(source: SourceTree, varsOf: (lesson: string) => Vars, rootOf: (lesson: string) => string, out: Diagnostic[], fromRecord: (lesson: string) => boolean): Expander {
  const files = includeFiles(source);
  const done = new Map<string, LessonSource>();
  const reported = new Set<string>();
  const report = (found: readonly Diagnostic[]) => {
    for (const d of found) {
      const key = problemKey(d);
      if (!reported.has(key)) out.push(d);
      reported.add(key);
    }
  };
  const expand = (lesson: LessonSource) => {
    let expanded = done.get(lesson.path);
    if (expanded) return expanded;
    const found: Diagnostic[] = [];
    expanded = expandLesson(lesson, files, varsOf(lesson.path), found, rootOf(lesson.path));
    if (!fromRecord(lesson.path)) report(found);
    done.set(lesson.path, expanded);
    return expanded;
  };
  return { expand, report };
}

/**
 * The variables a lesson sees: the repo's, under its program's. Made once per program folder
 * and shared by its lessons (read only).
 */
export function lessonVars(config: CourseConfig, programs: ProgramMap): (lesson: string) => Vars {
  const byProgram = new Map<string, Vars>();
  return (lesson) => {
    const dir = dirOf(dirOf(lesson));
    let vars = byProgram.get(dir);
    if (vars === undefined) {
      const program = programs.get(dir);
      const own = program ? programVars.get(program) : undefined;
      byProgram.set(dir, (vars = own ? { ...config.vars, ...own } : (config.vars ?? {})));
    }
    return vars;
  };
}
