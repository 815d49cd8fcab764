/** Program folders (PURE): each program.yaml compiled into a program; ids unique, never nested. */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DesiredProgram } from '../model/desired.js';
import { ProgramFileSchema } from '../model/program.js';
import type { SourceTree } from '../model/source-tree.js';
import { diag } from './codes.js';
import { compileYamlFile } from './compile-yaml-file.js';
import { programDefaults, programSitePaths, programSites, programVars, siteAddress, type SitePaths, type CompileCounts, type ProgramMap, type TocProgram } from './course-parts.js';
import { idOfEnvironment, type IdContext } from './environment-ids.js';
import type { ParsedYaml } from './parse-yaml.js';
import { ancestors, dirOf, foldersOf, joinPath } from './repo-paths.js';

/** Programs: folders holding program.yaml, never nested. `read`: every file, what `ignore:` leaves out too (a site may serve it: `site_paths:`). */
export function compilePrograms(source: SourceTree, counts: CompileCounts, out: Diagnostic[], tocs: Map<string, TocProgram>, env: IdContext, read: SourceTree = source): ProgramMap {
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
    if (data.site_paths !== undefined) programSitePaths.set(program, sitePaths(read, dir, data.site_paths, file.path, yaml, out));
    programs.set(dir, program);
    if (data.sections !== undefined && data.toc === undefined) {
      out.push(diag('toc/sections-without-toc', file.path, yaml?.placeOf(['sections'], 'key'), '`sections:` maps chapters of a SUMMARY.md, and this program.yaml has no `toc:`'));
    }
    if (data.toc !== undefined) tocs.set(dir, { program, file: file.path, yaml: yaml!, summary: joinPath(dir, data.toc), ids: data.sections ?? {} });
  }
  return programs;
}

/**
 * `site_paths:` as links are matched: an address whose path is a Markdown file maps that page,
 * one whose path is a folder of the repo maps what lies below it. Any other is reported at its
 * line and left out, so the links to that address are reported too, where they are written.
 */
function sitePaths(source: SourceTree, dir: string, entries: Record<string, string>, file: string, yaml: ParsedYaml, out: Diagnostic[]): SitePaths {
  const markdown = new Set(source.lessons.map((l) => l.path));
  let dirs: Set<string> | undefined; // made once, if a folder is mapped
  const isFolder = (path: string) => (dirs ??= foldersOf([...markdown, ...(source.files?.keys() ?? [])])).has(path);
  const pages = new Map<string, string>();
  const folders: Array<readonly [string, string]> = [];
  for (const [address, target] of Object.entries(entries)) {
    const path = joinPath(dir, target);
    if (markdown.has(path)) pages.set(siteAddress(address), path);
    else if (isFolder(path)) folders.push([siteAddress(address), path]);
    else out.push(diag('program/site-path-not-found', file, yaml.placeOf(['site_paths', address]), `${address} is mapped to ${JSON.stringify(target)}, and the repo has no Markdown file or folder ${path || '.'}`));
  }
  folders.sort(([a], [b]) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
  return { pages, folders };
}

/** A repo with no program folder compiles to nothing: said so. */
export function reportNoPrograms(source: SourceTree, out: Diagnostic[]): void {
  if (source.programs.length === 0) {
    out.push(diag('repo/no-programs', '.', undefined, 'no program folder found (a folder holding program.yaml)'));
  }
}
