/** Program folders (PURE): each program.yaml compiled into a program; ids unique, never nested. */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DesiredProgram } from '../model/desired.js';
import { ProgramFileSchema } from '../model/program.js';
import type { SourceTree } from '../model/source-tree.js';
import { diag } from './codes.js';
import { compileYamlFile } from './compile-yaml-file.js';
import { programDefaults, programSites, programVars, type CompileCounts, type ProgramMap, type TocProgram } from './course-parts.js';
import { idOfEnvironment, type IdContext } from './environment-ids.js';
import { ancestors, dirOf, joinPath } from './repo-paths.js';

/** Programs: folders holding program.yaml, never nested. */
export function compilePrograms(source: SourceTree, counts: CompileCounts, out: Diagnostic[], tocs: Map<string, TocProgram>, env: IdContext): ProgramMap {
  const dirs = new Set(source.programs.map((f) => dirOf(f.path)));
  const programs: ProgramMap = new Map();
  const ids = new Map<string, string>();
  for (const file of source.programs) {
    const dir = dirOf(file.path);
    const outer = ancestors(dir).find((a) => dirs.has(a));
    if (outer !== undefined) {
      out.push(diag('repo/nested-program', file.path, undefined, `program folder is inside the program folder ${outer || '.'}`));
      continue;
    }
    counts.programs++;
    programs.set(dir, undefined);
    const { data, yaml } = compileYamlFile(ProgramFileSchema, file, 'program', out);
    if (!data || !yaml) continue;
    const id = idOfEnvironment(data.id, env, file.path, yaml, 'program', out);
    if (id === undefined) continue;
    const seen = ids.get(id);
    if (seen !== undefined) {
      out.push(diag('repo/duplicate-program', file.path, yaml.placeOf(['id']), `program id "${id}" is also used by ${seen}`));
      continue;
    }
    ids.set(id, file.path);
    const program: DesiredProgram = { path: dir, id, sections: [] };
    if (typeof data.id !== 'string') program.ids = data.id;
    if (data.name !== undefined) program.name = data.name;
    if (data.lesson_defaults) programDefaults.set(program, data.lesson_defaults);
    if (data.vars) programVars.set(program, data.vars);
    if (data.site_url !== undefined) programSites.set(program, data.site_url);
    programs.set(dir, program);
    if (data.sections !== undefined && data.toc === undefined) {
      out.push(diag('toc/sections-without-toc', file.path, yaml?.placeOf(['sections'], 'key'), '`sections:` maps chapters of a SUMMARY.md, and this program.yaml has no `toc:`'));
    }
    if (data.toc !== undefined) tocs.set(dir, { program, file: file.path, yaml: yaml!, summary: joinPath(dir, data.toc), ids: data.sections ?? {} });
  }
  return programs;
}

/** A repo with no program folder compiles to nothing: said so. */
export function reportNoPrograms(source: SourceTree, out: Diagnostic[]): void {
  if (source.programs.length === 0) {
    out.push(diag('repo/no-programs', '.', undefined, 'no program folder found (a folder holding program.yaml)'));
  }
}
