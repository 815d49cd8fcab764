/**
 * `coursesync init` with a token: the program and section folders from the school. A program
 * named with --program gets a folder when the repo has none with its id; every program folder
 * of the repo then gets a folder for each section of the school it lacks. Nothing is overwritten
 * (program-scaffold.ts), so a re-run adds only what is new in the school.
 */
import { join, posix } from 'node:path';
import { slugify } from '../model/program-folder.js';
import type { Section } from '../school-api/wire/sections.js';
import type { InitStep } from './init-repo.js';
import { missingProgramFiles, writeNewFiles, yamlId } from './program-scaffold.js';
import { readSource } from './read-source.js';

export interface InitSchool {
  /** Programs to add when the repo has no folder for them (--program). */
  programIds: readonly string[];
  /** Every section of a program, in the school's order. */
  sectionsOf(programId: string): Promise<Section[]>;
}

/** Add the missing program and section folders under `dir`; one step per file written. */
export async function initPrograms(dir: string, school: InitSchool): Promise<InitStep[]> {
  const folders = new Map<string, string>(); // program id → folder (relative, POSIX)
  for (const file of (await readSource(dir)).programs) {
    const id = await yamlId(join(dir, file.path));
    const folder = posix.dirname(file.path);
    if (id !== undefined && !folders.has(id)) folders.set(id, folder);
  }
  const taken = new Set(folders.values());
  for (const id of school.programIds) {
    if (folders.has(id)) continue;
    const base = slugify(id) || 'program';
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    folders.set(id, name);
  }
  // Every program's sections first: a school error (an unknown program) then writes nothing.
  const programs = [...folders].sort(([, a], [, b]) => a.localeCompare(b));
  const sections = await Promise.all(programs.map(([id]) => school.sectionsOf(id)));
  const steps: InitStep[] = [];
  for (const [i, [id, folder]] of programs.entries()) {
    const programDir = join(dir, folder);
    const files = await missingProgramFiles(programDir, id, sections[i]!);
    await writeNewFiles(programDir, files);
    const prefix = folder === '.' ? '' : `${folder}/`;
    if (files.length === 0) steps.push({ path: `${prefix}program.yaml`, outcome: 'unchanged', detail: `program ${id}: a folder for every section` });
    for (const f of files) steps.push({ path: prefix + f.path, outcome: 'written' });
  }
  return steps;
}
