/**
 * Program folders from the school: program.yaml and one folder with a section.yaml per section
 * (texts from model/program-folder.ts). `sections list --scaffold` writes them into a new
 * folder; `coursesync init` with a token adds what a repo lacks: a section already in a folder
 * of its program (by id) is skipped, and a file is never overwritten.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseYamlLeniently } from './read-yaml-leniently.js';
import { programFolderFiles } from '../model/program-folder.js';
import type { Section } from '../school-api/wire/sections.js';

export interface ScaffoldFile {
  /** Relative to the program folder. */
  path: string;
  text: string;
}

/** Write `files` under `programDir`, creating folders; 'wx': an existing file is never replaced. */
export async function writeNewFiles(programDir: string, files: readonly ScaffoldFile[]): Promise<void> {
  for (const f of files) {
    await mkdir(dirname(join(programDir, f.path)), { recursive: true });
    await writeFile(join(programDir, f.path), f.text, { flag: 'wx' });
  }
}

/**
 * The files `programDir` lacks for `programId` and its `sections`: program.yaml when missing, and
 * a section folder for each section no folder names by id yet. A new folder whose usual name is
 * taken gets a suffix (`-2`, `-3`…), so nothing there is touched.
 */
export async function missingProgramFiles(programDir: string, programId: string, sections: readonly Pick<Section, 'id' | 'name'>[]): Promise<ScaffoldFile[]> {
  const present = await sectionRefsIn(programDir);
  const files = programFolderFiles(programId, sections);
  const out: ScaffoldFile[] = [];
  if (!(await exists(join(programDir, 'program.yaml')))) out.push(files[0]!);
  const taken = new Set(await readdir(programDir).catch(() => [] as string[]));
  sections.forEach((s, i) => {
    if (present.ids.has(s.id) || present.names.has(s.name)) return;
    const file = files[i + 1]!;
    const folder = file.path.slice(0, -'/section.yaml'.length);
    let name = folder;
    for (let n = 2; taken.has(name); n++) name = `${folder}-${n}`;
    taken.add(name);
    out.push({ path: `${name}/section.yaml`, text: file.text });
  });
  return out;
}

/** The sections named (by `id:` or `name:`) in the section.yaml files of `programDir`'s direct subfolders. */
async function sectionRefsIn(programDir: string): Promise<{ ids: Set<string>; names: Set<string> }> {
  const ids = new Set<string>();
  const names = new Set<string>();
  const entries = await readdir(programDir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isDirectory()) continue;
    const file = join(programDir, e.name, 'section.yaml');
    const id = await yamlField(file, 'id');
    if (id !== undefined) ids.add(id);
    const name = await yamlField(file, 'name');
    if (name !== undefined) names.add(name);
  }
  return { ids, names };
}

/** The `id:` of a YAML file, when it is readable, parses and gives one (anything else: undefined). */
export function yamlId(file: string): Promise<string | undefined> {
  return yamlField(file, 'id');
}

async function yamlField(file: string, key: 'id' | 'name'): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const data = parseYamlLeniently(text);
    if (typeof data === 'object' && data !== null && key in data) {
      const value = (data as Record<string, unknown>)[key];
      return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
    }
  } catch {
    // A file validate will report; init only looks for the section it names.
  }
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
