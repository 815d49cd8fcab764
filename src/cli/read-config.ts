/**
 * coursesync.yaml read on its own (I/O), for what a command needs before it compiles anything:
 * the environments (environment.ts), the school's address (school-command.ts, auth.ts). Its
 * own module, so a plan loads no school client to read it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileYamlFile } from '../compile/compile-yaml-file.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { failure } from '../diagnostics/error-codes/index.js';
import { CourseConfigSchema, type CourseConfig } from '../model/config.js';

/**
 * coursesync.yaml of `dir`, or undefined when there is none.
 * @throws CoursesyncError `config/invalid` with the file's diagnostics
 */
export async function readConfig(dir: string): Promise<CourseConfig | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, 'coursesync.yaml'), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw failure('config/unreadable', { file: join(dir, 'coursesync.yaml'), reason: (e as NodeJS.ErrnoException).code ?? 'unreadable' });
  }
  const out: Diagnostic[] = [];
  const source = { path: 'coursesync.yaml', text: text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'), digest: '' };
  const { data } = compileYamlFile(CourseConfigSchema, source, 'config', out, true);
  if (!data || out.some((d) => d.severity === 'error')) {
    throw failure('config/invalid', { dir }, { diagnostics: out });
  }
  return data;
}
