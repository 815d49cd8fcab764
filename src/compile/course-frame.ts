/**
 * The frame of a compile (PURE): the config, programs and sections, how each lesson file is
 * expanded, and which lesson files are known unchanged from the state and which compile will
 * compile (what to render ahead).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CourseConfig } from '../model/config.js';
import { effectiveConfig, environmentNames } from '../model/environments.js';
import type { Inherited } from '../model/lesson.js';
import type { LessonSource, SourceTree } from '../model/source-tree.js';
import { compileTocs } from './book-sections.js';
import { compileConfig } from './course-config.js';
import { lessonInherited, programDirOf, type CompileCounts, type LessonEntry, type ProgramMap, type SectionEntry, type TocProgram } from './course-parts.js';
import { compilePrograms } from './course-programs.js';
import { compileSections, placeFolderLessons } from './course-sections.js';
import type { IdContext } from './environment-ids.js';
import { applyIgnore } from './ignore-paths.js';
import { DepIndex, knownEntry, sectionInputs, type KnownCheck, type KnownLessons, type SectionInputs } from './lesson-builds.js';
import { expander, lessonVars, type Expander } from './lesson-expander.js';

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
  /** How each file a lesson may reference is known now, and what decides a link to a page in the repo. */
  deps: DepIndex;
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
  const programs = compilePrograms(source, counts, out, tocs, ids, read);
  const sections = compileSections(source, programs, counts, out, tocs, ids);
  const sectionOf = compileTocs(source, tocs, sections, counts, out, ids);
  placeFolderLessons(source, sections, sectionOf);
  const deps = new DepIndex(source, sectionOf, read);
  const summaries = new Map([...tocs].map(([dir, t]) => [dir, t.summary]));
  const varsOf = lessonVars(config, programs);
  // GitBook's `/…` is the book's root: the program folder.
  const taken: CourseFrame['known'] = new Map();
  const expanding = expander(source, varsOf, (path) => programDirOf(programs, path) ?? '', out, (path) => taken.has(path));
  const frame: CourseFrame = { source, config, programs, sections, counts, out, known: taken, toCompile: [], deps, expand: expanding.expand, sectionOf, tocs: summaries, keyAt: known?.keyAt?.bind(known) };
  knownOrToCompile(frame, known && { known, config, deps, varsOf }, expanding.report);
  return frame;
}

/** Each lesson of a section: taken as the state records it when its digest still matches, else to compile (expanded). */
function knownOrToCompile(frame: CourseFrame, check: KnownCheck | undefined, report: Expander['report']): void {
  const { source, sections, sectionOf, config } = frame;
  // What a section's lessons share in their digests (defaults, settings), made once per section
  // (once per page of a book: its SUMMARY.md title is among what it inherits).
  const shared = new Map<Inherited, SectionInputs>();
  const inputsOf = (section: SectionEntry, path: string) => {
    const inherited = lessonInherited(section, config, path);
    let inputs = shared.get(inherited);
    if (inputs === undefined) shared.set(inherited, (inputs = sectionInputs(inherited, config, section.site)));
    return inputs;
  };
  for (const lesson of source.lessons) {
    const section = sections.get(sectionOf.get(lesson.path) ?? '\0');
    if (!section) continue;
    const entry = check ? knownEntry(lesson, inputsOf(section, lesson.path), check) : undefined;
    if (!entry) {
      frame.toCompile.push(frame.expand(lesson));
      continue;
    }
    frame.known.set(lesson.path, entry);
    // What its text and includes gave when it compiled, as a compile of it would report it
    // again: once, as expanding reports each problem (two lessons may include one file).
    if (entry.build?.warnings) report(entry.build.warnings.map((w): Diagnostic => ({ file: lesson.path, severity: 'warning', ...w })));
  }
}
