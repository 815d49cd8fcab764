/** The single place where an error becomes output and an exit code. */
import { ExitCode } from '../diagnostics/exit-codes.js';
import { isCoursesyncError } from '../diagnostics/errors.js';
import { escapeControl, sortDiagnostics } from '../diagnostics/diagnostic.js';
import { githubAnnotation } from '../diagnostics/github.js';
import { colors, paintDiagnostic, type Out } from './terminal.js';

/**
 * Print an error to stderr and return the exit code. A user mistake (CoursesyncError) shows
 * its message, diagnostics and hint; anything else is a bug and shows its stack so it can be
 * reported.
 */
export function reportFatal(e: unknown, stderr: NodeJS.WritableStream = process.stderr): number {
  if (isCoursesyncError(e)) {
    const ci = process.env.GITHUB_ACTIONS === 'true';
    const c = colors(stderr as Out);
    for (const d of sortDiagnostics(e.diagnostics)) {
      stderr.write(paintDiagnostic(d, c) + '\n');
      if (ci) stderr.write(githubAnnotation(d) + '\n');
    }
    // Messages quote user input (names, paths): one line each, so nothing can start a line of its own.
    stderr.write(`coursesync: ${escapeControl(e.message)}\n`);
    if (e.hint) stderr.write(`  hint: ${escapeControl(e.hint)}\n`);
    return e.exitCode;
  }
  const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
  stderr.write(`coursesync: internal error (a bug in coursesync, please report it)\n${detail}\n`);
  return ExitCode.Error;
}
