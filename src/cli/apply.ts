/**
 * `coursesync apply [dir|plan.json]`: run the plan against the school (docs/architecture.md#apply, docs/school-api.md#webhooks).
 * Flags → options → applyCourse (src/apply/); the terminal side is one module per phase:
 * - what is applied, and to which environment: apply-target.ts (a saved plan or the repo);
 * - SIGINT or SIGTERM: apply-signals.ts (the first stops starting calls and saves the state,
 *   exit 130 or 143; a second exits at once);
 * - the plan, the confirmation (`--yes` off a TTY) and a progress bar or one line per call:
 *   apply-progress.ts;
 * - how it ends (summary, exit code, `--json` report on stdout): apply-summary.ts.
 */
import type { Command } from 'commander';
import type { ConnectionFlags } from '../school/connection.js';
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
  const concurrency = positiveInt('--concurrency', options.concurrency, 64);
  const { htmlOnlySelection } = await import('./plan.js');
  const htmlOnly = htmlOnlySelection(options);
  const { applyTarget } = await import('./apply-target.js');
  const { savedPlan, dir, environment } = await applyTarget(target, options, io.env);
  const [{ applyCourse }, { colors }, { stopOnSignals }, { applyProgress }, { summarizeEnd }] = await Promise.all([
    import('../apply/apply-course.js'),
    import('./terminal.js'),
    import('./apply-signals.js'),
    import('./apply-progress.js'),
    import('./apply-summary.js'),
  ]);
  // With --json, stdout holds the one JSON document; what a person reads goes to stderr.
  const out = options.json ? io.stderr : io.stdout;
  const c = colors(out, io.env);
  const signals = stopOnSignals(io.stderr);
  const progress = applyProgress({ dir, out, color: c.isColorSupported, interactive: io.interactive === true, yes: options.yes === true, htmlDiff: options.htmlDiff === true, signals });
  const result = await applyCourse(dir, {
    baseUrl: options.baseUrl,
    tokenFile: options.tokenFile,
    savedPlan,
    refresh: options.refresh,
    concurrency,
    recreate: options.recreate,
    replace: options.replace,
    forceUnlock: options.forceUnlock,
    acceptImpact: options.acceptImpact,
    htmlOnly,
    environment,
    skipPromotionCheck: options.skipPromotionCheck === true,
    signal: signals.signal,
    env: io.env,
    onNotice: (m) => io.stderr.write(`coursesync: ${m}\n`),
    confirm: progress.confirm,
    onEvent: progress.onEvent,
  }).finally(() => {
    progress.stop();
    signals.release();
  });
  return summarizeEnd(result, { out, err: io.stderr, json: options.json ? io.stdout : undefined, colors: c, seconds: progress.seconds(), interruptedCode: signals.exitCode() });
}
