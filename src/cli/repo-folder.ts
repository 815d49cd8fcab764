/**
 * One way to name the course repo on every command: `--dir DIR` (default: found from the
 * current folder upward, like git). It is the only form that fits the commands whose
 * positionals are something else (`state show KEY`, `clone A B`, `members get X`), so the few
 * that took the folder as a positional (`plan DIR`, `validate DIR`, …) take `--dir` too and
 * still read a positional folder as a hidden, deprecated alias (docs/cli.md#the-course-repo-folder).
 */
import type { Command } from 'commander';
import { failure } from '../diagnostics/error-codes/index.js';

export const DIR_FLAGS = '--dir <dir>';
export const DIR_HELP = 'folder of the course repo (default: found from the current folder upward)';

/** Add `--dir` and the hidden positional `[dir]` alias to `command`. */
export function addDirOptions(command: Command, help = DIR_HELP): Command {
  return hidePositional(command.argument('[dir]').option(DIR_FLAGS, help));
}

/** Keep a command's positional out of its help and usage line (it is only an old alias). */
export function hidePositional(command: Command): Command {
  return command.usage('[options]').configureHelp({ visibleArguments: () => [] });
}

/**
 * The folder named by `--dir`, else by the positional alias. Both, naming different folders,
 * is a usage error.
 * @throws CoursesyncError `cli/conflicting-options`
 */
export function repoFolder(positional: string | undefined, dir: string | undefined): string | undefined {
  if (positional !== undefined && dir !== undefined && positional !== dir) {
    throw failure('cli/conflicting-options', { options: `the folder ${positional} and --dir ${dir}`, hint: 'name the course repo once, with --dir' });
  }
  return dir ?? positional;
}
