/**
 * A program named on the command line: a folder holding program.yaml gives its `id`; anything
 * that is not a folder is taken as a program id. (I/O: reads program.yaml.)
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { compileYamlFile } from '../compile/compile-yaml-file.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { ProgramFileSchema } from '../model/program.js';

/**
 * The program id of `arg` (a program folder or an id).
 * @throws CoursesyncError `sections/not-a-program` for a folder without program.yaml, or an invalid one
 */
export async function resolveProgramId(arg: string, environment?: string): Promise<string> {
  const isDir = await stat(arg).then((s) => s.isDirectory(), () => false);
  if (!isDir) {
    if (/[\\/]/.test(arg)) {
      throw failure('sections/not-a-program', { arg, problem: 'not-a-folder' });
    }
    return arg;
  }
  const file = join(arg, 'program.yaml');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) {
    throw failure('sections/not-a-program', { arg, problem: 'no-program-yaml' });
  }
  const out: Diagnostic[] = [];
  const { data } = compileYamlFile(ProgramFileSchema, { path: file, text: text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'), digest: '' }, 'program', out);
  if (!data) throw failure('sections/not-a-program', { arg: file, problem: 'invalid' }, { diagnostics: out });
  if (typeof data.id === 'string') return data.id;
  // Ids per environment: the chosen one's (a missing entry is a usage error listing them).
  const names = Object.keys(data.id);
  if (environment === undefined) throw failure('environment/not-chosen', { names });
  const id = data.id[environment];
  if (id === undefined) throw failure('environment/unknown', { name: environment, names, from: file });
  return id;
}
