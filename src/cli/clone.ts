/**
 * `coursesync clone <section-dir> <new-dir> --section <id|name>`: a repo-side copy of a section
 * folder (src/clone/clone-section.ts). No request: the copies are created by the next apply.
 */
import type { Command } from 'commander';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { processIo, type CommandIo } from './school-command.js';

export interface CloneCommandOptions {
  section?: string;
  dir?: string;
  baseUrl?: string;
  tokenFile?: string;
}

/** Run clone; returns the exit code. */
export async function runClone(from: string, to: string, options: CloneCommandOptions, io: CommandIo = processIo()): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  if (options.section === undefined) {
    throw failure('cli/missing-option', { what: 'say which school section the new folder is: --section <id|name>', example: `coursesync clone ${from} ${to} --section sec_next (or --section "name:Next steps")` });
  }
  const { cloneSection } = await import('../clone/clone-section.js');
  const { findRepoRoot } = await import('../source/repo-root.js');
  const r = await cloneSection(await findRepoRoot(options.dir), from, to, { section: options.section, env: io.env, baseUrl: options.baseUrl, tokenFile: options.tokenFile });
  const out = io.stdout;
  out.write(`Cloned ${r.lessons.length} lesson${r.lessons.length === 1 ? '' : 's'} from ${r.from} to ${r.to} (section ${'id' in r.ref ? r.ref.id : `named "${r.ref.name}"`}):\n`);
  for (const l of r.lessons) out.write(`  + ${l.to}  key ${l.key}, copied_from ${l.copiedFrom}\n`);
  out.write('Nothing was sent to the school: `coursesync plan` shows the copies as creates and `coursesync apply` creates them.\n');
  return ExitCode.Ok;
}

/** Add the clone command. */
export function register(program: Command): void {
  program
    .command('clone')
    .description('Copy a section folder in the repo (fresh keys, copied_from): apply then creates the copies')
    .argument('<section-dir>', 'the section folder to copy')
    .argument('<new-dir>', 'the new folder, inside a program folder of the repo')
    .option('--section <id|name>', 'the school section of the new folder: id:X or name:X; a value with spaces is a name; a bare value is looked up among the program\'s sections (an id, else a name)')
    .option('--dir <dir>', 'the course repo (default: found from the current folder upward)')
    .option('--base-url <url>', 'school API address, to look up a bare --section (overrides COURSESYNC_BASE_URL and coursesync.yaml)')
    .option('--token-file <file>', 'read the API token from this file instead of COURSESYNC_TOKEN')
    .action(async (from: string, to: string, options: CloneCommandOptions) => {
      process.exitCode = await runClone(from, to, options, processIo());
    });
}
