/**
 * `coursesync plan [dir]`: what apply would do, as text, markdown or JSON (the plan itself is
 * built by src/sync/build-plan.ts). No token is needed, except for --refresh and to resolve a
 * section given only by `name:` that the state has not resolved yet; with a token, the section
 * ids are checked (GET /sections) and lessons are read only with --refresh.
 */
import type { Command } from 'commander';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ConnectionFlags } from '../school/connection.js';
import type { Plan } from '../plan/plan-schema.js';
import type { LoadedState } from '../state/state-file.js';
import type { KnownLessons } from '../compile/compile-course.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { failure } from '../diagnostics/error-codes/index.js';
import { planFormat, positiveInt, processIo, type CommandIo } from './command-io.js';
import { addDirOptions, repoFolder } from './repo-folder.js';
import { timing } from '../load/timing.js';
import { appendFile } from 'node:fs/promises';

export interface PlanCommandOptions extends ConnectionFlags {
  out?: string;
  json?: boolean;
  format?: string;
  detailedExitcode?: boolean;
  refresh?: boolean;
  failOn?: string;
  concurrency?: string;
  htmlDiff?: boolean;
  skipHtmlOnly?: boolean;
  htmlOnly?: boolean;
  env?: string;
  skipPromotionCheck?: boolean;
}

/** `--skip-html-only` / `--html-only` (plan and apply) as a selection of the plan. */
export function htmlOnlySelection(options: { skipHtmlOnly?: boolean; htmlOnly?: boolean }): 'all' | 'skip' | 'only' {
  if (options.skipHtmlOnly && options.htmlOnly) {
    throw failure('cli/conflicting-options', { options: '--skip-html-only and --html-only', hint: 'give one: --skip-html-only holds back the lessons whose HTML alone changes, --html-only sends only those' });
  }
  return options.skipHtmlOnly ? 'skip' : options.htmlOnly ? 'only' : 'all';
}

/** Add the plan command. */
export function register(program: Command): void {
  addDirOptions(program.command('plan'))
    .description('Show what apply would change in the school (with a token: section ids checked; lessons read only with --refresh)')
    .option('--out <file>', 'also save the plan as JSON, for `coursesync apply <file>`')
    .option('--json', 'print the plan as JSON (same as --format json)')
    .option('--format <format>', 'output format: text, markdown or json (default: text)')
    .option('--detailed-exitcode', 'exit 0 when there are no changes, 1 on error, 2 when there are changes')
    .option('--refresh', 'read every tracked lesson from the school and report drift (needs a token)')
    .option('--fail-on <level>', 'exit 1 when the plan has learner impact of this level or worse not acknowledged in the repo: error, warning or info')
    .option('--concurrency <n>', 'at most this many requests in flight with --refresh (default: coursesync.yaml apply.concurrency, else 4)')
    .option('--html-diff', 'diff lesson bodies as the HTML sent, not as the Markdown of their files')
    .option('--skip-html-only', 'leave out the updates whose HTML alone changes (renderer upgrade, changed image, inherited setting); they stay in the next plan')
    .option('--html-only', 'only the updates whose HTML alone changes (the rest stays in the next plan)')
    .option('--base-url <url>', 'school API address (overrides COURSESYNC_BASE_URL and coursesync.yaml)')
    .option('--token-file <file>', 'read the API token from this file instead of COURSESYNC_TOKEN')
    .option('--env <name>', 'the environment of coursesync.yaml to plan for (required in a repo with environments; default COURSESYNC_ENV)')
    .option('--skip-promotion-check', 'plan even content not applied to the environment this one is promoted from (said in the plan)')
    .action(async (dir: string | undefined, options: PlanCommandOptions & { dir?: string }) => {
      process.exitCode = await runPlan(repoFolder(dir, options.dir), options);
    });
}

/** Run plan on the repo `dirArg` (or the one found from the current folder); returns the exit code. */
export async function runPlan(dirArg: string | undefined, options: PlanCommandOptions, io: CommandIo = processIo()): Promise<number> {
  timing('plan: started');
  const format = planFormat(options);
  const { parseImpactLevel, impactsAtLeast } = await import('../plan/impact-gate.js');
  const failOn = options.failOn === undefined ? undefined : parseImpactLevel(options.failOn, '--fail-on');
  const concurrency = positiveInt('--concurrency', options.concurrency, 64);
  const selection = htmlOnlySelection(options);
  const { findRepoRoot } = await import('../source/repo-root.js');
  // Only the modules this run needs: a plan answered from the memo loads no compiler and no zod.
  const { selectHtmlOnly } = await import('../plan/html-only.js');
  let dir = resolve(dirArg ?? '.');
  let folder = courseFolderName(dir);
  let plan: Plan;
  let verbatimText: ((path: string) => string | undefined) | undefined;
  // Named in a failure's comment too, when the environment was chosen before the failure.
  let environment: string | undefined;
  try {
    dir = await findRepoRoot(dirArg);
    folder = courseFolderName(dir);
    ({ plan, verbatimText } = await recallOrBuild(dir, options, io, concurrency, (chosen) => (environment = chosen)));
    plan = selectHtmlOnly(plan, selection);
  } catch (e) {
    // The pull-request comment must say that the plan failed, not keep showing an old plan.
    if (format === 'markdown') await writeFailureMarkdown(e, dir, folder, options, io, environment).catch(() => undefined);
    throw e;
  }
  const { colors } = await import('./terminal.js');
  const color = format === 'text' && colors(io.stdout, io.env).isColorSupported;
  const { readPlanSources } = await import('../sync/plan-sources.js');
  const sources = format === 'json' ? undefined : await readPlanSources(dir, plan, verbatimText);
  const detail = { sources, htmlDiff: options.htmlDiff === true };
  const { renderMarkdown } = await import('../plan/render-markdown.js');
  const output = format === 'json' ? undefined : format === 'markdown' ? renderMarkdown(plan, { ...detail, folder }) : (await import('../plan/render-text.js')).renderText(plan, { color, ...detail });
  if (output === undefined) for (const part of await jsonParts(plan)) io.stdout.write(part);
  else io.stdout.write(output.endsWith('\n') ? output : output + '\n');
  timing('plan: printed');
  // Text: notes are chatter, on stderr (stdout stays the plan); markdown and JSON carry them.
  if (format === 'text') for (const n of plan.notes ?? []) io.stderr.write(`Note: ${n}\n`);
  if (options.out) {
    const { writeFileAtomic } = await import('../state/state-file.js');
    await writeFileAtomic(resolve(options.out), await jsonParts(plan));
    if (format === 'text') io.stderr.write(`Saved the plan to ${options.out}; apply it with \`coursesync apply ${options.out}\`.\n`);
  }
  if (io.env.GITHUB_ACTIONS === 'true') {
    // On stderr, so `--format json` stdout stays parseable; Actions reads both.
    const { githubAnnotation } = await import('../diagnostics/github.js');
    for (const w of plan.warnings ?? []) io.stderr.write(githubAnnotation(w) + '\n');
  }
  const summaryFile = io.env.GITHUB_STEP_SUMMARY;
  if (summaryFile) {
    await appendFile(summaryFile, (format === 'markdown' ? output : renderMarkdown(plan, { sources: sources ?? (await readPlanSources(dir, plan, verbatimText)), folder })) + '\n');
  }
  const failing = failOn === undefined ? [] : impactsAtLeast(plan, failOn);
  if (failing.length > 0) {
    const { failure } = await import('../diagnostics/error-codes/index.js');
    throw failure('plan/learner-impact', { count: failing.length, level: failOn! });
  }
  const { hasChanges } = await import('../plan/describe-change.js');
  if (options.detailedExitcode && hasChanges(plan)) return ExitCode.Changes;
  return ExitCode.Ok;
}

/**
 * The plan of the repo at `dir`: the memo's answer when nothing it is made from changed
 * (docs/architecture.md, "The plan memo"), else built, and kept when it may answer the next
 * plan. `chosen` is told the environment once it is chosen (a failure's comment names it).
 */
async function recallOrBuild(dir: string, options: PlanCommandOptions, io: CommandIo, concurrency: number | undefined, chosen: (environment: string | undefined) => void): Promise<{ plan: Plan; verbatimText?: ((path: string) => string | undefined) | undefined }> {
  const memo = await import('../sync/plan-memo.js');
  const question = { envFlag: options.env, baseUrlFlag: options.baseUrl, tokenFile: options.tokenFile, refresh: options.refresh, skipPromotionCheck: options.skipPromotionCheck, env: io.env };
  // On a fresh checkout (no memo: a miss for sure) the repo is read on the other core while
  // this one loads the compiler and reads the state (load/read-aside.ts).
  let early: { environment: string | undefined; state: LoadedState; known?: KnownLessons } | undefined;
  const meanwhile = async () => {
    const [{ chooseEnvironment }, { readStateFile }] = await Promise.all([import('./environment.js'), import('../state/state-file.js'), import('../sync/build-plan.js')]);
    const environment = await chooseEnvironment(dir, options.env, io.env);
    chosen(environment);
    early = { environment, state: await readStateFile(dir, { environment }) };
  };
  // Then, while the read goes on: what the state knows, each lesson's answer made (the frame
  // checks every one of them). --refresh compiles every lesson: nothing to make.
  const whileWaiting = async function* () {
    if (!early || options.refresh) return;
    const [{ prepareKnown }, { knownToThisCompiler }] = await Promise.all([import('../compile/known-lessons.js'), import('../sync/build-plan.js')]);
    const known = await knownToThisCompiler(early.state.state);
    early.known = known;
    yield;
    yield* prepareKnown(known);
  };
  const inputs = memo.memoizable(question) ? await memo.readPlanInputs(dir, question, meanwhile, whileWaiting) : undefined;
  const recalled = inputs && (await memo.recallPlan(dir, inputs));
  if (recalled) return { plan: recalled };
  const { buildPlan } = await import('../sync/build-plan.js');
  const { chooseEnvironment } = await import('./environment.js');
  const environment = early ? early.environment : await chooseEnvironment(dir, options.env, io.env);
  chosen(environment);
  const { env: _flag, ...flags } = options;
  const built = await buildPlan(dir, { ...flags, concurrency, env: io.env, environment, skipPromotionCheck: options.skipPromotionCheck === true, source: inputs?.source, state: early?.state, known: early?.known });
  if (inputs) await memo.keepPlan(dir, inputs, built);
  return built;
}

/** The plan as JSON, in parts (its module, with the plan's schema, loaded only for it). */
async function jsonParts(plan: Plan): Promise<Iterable<string>> {
  return (await import('../plan/render-json.js')).renderJsonParts(plan);
}

/** The course folder as a plan's header names it: relative to the current folder, else its own name. */
function courseFolderName(dir: string): string {
  const rel = relative(process.cwd(), dir);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? basename(dir) : rel.split(sep).join('/');
}

/** A failed plan as Markdown on stdout (and in the job summary), for the comment that replaces the last one. */
async function writeFailureMarkdown(e: unknown, dir: string, folder: string, options: PlanCommandOptions, io: CommandIo, environment: string | undefined): Promise<void> {
  const { isCoursesyncError } = await import('../diagnostics/errors.js');
  const { renderFailureMarkdown } = await import('../plan/render-markdown.js');
  const known = isCoursesyncError(e);
  const text = renderFailureMarkdown({
    folder,
    baseUrl: await baseUrlForHeader(dir, options, io.env, environment),
    environment,
    message: known ? e.message : 'internal error (a bug in coursesync, please report it); see the job log',
    hint: known ? e.hint : undefined,
    diagnostics: known ? e.diagnostics : [],
  });
  io.stdout.write(text + '\n');
  if (io.env.GITHUB_STEP_SUMMARY) {
    await appendFile(io.env.GITHUB_STEP_SUMMARY, text + '\n');
  }
}

/** The school's base URL from the flags, the environment or coursesync.yaml read leniently (the repo may be what failed). */
async function baseUrlForHeader(dir: string, options: PlanCommandOptions, env: NodeJS.ProcessEnv, environment: string | undefined): Promise<string | null> {
  const given = options.baseUrl ?? env.COURSESYNC_BASE_URL;
  if (given) return given;
  const { readYamlLeniently } = await import('../source/read-yaml-leniently.js');
  type School = { school?: { base_url?: unknown } } | null | undefined;
  const config = (await readYamlLeniently(join(dir, 'coursesync.yaml'))) as (School & { environments?: Record<string, School> }) | null | undefined;
  const url = (environment === undefined ? undefined : config?.environments?.[environment]?.school?.base_url) ?? config?.school?.base_url;
  return typeof url === 'string' ? url : null;
}
