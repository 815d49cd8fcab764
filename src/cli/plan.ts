/**
 * `coursesync plan [dir]`: what apply would do, as text, markdown or JSON (the plan itself is
 * built by src/sync/build-plan.ts). No token is needed, except for --refresh and to resolve a
 * section given only by `name:` that the state has not resolved yet; with a token, the section
 * ids are checked (GET /sections) and lessons are read only with --refresh.
 */
import type { Command } from 'commander';
import type { ConnectionFlags } from '../school/connection.js';
import { ExitCode } from './exit-codes.js';
import { planFormat, positiveInt, processIo, type CommandIo } from './school-command.js';

export interface PlanCommandOptions extends ConnectionFlags {
  out?: string;
  json?: boolean;
  format?: string;
  detailedExitcode?: boolean;
  refresh?: boolean;
  failOn?: string;
  concurrency?: string;
}

/** Add the plan command. */
export function register(program: Command): void {
  program
    .command('plan')
    .description('Show what apply would change in the school (with a token: section ids checked; lessons read only with --refresh)')
    .argument('[dir]', 'folder of the course repo (default: found from the current folder upward)')
    .option('--out <file>', 'also save the plan as JSON, for `coursesync apply <file>`')
    .option('--json', 'print the plan as JSON (same as --format json)')
    .option('--format <format>', 'output format: text, markdown or json', 'text')
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 1 on error, 2 when there are changes')
    .option('--refresh', 'read every tracked lesson from the school and report drift (needs a token)')
    .option('--fail-on <level>', 'exit 1 when the plan has learner impact of this level or worse not acknowledged in the repo: error, warning or info')
    .option('--concurrency <n>', 'at most this many requests in flight with --refresh (default: coursesync.yaml apply.concurrency, else 4)')
    .option('--base-url <url>', 'school API address (overrides COURSESYNC_BASE_URL and coursesync.yaml)')
    .option('--token-file <file>', 'read the API token from this file instead of COURSESYNC_TOKEN')
    .action(async (dir: string | undefined, options: PlanCommandOptions) => {
      process.exitCode = await runPlan(dir, options);
    });
}

/** Run plan on the repo `dirArg` (or the one found from the current folder); returns the exit code. */
export async function runPlan(dirArg: string | undefined, options: PlanCommandOptions, io: CommandIo = processIo()): Promise<number> {
  const format = planFormat(options);
  const { parseImpactLevel, impactsAtLeast } = await import('../plan/impact-gate.js');
  const failOn = options.failOn === undefined ? undefined : parseImpactLevel(options.failOn, '--fail-on');
  const concurrency = positiveInt('--concurrency', options.concurrency, 64);
  const { findRepoRoot } = await import('../source/repo-root.js');
  const dir = await findRepoRoot(dirArg);
  const { buildPlan } = await import('../sync/build-plan.js');
  const { plan } = await buildPlan(dir, { ...options, concurrency, env: io.env });
  const { renderText, renderMarkdown, renderJson, hasChanges } = await import('../plan/index.js');
  const { colors } = await import('./terminal.js');
  const color = format === 'text' && colors(io.stdout, io.env).isColorSupported;
  const output = format === 'json' ? renderJson(plan) : format === 'markdown' ? renderMarkdown(plan) : renderText(plan, { color });
  io.stdout.write(output.endsWith('\n') ? output : output + '\n');
  // Text: notes are chatter, on stderr (stdout stays the plan); markdown and JSON carry them.
  if (format === 'text') for (const n of plan.notes ?? []) io.stderr.write(`Note: ${n}\n`);
  if (options.out) {
    const { writeFileAtomic } = await import('../state/state-file.js');
    const { resolve } = await import('node:path');
    await writeFileAtomic(resolve(options.out), renderJson(plan));
    if (format === 'text') io.stderr.write(`Saved the plan to ${options.out}; apply it with \`coursesync apply ${options.out}\`.\n`);
  }
  if (io.env.GITHUB_ACTIONS === 'true') {
    // On stderr, so `--format json` stdout stays parseable; Actions reads both.
    const { githubAnnotation } = await import('../diagnostics/github.js');
    for (const w of plan.warnings ?? []) io.stderr.write(githubAnnotation(w) + '\n');
  }
  const summaryFile = io.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    const { appendFile } = await import('node:fs/promises');
    await appendFile(summaryFile, (format === 'markdown' ? output : renderMarkdown(plan)) + '\n');
  }
  const failing = failOn === undefined ? [] : impactsAtLeast(plan, failOn);
  if (failing.length > 0) {
    const { failure } = await import('../diagnostics/error-codes/index.js');
    throw failure('plan/learner-impact', { count: failing.length, level: failOn! });
  }
  if (options.detailedExitcode && hasChanges(plan)) return ExitCode.Changes;
  return ExitCode.Ok;
}
