/**
 * `coursesync apply [dir|plan.json]`: run the plan against the school (docs/architecture.md#apply, docs/school-api.md#webhooks).
 * Flags → options → applyCourse (src/apply/); this file only talks to the terminal:
 * - on a TTY: the plan, a y/N confirmation, a progress bar (calls done, in flight, failed);
 * - off a TTY: `--yes` is required when there is a call to make, and each call gets one line;
 * - with --json: one document on stdout at the end (apply-report.ts), everything else on stderr;
 * - SIGINT or SIGTERM: the first stops starting calls, lets those in flight finish, saves state
 *   and exits 130 (143 for SIGTERM); a second exits at once (the state may hold pending calls;
 *   the next apply resolves them).
 * A saved plan is applied to the course repo found from the current folder (or `--dir`), as
 * Terraform applies a saved plan in its working directory.
 */
import { ExitCode } from '../diagnostics/exit-codes.js';
import type { Command } from 'commander';
import type { ConnectionFlags } from '../school/connection.js';
import { repoFolder } from './repo-folder.js';
import { failure } from '../diagnostics/error-codes/index.js';
import type { CoursesyncError } from '../diagnostics/errors.js';
import { positiveInt, processIo, type CommandIo } from './school-command.js';

export interface ApplyCommandOptions extends ConnectionFlags {
  yes?: boolean;
  htmlDiff?: boolean;
  skipHtmlOnly?: boolean;
  htmlOnly?: boolean;
  concurrency?: string;
  refresh?: boolean;
  recreate?: string[];
  replace?: string[];
  dir?: string;
  forceUnlock?: boolean;
  acceptImpact?: boolean;
  json?: boolean;
  env?: string;
  skipPromotionCheck?: boolean;
}

/** Add the apply command. */
export function register(program: Command): void {
  program
    .command('apply')
    .description('Apply the repo (or a saved plan) to the school: creates, moves and updates in planned order')
    .argument('[plan]', 'a plan saved with `coursesync plan --out plan.json` (default: plan the repo now)')
    .option('-y, --yes', 'apply without asking (required off a terminal when there is a call to make)')
    .option('--concurrency <n>', 'at most this many requests in flight (default: coursesync.yaml apply.concurrency, else 4)')
    .option('--refresh', 'read every tracked lesson from the school first and report drift')
    .option('--skip-html-only', 'leave out the updates whose HTML alone changes (renderer upgrade, changed image, inherited setting); the next apply sends them')
    .option('--html-only', 'send only the updates whose HTML alone changes; the rest waits for the next apply')
    .option('--html-diff', 'show lesson bodies as an HTML diff, not as the Markdown of their files')
    .option('--recreate <key>', 'drop the uncertain create KEY from state and create it again (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--replace <key>', 'forget the tracked lesson KEY and create it anew from its file, e.g. after it was deleted in the school (repeatable)', (v: string, prev: string[] = []) => [...prev, v])
    .option('--dir <dir>', 'folder of the course repo, also the one a saved plan belongs to (default: found from the current folder upward)')
    .option('--force-unlock', 'take the state lock even if another apply seems to hold it')
    .option('--accept-impact', 'apply even when the plan has error-level learner impact not acknowledged in the repo')
    .option('--json', 'print what was done as JSON on stdout (the plan and progress go to stderr)')
    .option('--base-url <url>', 'school API address (overrides COURSESYNC_BASE_URL and coursesync.yaml)')
    .option('--token-file <file>', 'read the API token from this file instead of COURSESYNC_TOKEN')
    .option('--env <name>', 'the environment of coursesync.yaml to apply to (required in a repo with environments; default COURSESYNC_ENV)')
    .option('--skip-promotion-check', 'apply even content not applied to the environment this one is promoted from (said in the plan)')
    .action(async (target: string | undefined, options: ApplyCommandOptions) => {
      process.exitCode = await runApply(target, options);
    });
}

/** Run apply on the repo or saved plan `target` (default: the repo found from the current folder); returns the exit code. */
export async function runApply(target: string | undefined, options: ApplyCommandOptions, io: CommandIo = processIo()): Promise<number> {
  const { colors, confirm, printJson } = await import('./terminal.js');
  const { plural } = await import('../diagnostics/error-codes/entry.js');
  const interactive = io.interactive === true;
  const concurrency = positiveInt('--concurrency', options.concurrency, 64);
  const { htmlOnlySelection } = await import('./plan.js');
  const selection = htmlOnlySelection(options);
  const { stat, readFile } = await import('node:fs/promises');
  const { findRepoRoot } = await import('../source/repo-root.js');
  let savedPlan: { plan: import('../plan/plan-schema.js').Plan; file: string } | undefined;
  const info = target === undefined ? undefined : await stat(target).catch(() => undefined);
  if (target !== undefined && info === undefined) {
    throw failure('apply/no-target', { target });
  }
  if (target !== undefined && info?.isFile()) {
    const { parsePlanText } = await import('../plan/render-json.js');
    savedPlan = { plan: parsePlanText(await readFile(target, 'utf8'), target), file: target };
  }
  // A folder in place of the plan is the old way to name the repo: read as --dir.
  const dir = await findRepoRoot(savedPlan ? options.dir : repoFolder(target, options.dir));
  const { chooseEnvironment } = await import('./environment.js');
  const environment = await chooseEnvironment(dir, options.env, io.env);

  const { applyCourse, describeOutcome, summarizeApply } = await import('../apply/index.js');
  const { renderText, summaryLine } = await import('../plan/index.js');
  const { environmentLines } = await import('../plan/render-text.js');
  const { isCall } = await import('../plan/plan-schema.js');
  const err = io.stderr;
  // With --json, stdout holds the one JSON document; what a person reads goes to stderr.
  const out = options.json ? err : io.stdout;
  const c = colors(out, io.env);
  const color = c.isColorSupported;
  const controller = new AbortController();
  // SIGTERM (a CI job cancelled, `kill`) is as graceful as Ctrl-C; each exits with its own code.
  let stoppedBy: NodeJS.Signals | undefined;
  let atPrompt = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (atPrompt) return; // the prompt stops itself (terminal.ts confirm)
    const code = signal === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted;
    if (stoppedBy === undefined) {
      stoppedBy = signal;
      err.write(`\nStopping: no new calls will start; waiting for the calls in flight, then saving the state. Press Ctrl-C again to stop at once.\n`);
      controller.abort();
      return;
    }
    err.write('\nStopped at once. The state may hold calls still pending; the next `coursesync apply` resolves them first.\n');
    process.exit(code);
  };

  let bar: ReturnType<typeof import('./progress-line.js').progressLine> | undefined;
  let failedCount = 0;
  let doneCount = 0;
  let started = performance.now();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let result: Awaited<ReturnType<typeof applyCourse>>;
  try {
    result = await applyCourse(dir, {
      baseUrl: options.baseUrl,
      tokenFile: options.tokenFile,
      savedPlan,
      refresh: options.refresh,
      concurrency,
      recreate: options.recreate,
      replace: options.replace,
      forceUnlock: options.forceUnlock,
      acceptImpact: options.acceptImpact,
      htmlOnly: selection,
      environment,
      skipPromotionCheck: options.skipPromotionCheck === true,
      signal: controller.signal,
      env: io.env,
      onNotice: (m) => err.write(`coursesync: ${m}\n`),
      confirm: async (plan, ctx) => {
        const { readPlanSources } = await import('../sync/plan-sources.js');
        out.write(renderText(plan, { color, sources: await readPlanSources(dir, plan), htmlDiff: options.htmlDiff === true }));
        const calls = plan.changes.filter(isCall).length;
        const question = `Apply ${calls === 1 ? 'this' : 'these'} ${plural(calls, 'call')} to ${ctx.baseUrl}?`;
        // Off a terminal nobody can confirm; asked only when there is a call to make.
        if (!interactive && !options.yes) throw failure('cli/needs-yes', { question, plan: true });
        // Stopped while planning: no prompt, no call.
        if (stoppedBy) throw failure('cli/interrupted', { question }, { exitCode: stoppedBy === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted });
        atPrompt = true;
        const ok = await confirm(question, { yes: options.yes }).finally(() => (atPrompt = false));
        if (ok && interactive) {
          const { progressLine } = await import('./progress-line.js');
          bar = progressLine(process.stderr, calls);
        } else if (ok) {
          out.write(`Applying ${calls} call${calls === 1 ? '' : 's'} to ${ctx.baseUrl} (concurrency ${ctx.concurrency})…\n`);
        }
        started = performance.now(); // time the calls, not the wait for an answer
        return ok;
      },
      onEvent: (e) => {
        if (e.type === 'call-start') {
          bar?.update({ inflight: e.inFlight });
          return;
        }
        if (e.outcome.status === 'failed' || e.outcome.status === 'uncertain') failedCount++;
        bar?.update({ done: ++doneCount, inflight: e.inFlight, failed: failedCount });
        // Each outcome (a created lesson's id among them) is printed, above the bar on a terminal.
        if (e.outcome.status === 'skipped') return;
        if (bar) bar.print(describeOutcome(e.outcome), out);
        else out.write(describeOutcome(e.outcome) + '\n');
      },
    });
  } finally {
    bar?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  const { applyReport } = await import('./apply-report.js');
  const report = (status: import('./apply-report.js').ApplyStatus, seconds: number | null = null) => {
    if (options.json) printJson(applyReport(result, status, seconds), io.stdout);
  };
  if (result.cancelled) {
    err.write('Apply cancelled; nothing was changed.\n');
    report('cancelled');
    return ExitCode.Cancelled;
  }
  if (result.result === null) {
    if (result.plan.summary.uncertain > 0) {
      out.write(renderText(result.plan, { color }));
      report('failed');
      throw uncertainError(result.plan.summary.uncertain);
    }
    const settled = result.settledDrift.length;
    out.write(environmentLines(result.plan).join('\n'));
    out.write(
      `${summaryLine(result.plan.summary)}${result.plan.renames.length > 0 ? ` Recorded ${result.plan.renames.length} rename(s) in state.` : ''}` +
        (settled > 0 ? ` Nothing to send: recorded ${settled} drifted lesson${settled === 1 ? '' : 's'} as the school has ${settled === 1 ? 'it' : 'them'} (${result.settledDrift.join(', ')}).` : '') +
        '\n',
    );
    report('no-changes');
    return ExitCode.Ok;
  }
  const seconds = (performance.now() - started) / 1000;
  const lines = summarizeApply(result, { seconds });
  const ok = result.result.outcomes.every((o) => o.status === 'done');
  out.write((ok ? c.green(lines[0]!) : c.red(lines[0]!)) + '\n' + lines.slice(1).map((l) => l + '\n').join(''));
  report(result.result.interrupted ? 'interrupted' : ok && result.plan.summary.uncertain === 0 ? 'applied' : 'failed', seconds);
  if (result.result.interrupted) return stoppedBy === 'SIGTERM' ? ExitCode.Terminated : ExitCode.Interrupted;
  if (!ok) {
    // A tracked lesson the school no longer has: say how to recover, with the exact commands.
    const { SchoolApiError } = await import('../school/errors.js');
    const gone = result.result.outcomes.flatMap((o) =>
      o.status === 'failed' && o.step.action !== 'create' && o.error instanceof SchoolApiError && o.error.status === 404 && o.step.lesson_id !== null
        ? [{ key: 'state_key' in o.step ? o.step.state_key : o.step.key, id: o.step.lesson_id, path: o.step.path }]
        : [],
    );
    if (gone.length > 0) {
      const { lessonsGoneError } = await import('../sync/build-plan.js');
      throw lessonsGoneError(gone);
    }
    const failed = result.result.outcomes.filter((o) => o.status !== 'done').length;
    throw failure('apply/failed', { failed, total: result.result.outcomes.length });
  }
  if (result.plan.summary.uncertain > 0) throw uncertainError(result.plan.summary.uncertain);
  return ExitCode.Ok;
}

function uncertainError(n: number): CoursesyncError {
  return failure('apply/uncertain', { count: n });
}
