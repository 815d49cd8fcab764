/**
 * The lessons of each section (PURE): the Markdown files a section holds, compiled (or taken as
 * the state knows them); every other Markdown file of a program said why it is not a lesson.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LessonSource } from '../model/source-tree.js';
import { diag } from './codes.js';
import type { CourseFrame } from './course-frame.js';
import { lessonInherited, programDirOf, type LessonCompiler, type LessonEntry, type ProgramMap } from './course-parts.js';
import { isPartial } from './expand-lesson.js';
import { ancestors, dirOf } from './repo-paths.js';

/** The lesson files of a course, as compileLessons found them. */
export interface CourseLessons {
  /** Section key → its lessons (compiled, or known from the state), in file order. */
  bySection: Map<string, LessonEntry[]>;
  /** The lessons compiled now (not known from the state), in file order: what the checks after compiling go through. */
  compiled: LessonEntry[];
  /** Partials (`_*.md`, `_partials/`), which lessons include and which are never lessons. */
  partials: LessonSource[];
}

/** Lessons: *.md directly inside a section folder, compiled; Markdown elsewhere is placed or ignored. */
export function compileLessons(frame: CourseFrame, compile: LessonCompiler): CourseLessons {
  const { source, programs, sections, counts, out } = frame;
  const found: CourseLessons = { bySection: new Map(), compiled: [], partials: [] };
  // A section.yaml that exists but could not be read is reported already (by source/): its
  // folder is not also said to lack one.
  const missingSectionYaml = new Set(source.diagnostics.filter((d) => d.file.endsWith('/section.yaml')).map((d) => dirOf(d.file)));
  // Pages a book does not list, with their SUMMARY.md: said once every lesson is expanded.
  const unlisted: Array<[path: string, summary: string]> = [];
  for (const lesson of source.lessons) {
    if (isPartial(lesson.path)) {
      found.partials.push(lesson); // included by lessons, never one itself
      continue;
    }
    const sectionKey = frame.sectionOf.get(lesson.path);
    const section = sectionKey === undefined ? undefined : sections.get(sectionKey);
    if (section && sectionKey !== undefined) {
      counts.lessons++;
      let list = found.bySection.get(sectionKey);
      if (!list) found.bySection.set(sectionKey, (list = []));
      const known = frame.known.get(lesson.path);
      if (known) {
        list.push(known);
        continue;
      }
      const defaults = lessonInherited(section, frame.config, lesson.path);
      const expanded = frame.expand(lesson);
      const entry: LessonEntry = { source: expanded, defaults, compiled: compile(expanded, out, defaults) };
      list.push(entry);
      found.compiled.push(entry);
      continue;
    }
    const dir = dirOf(lesson.path);
    const chain = ancestors(dir);
    const book = [dir, ...chain].find((a) => frame.tocs.has(a));
    if (book !== undefined) {
      const summary = frame.tocs.get(book)!;
      if (lesson.path !== summary) unlisted.push([lesson.path, summary]);
      continue;
    }
    const outer = chain.find((a) => sections.has(a));
    if (outer !== undefined) {
      out.push(diag('repo/nested-lesson-folder', lesson.path, undefined, `Markdown file is in a subfolder of the section folder ${outer}, so it is not a lesson`));
      continue;
    }
    const programDir = programDirOf(programs, lesson.path);
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
  // Files SUMMARY.md does not list are not in the book (mdBook's rule), but say so: unless a
  // page includes them, which is what such a file is for.
  if (unlisted.length > 0) {
    const included = includedPaths([...found.bySection.values()].flat());
    for (const [path, summary] of unlisted) if (!included.has(path)) out.push(diag('toc/unlisted', path, undefined, `Markdown file is not listed in ${summary}, so it is not a lesson`));
  }
  return found;
}

/** The files `entries` include: recorded with a known lesson's build, found by a compiled one's expansion. */
function includedPaths(entries: readonly LessonEntry[]): Set<string> {
  return new Set(entries.flatMap((e) => (e.known ? (e.build?.includes ?? []).map((i) => i.path) : (e.source.expanded?.includes ?? []))));
}

/**
 * A partial in a program folder that no lesson includes is said so: a file that was a lesson
 * (`_intro.md`) never silently stops being one.
 */
export function warnUnusedPartials(partials: readonly LessonSource[], programs: ProgramMap, entries: readonly LessonEntry[], out: Diagnostic[]): void {
  if (partials.length === 0) return;
  const included = includedPaths(entries);
  for (const lesson of partials) {
    if (included.has(lesson.path)) continue;
    if (programDirOf(programs, lesson.path) === undefined) continue;
    out.push(diag('include/unused-partial', lesson.path, undefined, 'no lesson includes this file, and as a partial (under _partials/ or named _*.md) it is not a lesson itself'));
  }
}
