/**
 * Every run the entry's fast paths do not answer (index.ts): commander, with only the named
 * command's module loaded (program.ts), and every error turned into its exit code here. In the
 * built command this module and everything it imports are one CommonJS file,
 * dist/bin/commands.cjs, which the entry loads through V8's code cache (code-cache.ts): its
 * classes are not the entry's, so an error is reported by this side's own report-error.ts,
 * which knows them. From dist/cli/ (the modules, as the load tests run them) it is imported.
 */
import { CommanderError } from 'commander';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { programFor } from './program.js';

/** Run `args` (process.argv's shape, colour switches removed): its exit code. */
export async function runCommand(args: string[], version: string): Promise<number> {
  try {
    const program = await programFor(version, args.slice(2));
    await program.parseAsync(args);
  } catch (e) {
    // Help and --version exit 0; anything else commander stops on is a usage error.
    if (e instanceof CommanderError) return e.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    // Loaded only here: it brings the diagnostics and the terminal.
    const { reportFatal } = await import('./report-error.js');
    return reportFatal(e);
  }
  return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.Ok;
}
