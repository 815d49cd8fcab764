/**
 * How `coursesync apply` ends: what it says (cancelled, nothing to send, or the summary of the
 * calls), the `--json` report (apply-report.ts), and the exit code or the error that sets it
 * (failed calls, lessons gone from the school, uncertain creates).
 */
import type { ApplyCourseResult } from '../apply/apply-options.js';
import { summarizeApply } from '../apply/summarize-apply.js';
import { failure } from '../diagnostics/error-codes/index.js';
import type { CoursesyncError } from '../diagnostics/errors.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { summaryLine } from '../plan/describe-change.js';
import { environmentLines, renderText } from '../plan/render-text.js';
import { SchoolApiError } from '../school/errors.js';
import { lessonsGoneError } from '../sync/build-plan.js';
import { applyReport, type ApplyStatus } from './apply-report.js';
import { printJson, type Colors, type Out } from './terminal.js';

export interface SummaryOptions {
  /** Where what a person reads goes (stderr with --json), and the errors' stream. */
  out: Out;
  err: Out;
  /** stdout, for the --json report; undefined without --json. */
  json: Out | undefined;
  colors: Colors;
  /** How long the calls took (from the confirmation), and the exit code of a signal that stopped them. */
  seconds: number;
  interruptedCode: ExitCode;
}

/**
 * Say how the apply ended and return its exit code.
 * @throws CoursesyncError when a call failed or a create is uncertain (its exit code is the error's)
 */
export function summarizeEnd(result: ApplyCourseResult, o: SummaryOptions): ExitCode {
  const report = (status: ApplyStatus, seconds: number | null = null) => {
    if (o.json) printJson(applyReport(result, status, seconds), o.json);
  };
  if (result.cancelled) {
    o.err.write('Apply cancelled; nothing was changed.\n');
    report('cancelled');
    return ExitCode.Cancelled;
  }
  const run = result.result;
  if (run === null) {
    if (result.plan.summary.uncertain > 0) {
      o.out.write(renderText(result.plan, { color: o.colors.isColorSupported }));
      report('failed');
      throw uncertainError(result.plan.summary.uncertain);
    }
    o.out.write(environmentLines(result.plan).join('\n') + nothingSentLine(result) + '\n');
    report('no-changes');
    return ExitCode.Ok;
  }
  const lines = summarizeApply(result, { seconds: o.seconds });
  const ok = run.outcomes.every((x) => x.status === 'done');
  o.out.write((ok ? o.colors.green(lines[0]!) : o.colors.red(lines[0]!)) + '\n' + lines.slice(1).map((l) => l + '\n').join(''));
  report(run.interrupted ? 'interrupted' : ok && result.plan.summary.uncertain === 0 ? 'applied' : 'failed', o.seconds);
  if (run.interrupted) return o.interruptedCode;
  if (!ok) throw failedError(result);
  if (result.plan.summary.uncertain > 0) throw uncertainError(result.plan.summary.uncertain);
  return ExitCode.Ok;
}

/** The summary of a plan with nothing to send, with the renames and settled drift it recorded. */
function nothingSentLine(result: ApplyCourseResult): string {
  const renames = result.plan.renames.length;
  const settled = result.settledDrift.length;
  return (
    summaryLine(result.plan.summary) +
    (renames > 0 ? ` Recorded ${renames} rename(s) in state.` : '') +
    (settled > 0 ? ` Nothing to send: recorded ${settled} drifted lesson${settled === 1 ? '' : 's'} as the school has ${settled === 1 ? 'it' : 'them'} (${result.settledDrift.join(', ')}).` : '')
  );
}

/** Failed calls; a tracked lesson the school no longer has says how to recover, with the exact commands. */
function failedError(result: ApplyCourseResult): CoursesyncError {
  const outcomes = result.result!.outcomes;
  const gone = outcomes.flatMap((o) =>
    o.status === 'failed' && o.step.action !== 'create' && o.error instanceof SchoolApiError && o.error.status === 404 && o.step.lesson_id !== null
      ? [{ key: 'state_key' in o.step ? o.step.state_key : o.step.key, id: o.step.lesson_id, path: o.step.path }]
      : [],
  );
  if (gone.length > 0) return lessonsGoneError(gone);
  return failure('apply/failed', { failed: outcomes.filter((o) => o.status !== 'done').length, total: outcomes.length });
}

function uncertainError(n: number): CoursesyncError {
  return failure('apply/uncertain', { count: n });
}
