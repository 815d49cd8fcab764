/**
 * `coursesync plan [dir]`: what apply would do, as text, markdown or JSON (the plan itself is
 * built by src/sync/build-plan.ts). Without --refresh no request is sent and no token is
 * needed, except to resolve a section given only by `name:` that the state has not resolved yet.
 */
import type { Command } from 'commander';
import type { ConnectionFlags } from '../school/connection.js';
import { ExitCode } from './exit-codes.js';

interface PlanCommandOptions extends ConnectionFlags {
  out?: string;
  json?: boolean;
  format: string;
  detailedExitcode?: boolean;
  refresh?: boolean;
  failOn?: string;
  concurrency?: string;
}

/** Add the plan command. */
export function register(program: Command): void {
  program
    .command('plan')
    .description('Show what apply would change in the school (no request without --refresh)')
    .argument('[dir]', 'folder of the course repo', '.')
    .option('--out <file>', 'also save the plan as JSON, for `coursesync apply <file>`')
    .option('--json', 'print the plan as JSON (same as --format json)')
    .option('--format <format>', 'output format: text, markdown or json', 'text')
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 1 on error, 2 when there are changes')
    .option('--refresh', 'read every tracked lesson from the school and report drift (needs a token)')
    .option('--fail-on <level>', 'exit 1 when the plan has learner impact of this level or worse not acknowledged in the repo: error, warning or info')
    .option('--concurrency <n>', 'at most this many requests in flight with --refresh (default: coursesync.yaml apply.concurrency, else 4)')
    .option('--base-url <url>', 'school API address (overrides COURSESYNC_BASE_URL and coursesync.yaml)')
    .option('--token-file <file>', 'read the API token from this file instead of COURSESYNC_TOKEN')
    .action(async (dir: string, options: PlanCommandOptions) => {
      process.exitCode = await runPlan(dir, options);
    });
}

async function runPlan(dir: string, options: PlanCommandOptions): Promise<number> {
  const { CoursesyncError } = await import('../diagnostics/errors.js');
  const format = options.json ? 'json' : options.format;
  if (format !== 'text' && format !== 'markdown' && format !== 'json') {
    throw new CoursesyncError(`unknown format "${format}"`, { code: 'cli/bad-format', hint: 'use --format text, markdown or json' });
  }
  const { parseImpactLevel, impactsAtLeast } = await import('../plan/impact-gate.js');
  const failOn = options.failOn === undefined ? undefined : parseImpactLevel(options.failOn, '--fail-on');
  const { buildPlan } = await import('../sync/build-plan.js');
  const { positiveInt } = await import('./school-command.js');
  const { plan } = await buildPlan(dir, { ...options, concurrency: positiveInt('--concurrency', options.concurrency, 64) });
  const { renderText, renderMarkdown, renderJson, hasChanges } = await import('../plan/index.js');
  const color = format === 'text' && process.stdout.isTTY === true && !process.env.NO_COLOR;
  const output = format === 'json' ? renderJson(plan) : format === 'markdown' ? renderMarkdown(plan) : renderText(plan, { color });
  process.stdout.write(output.endsWith('\n') ? output : output + '\n');
  if (options.out) {
    const { writeFileAtomic } = await import('../state/state-file.js');
    const { resolve } = await import('node:path');
    await writeFileAtomic(resolve(options.out), renderJson(plan));
    if (format === 'text') process.stderr.write(`Saved the plan to ${options.out}; apply it with \`coursesync apply ${options.out}\`.\n`);
  }
  const summaryFile = process.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    const { appendFile } = await import('node:fs/promises');
    await appendFile(summaryFile, (format === 'markdown' ? output : renderMarkdown(plan)) + '\n');
  }
  const failing = failOn === undefined ? [] : impactsAtLeast(plan, failOn);
  if (failing.length > 0) {
    throw new CoursesyncError(`the plan has ${failing.length} learner impact${failing.length === 1 ? '' : 's'} of level ${failOn} or worse not acknowledged in the repo (--fail-on ${failOn})`, {
      code: 'plan/learner-impact',
      hint: 'see "Learner impact" in the plan; acknowledge reviewed errors with `acknowledge:` in the lesson front-matter or coursesync.yaml',
    });
  }
  if (options.detailedExitcode && hasChanges(plan)) return ExitCode.Changes;
  return ExitCode.Ok;
}
