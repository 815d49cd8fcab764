/**
 * `coursesync completion bash|zsh|fish`: a completion script for the shell (completion-scripts.ts),
 * generated from the command tree of the commander program itself, so it lists exactly the
 * commands and options this version has. The tree is written at build time
 * (completion-data.json, by scripts/write-completion-data.mjs), so that completion loads no
 * other command's module.
 */
import { readFile } from 'node:fs/promises';
import { Argument, type Command, type Option } from 'commander';
import { SHELLS, completionScript, type CommandSpec, type OptionSpec, type Shell } from './completion-scripts.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { COLOR_FLAGS } from './color-flags.js';

/** Add the completion command. */
export function register(program: Command): void {
  program
    .command('completion')
    .description('Print a shell completion script: bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      '\nInstall (or add `source <(coursesync completion bash)` to ~/.bashrc, the same for zsh; fish: `coursesync completion fish | source`).',
    )
    .action(async (shell: string) => {
      process.exitCode = await runCompletion(shell);
    });
}

/** Print the script for `shell` (commander has checked it is one of SHELLS); returns the exit code. */
export async function runCompletion(shell: string, out: { write(s: string): unknown } = process.stdout): Promise<number> {
  const root = await commandTree();
  // The colour switches are read by every command before commander parses (terminal.ts).
  root.options.push(...COLOR_FLAGS.map((long) => ({ long, description: long === '--color' ? 'force colour' : 'no colour', takesValue: false })));
  out.write(completionScript(shell as Shell, root));
  return ExitCode.Ok;
}

/** The tree written at build time; without it (a build by tsc alone), the tree of every module. */
async function commandTree(): Promise<CommandSpec> {
  try {
    return JSON.parse(await readFile(new URL('./completion-data.json', import.meta.url), 'utf8')) as CommandSpec;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return everyCommandTree();
  }
}

/** The tree of the whole program, every command module loaded (what completion-data.json holds). */
export async function everyCommandTree(): Promise<CommandSpec> {
  const { addEveryCommand, rootCommand } = await import('./program.js');
  const program = rootCommand('');
  await addEveryCommand(program);
  return describe(program);
}

/** The command tree as completion-scripts.ts reads it; --help everywhere, hidden commands left out. */
export function describe(command: Command): CommandSpec {
  const help = command.createHelp();
  const options: OptionSpec[] = help.visibleOptions(command).map((o: Option) => ({
    short: o.short,
    long: o.long ?? o.flags,
    description: o.description,
    takesValue: o.required || o.optional,
  }));
  return {
    name: command.name(),
    description: command.summary() || command.description().split('\n')[0]!,
    options,
    commands: help.visibleCommands(command).filter((c) => c.name() !== 'help').map(describe),
  };
}
