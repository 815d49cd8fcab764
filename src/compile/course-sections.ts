/** Section folders (PURE): each section.yaml compiled into a section of its program. */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { SectionRef } from '../model/desired.js';
import { presentKeys } from '../model/field-rules.js';
import { SECTION_REF_RULE, SectionFileSchema } from '../model/section.js';
import type { SourceTree } from '../model/source-tree.js';
import { diag } from './codes.js';
import { compileYamlFile } from './compile-yaml-file.js';
import { programDefaults, siteSettings, type CompileCounts, type ProgramMap, type SectionEntry, type TocProgram } from './course-parts.js';
import { idOfEnvironment, type IdContext } from './environment-ids.js';
import { isPartial } from './expand-lesson.js';
import { ancestors, dirOf } from './repo-paths.js';

/** Sections: folders holding section.yaml, directly inside a program folder; id or name, unique. */
export function compileSections(source: SourceTree, programs: ProgramMap, counts: CompileCounts, out: Diagnostic[], tocs: ReadonlyMap<string, TocProgram>, env: IdContext): Map<string, SectionEntry> {
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
    const site = program && siteSettings(program);
    if (site !== undefined) entry.site = site;
    program?.sections.push(entry.section);
  }
  return sections;
}

/** Lesson files directly in a section folder belong to that section (a book's chapters have placed theirs already). */
export function placeFolderLessons(source: SourceTree, sections: ReadonlyMap<string, SectionEntry>, sectionOf: Map<string, string>): void {
  // A folder's lessons come one after another: its path is made once, not once per lesson.
  let dir = '\0';
  for (const { path } of source.lessons) {
    if (sectionOf.has(path)) continue;
    if (path.lastIndexOf('/') !== dir.length || !path.startsWith(dir)) dir = dirOf(path);
    if (sections.has(dir) && !isPartial(path)) sectionOf.set(path, dir);
  }
}
