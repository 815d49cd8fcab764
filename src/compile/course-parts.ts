/**
 * The parts of a course as compile holds them while it works (PURE): the counts, programs by
 * folder with what their program.yaml gives beyond the desired state, section and lesson entries.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CourseConfig, Vars } from '../model/config.js';
import type { IdPerEnvironment } from '../model/environments.js';
import type { DesiredProgram, DesiredSection, LinkPlace } from '../model/desired.js';
import type { LessonSource } from '../model/source-tree.js';
import type { Inherited, LessonDefaults } from '../model/lesson.js';
import type { CompiledLesson } from './compile-lesson.js';
import type { ParsedYaml } from './parse-yaml.js';
import type { ResolvedLesson } from './resolve-refs.js';
import type { LessonBuildInputs } from './lesson-digest.js';
import { sha256 } from '../model/sha256.js';
import { ancestors, dirOf, joinPath } from './repo-paths.js';

export interface CompileCounts {
  programs: number;
  sections: number;
  lessons: number;
}

/** A lesson file with what compiling it gave. */
export interface LessonEntry {
  source: LessonSource;
  compiled: CompiledLesson;
  /** Its references resolved against the repo (when it compiled cleanly). */
  resolved?: ResolvedLesson;
  /** What it inherits: the lesson defaults (and a book page's SUMMARY.md title). */
  defaults: Inherited;
  /** What its digest covers, once it compiled with no diagnostic. */
  build?: LessonBuildInputs;
  /** Known unchanged (its digest matches the state's): compiled and resolved from the state's record. */
  known?: true;
  /** The lessons it links to and where (compiled: as resolved; known: as recorded), for links-to-drafts.ts. */
  lessonLinks?: ReadonlyMap<string, readonly LinkPlace[]>;
}

/** The `lessons:` list of a section.yaml, with its YAML for places. */
export interface LessonOrder {
  keys: string[];
  yaml: ParsedYaml;
}

export interface SectionEntry {
  section?: DesiredSection;
  lessonOrder?: LessonOrder;
  /** A chapter of a book: its lesson files in SUMMARY.md order. */
  tocOrder?: string[];
  /** A chapter of a book: each lesson file's title in SUMMARY.md (none when blank). */
  tocTitles?: ReadonlyMap<string, string>;
  /** Its program's site settings (siteSettings: `site_url:`, `site_paths:`): in its lessons' settings, so in their digests. */
  site?: string;
  defaults?: LessonDefaults;
  /** What its lessons inherit (the repo's defaults under the section's, the keys left to other tools), made once. */
  inherited?: Inherited;
  /** What each page of a book chapter inherits (the defaults and its title), made once a page. */
  pages?: Map<string, Inherited>;
}

/** Compile one lesson file with what it inherits (compileLesson with the renderer of this compile). */
export type LessonCompiler = (lesson: LessonSource, out: Diagnostic[], defaults: Inherited) => CompiledLesson;

/** What a section's lessons inherit, made once per section (digests memoize settings by this object). */
export function inheritedDefaults(section: SectionEntry, config: CourseConfig): Inherited {
  const ignore = config.front_matter?.ignore;
  return (section.inherited ??= { ...config.lesson_defaults, ...section.defaults, ...(ignore && { front_matter_ignore: [...ignore].sort() }) });
}

/** What the lesson file at `path` of `section` inherits: its section's defaults, with its title in a book's SUMMARY.md. */
export function lessonInherited(section: SectionEntry, config: CourseConfig, path: string): Inherited {
  const defaults = inheritedDefaults(section, config);
  const title = section.tocTitles?.get(path);
  if (title === undefined) return defaults;
  section.pages ??= new Map();
  let page = section.pages.get(path);
  if (page === undefined) section.pages.set(path, (page = { ...defaults, toc_title: title }));
  return page;
}

/** Program folder → its program (undefined when its program.yaml is not valid). */
export type ProgramMap = Map<string, DesiredProgram | undefined>;

/** The program folder a file is in: the nearest folder holding program.yaml, at or above its own. */
export function programDirOf(programs: ProgramMap, path: string): string | undefined {
  const dir = dirOf(path);
  return [dir, ...ancestors(dir)].find((d) => programs.has(d));
}

/** Program → the variables its program.yaml gives. */
export const programVars = new WeakMap<DesiredProgram, Vars>();

/** Program folder → the lesson defaults its program.yaml gives. */
export const programDefaults = new WeakMap<DesiredProgram, LessonDefaults>();

/** Program → its `site_url:` (a book's address on the web). */
export const programSites = new WeakMap<DesiredProgram, string>();

/** A program's `site_paths:`: pages by address (siteAddress), and folders by the address they are served under, longest first. */
export interface SitePaths {
  pages: ReadonlyMap<string, string>;
  folders: ReadonlyArray<readonly [address: string, dir: string]>;
}

/** Program → its `site_paths:`. */
export const programSitePaths = new WeakMap<DesiredProgram, SitePaths>();

/** A site address as `site_paths:` and links are matched: percent-escapes decoded, no trailing `/` (but the root's). */
export function siteAddress(address: string): string {
  let decoded = address;
  try {
    decoded = decodeURIComponent(address);
  } catch {
    // Kept as written: a malformed escape matches only an address written the same way.
  }
  return decoded.length > 1 && decoded.endsWith('/') ? decoded.slice(0, -1) : decoded;
}

/**
 * What a program's site settings give its lessons' digests (SectionEntry.site): its
 * `site_url:`, and its `site_paths:` when it has some, so a path mapped anew compiles the
 * lessons again. A program with `site_url:` alone gives the address, as it always did.
 */
export function siteSettings(program: DesiredProgram): string | undefined {
  const url = programSites.get(program);
  const paths = programSitePaths.get(program);
  if (paths === undefined) return url;
  let text = siteTexts.get(paths); // made once a program, not once a section
  // Its digest, not the mapping itself: every lesson's settings text holds it, and a site may map thousands of pages.
  if (text === undefined) siteTexts.set(paths, (text = `${url ?? ''}\0paths ${sha256(JSON.stringify([[...paths.pages].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)), paths.folders]))}`));
  return text;
}
const siteTexts = new WeakMap<SitePaths, string>();

/**
 * The repo path that a link's absolute path (`/en/part1/intro`) names in the lesson at `path`,
 * by its program's `site_paths:`: the page mapped at that address, else the path below the
 * longest folder address it starts with; undefined when none applies.
 */
export function sitePathOf(programs: ProgramMap): (path: string, address: string) => string | undefined {
  return (path, address) => {
    const dir = programDirOf(programs, path);
    const program = dir === undefined ? undefined : programs.get(dir);
    const paths = program && programSitePaths.get(program);
    if (!paths) return undefined;
    const at = siteAddress(address);
    const page = paths.pages.get(at);
    if (page !== undefined) return page;
    for (const [prefix, folder] of paths.folders) {
      if (at === prefix) return folder;
      if (at.startsWith(prefix === '/' ? '/' : `${prefix}/`)) return joinPath(folder, at.slice(prefix.length));
    }
    return undefined;
  };
}

/** A program whose structure comes from its book's SUMMARY.md. */
export interface TocProgram {
  program: DesiredProgram;
  /** Its program.yaml, and that file's YAML for places. */
  file: string;
  yaml: ParsedYaml;
  /** Repo path of the SUMMARY.md. */
  summary: string;
  /** Chapter title → section id (or one per environment), from program.yaml `sections:`. */
  ids: Record<string, IdPerEnvironment>;
}
