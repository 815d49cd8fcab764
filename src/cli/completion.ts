/**
 * `coursesync completion bash|zsh|fish`: a completion script for the shell (completion-scripts.ts),
 * generated from the command tree of the commander program itself, so it lists exactly the
 * commands and options this version has. The tree is written at build time
 * (completion-data.json, by scripts/write-completion-data.mjs) and printed by
 * completion-print.ts, which the entry runs before commander loads for a valid shell; this
 * module registers the command (its help, a bad shell's usage error) and describes the tree.
 */
import { Argument, type Command, type Option } from 'commander';
import { SHELLS, type CommandSpec, type OptionSpec, type Shell } from './completion-scripts.js';
import { runCompletion } from './completion-print.js';

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
      process.exitCode = await runCompletion(shell as Shell); // one of SHELLS: commander checked it
    });
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
