/**
 * A program named on the command line: a folder holding program.yaml gives its `id`; anything
 * that is not a folder is taken as a program id. (I/O: reads program.yaml.)
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compileYamlFile } from '../compile/compile-yaml-file.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { CoursesyncError } from '../diagnostics/errors.js';
import { ProgramFileSchema } from '../model/program.js';

/**
 * The program id of `arg` (a program folder or an id).
 * @throws CoursesyncError `sections/not-a-program` for a folder without program.yaml, or an invalid one
 */
export async function resolveProgramId(arg: string): Promise<string> {
  const isDir = await stat(arg).then((s) => s.isDirectory(), () => false);
  if (!isDir) {
    if (/[\\/]/.test(arg)) {
      throw new CoursesyncError(`${arg} is not a folder (and a program id has no slash).`, { code: 'sections/not-a-program', hint: 'Give a program folder holding program.yaml, or a program id such as prog_intro.' });
    }
    return arg;
  }
  const file = join(arg, 'program.yaml');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) {
    throw new CoursesyncError(`${arg} is a folder without program.yaml.`, { code: 'sections/not-a-program', hint: 'Give a program folder (one holding program.yaml with `id: <program id>`), or the program id itself.' });
  }
  const out: Diagnostic[] = [];
  const { data } = compileYamlFile(ProgramFileSchema, { path: file, text: text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'), digest: '' }, 'program', out);
  if (!data) throw new CoursesyncError(`${file} is invalid.`, { code: 'sections/not-a-program', hint: 'Fix program.yaml at the places named above.', diagnostics: out });
  return data.id;
}
