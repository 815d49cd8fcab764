/**
 * Printing a completion script (`coursesync completion bash|zsh|fish`) from the command tree
 * written at build time (completion-data.json, by scripts/write-completion-data.mjs): neither
 * commander nor any command module is loaded, so the entry answers it before commander
 * (index.ts) and the completion command's action calls the same function.
 */
import { readFile } from 'node:fs/promises';
import { SHELLS, completionScript, type CommandSpec, type Shell } from './completion-scripts.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { COLOR_FLAGS } from './color-flags.js';

/** Whether `word` names a shell a script can be printed for. */
export const isShell = (word: string | undefined): word is Shell => (SHELLS as readonly (string | undefined)[]).includes(word);

/** Print the script for `shell`; returns the exit code. */
export async function runCompletion(shell: Shell, out: { write(s: string): unknown } = process.stdout): Promise<number> {
  const root = await commandTree();
  // The colour switches are read by every command before commander parses (terminal.ts).
  root.options.push(...COLOR_FLAGS.map((long) => ({ long, description: long === '--color' ? 'force colour' : 'no colour', takesValue: false })));
  out.write(completionScript(shell, root));
  return ExitCode.Ok;
}

/** The tree written at build time; without it (a build by tsc alone), the tree of every module. */
async function commandTree(): Promise<CommandSpec> {
  try {
    return JSON.parse(await readFile(new URL('./completion-data.json', import.meta.url), 'utf8')) as CommandSpec;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    return (await import('./completion.js')).everyCommandTree();
  }
}
