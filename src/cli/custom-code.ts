/**
 * `coursesync custom-code pull [--out DIR]` (docs/school-api.md#custom-code): write the school's custom code to
 * head.html and body.html, byte for byte, so it can be versioned in git. The API has no
 * endpoint that writes custom code, so there is no push: edits go through the school's UI.
 */
import type { Command } from 'commander';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { addSchoolOptions, explained, openSchool, processIo, type CommandIo, type SchoolFlags } from './school-command.js';
import { printDocument } from './terminal.js';
import { join } from 'node:path';
import { mkdir, readFile, writeFile } from 'node:fs/promises';

export interface CustomCodePullOptions extends SchoolFlags {
  out?: string;
  json?: boolean;
}

export const NO_WRITE_ENDPOINT =
  "The API has no endpoint that writes custom code: these files are a copy to version in git; change the custom code in the school's admin UI.";

/** `custom-code pull`: writes `<out>/head.html` and `<out>/body.html` (overwriting them). */
export async function runCustomCodePull(options: CustomCodePullOptions, io: CommandIo = processIo()): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  const client = await openSchool(options, io);
  const code = await explained(client.customCode.get());
  const outDir = options.out ?? '.';
  const files: Array<{ path: string; bytes: number; changed: boolean }> = [];
  try {
    await mkdir(outDir, { recursive: true });
    for (const [name, text] of [['head.html', code.custom_code_head], ['body.html', code.custom_code_body]] as const) {
      const path = join(outDir, name);
      const before = await readFile(path, 'utf8').catch(() => undefined);
      await writeFile(path, text);
      files.push({ path, bytes: Buffer.byteLength(text), changed: before !== text });
    }
  } catch (e) {
    throw failure('custom-code/write-failed', { dir: outDir, reason: (e as NodeJS.ErrnoException).code ?? String(e) });
  }
  if (options.json) {
    printDocument({ files, note: NO_WRITE_ENDPOINT }, io.stdout);
    return ExitCode.Ok;
  }
  for (const f of files) io.stdout.write(`wrote ${f.path} (${f.bytes} bytes${f.changed ? '' : ', unchanged'})\n`);
  io.stderr.write(NO_WRITE_ENDPOINT + '\n');
  return ExitCode.Ok;
}

/** Add `custom-code pull`. */
export function register(program: Command): void {
  const customCode = program.command('custom-code').description("The school's custom code (read only: the API cannot write it)");
  addSchoolOptions(
    customCode
      .command('pull')
      .description('Write the custom code to head.html and body.html, to version it in git')
      .option('--out <dir>', 'folder to write into (default: the current folder)')
      .option('--json', 'print what was written as JSON'),
  ).action(async (options: CustomCodePullOptions) => {
    process.exitCode = await runCustomCodePull(options);
  });
}
