/**
 * `coursesync validate [dir]`: read and check the whole course repo, print every diagnostic
 * at once (sorted, `path:line:col`, on stderr) and a summary line (on stdout); exit 0 when
 * valid, 1 when not. With --json, one document on stdout holds both.
 * It compiles like plan, with the lesson cache under `.coursesync/cache/` and the digests the
 * state recorded at the last apply: a lesson file whose bytes (and inherited settings and
 * referenced files) this very compiler found clean is not parsed or rendered again, cache or no
 * cache. Nothing is hidden by it: lessons with any diagnostic are never cached nor given a
 * digest, and the references of every lesson, cached or not, are resolved against the repo as
 * it is now (a digest covers the files it references).
 */
import type { Command } from 'commander';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { processIo, type CommandIo } from './school-command.js';
import { addDirOptions, repoFolder } from './repo-folder.js';
import { join } from 'node:path';

export interface ValidateOptions {
  format?: string | undefined;
  json?: boolean;
  env?: string;
}

/** Add the validate command. */
export function register(program: Command): void {
  addDirOptions(program.command('validate'))
    .description('Parse and check the course repo: every problem at once, as path:line:col')
    .option('--json', 'print the diagnostics and counts as JSON (same as --format json)')
    .option('--format <format>', 'output format: text or json (versioned; default: text)')
    .option('--env <name>', 'check the repo as this environment of coursesync.yaml sees it (default COURSESYNC_ENV; without one: as each environment sees it)')
    .action(async (dir: string | undefined, options: ValidateOptions & { dir?: string }) => {
      process.exitCode = await runValidate(repoFolder(dir, options.dir), options);
    });
}

/** Run validate on the repo `dirArg` (or the one found from the current folder); returns the exit code. */
export async function runValidate(dirArg: string | undefined, options: ValidateOptions, io: CommandIo = processIo()): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  const { jsonOrFormat } = await import('./school-command.js');
  const format = jsonOrFormat(options);
  if (format !== 'text' && format !== 'json') {
    throw failure('cli/bad-format', { format: String(format), allowed: 'text or json' });
  }
  const { findRepoRoot } = await import('../source/repo-root.js');
  const dir = await findRepoRoot(dirArg);
  const { loadCourse } = await import('../load/load-course.js');
  const { renderThreadsFromEnv } = await import('../load/render-pool.js');
  const { githubAnnotation } = await import('../diagnostics/github.js');
  const { checkWebhooksAt } = await import('../webhooks/read-webhooks-file.js');
  const { hasErrors, sortDiagnostics } = await import('../diagnostics/diagnostic.js');
  // validate talks to no school: an environment is optional, but one named must exist.
  const named = options.env !== undefined || (io.env.COURSESYNC_ENV ?? '').trim() !== '';
  const environment = named ? await (await import('./environment.js')).chooseEnvironment(dir, options.env, io.env) : undefined;
  // Without one, the repo is checked as each of its environments sees it (none, or more than
  // the limit, which the compile reports: as it is).
  const declared = environment !== undefined ? [environment] : await declaredEnvironments(dir);
  const { MAX_ENVIRONMENTS } = await import('../model/environments.js');
  const environments = declared.length > MAX_ENVIRONMENTS ? [] : declared;
  const load = async (name: string | undefined) => loadCourse(dir, { cache: true, renderThreads: renderThreadsFromEnv(io.env), known: await knownFromState(dir, name), environment: name });
  const [results, webhooks] = await Promise.all([Promise.all((environments.length > 0 ? environments : [undefined]).map(load)), checkWebhooksAt(dir)]);
  const result = mergeResults(results);
  // webhooks.yaml is optional; when present, validate checks it too ("parse and check everything").
  const diagnostics = sortDiagnostics([...result.diagnostics, ...(webhooks?.diagnostics ?? [])]);
  const valid = result.desired !== undefined && !hasErrors(webhooks?.diagnostics ?? []);
  const counts = webhooks ? { ...result.counts, webhooks: webhooks.count } : result.counts;
  if (format === 'json') {
    const { printDocument } = await import('./terminal.js');
    printDocument({ valid, counts, diagnostics }, io.stdout);
  } else {
    // Diagnostics are chatter on stderr, as with every command; the verdict is the result.
    const { colors, paintDiagnostic } = await import('./terminal.js');
    const c = colors(io.stderr, io.env);
    for (const d of diagnostics) io.stderr.write(paintDiagnostic(d, c) + '\n');
    io.stdout.write(summaryLine(counts, diagnostics) + '\n');
  }
  if (io.env.GITHUB_ACTIONS === 'true') {
    // Annotations go to stderr so `--format json` stdout stays parseable; Actions reads both.
    for (const d of diagnostics) io.stderr.write(githubAnnotation(d) + '\n');
  }
  return valid ? ExitCode.Ok : ExitCode.Error;
}

/** What the state knows of lessons compiled clean by this compiler; nothing when there is no readable state (validate checks the repo, not the state). */
async function knownFromState(dir: string, environment: string | undefined): Promise<import('../compile/compile-course.js').KnownLessons | undefined> {
  const { readStateFile } = await import('../state/state-file.js');
  const { knownToThisCompiler } = await import('../sync/build-plan.js');
  try {
    const { state, exists } = await readStateFile(dir, { environment });
    return exists ? await knownToThisCompiler(state) : undefined;
  } catch {
    return undefined;
  }
}

/** The environments coursesync.yaml declares, read leniently (a broken file is reported by the compile). */
async function declaredEnvironments(dir: string): Promise<string[]> {
  const { readYamlLeniently } = await import('../source/read-yaml-leniently.js');
  const config = (await readYamlLeniently(join(dir, 'coursesync.yaml'))) as { environments?: unknown } | null | undefined;
  const envs = config?.environments;
  return typeof envs === 'object' && envs !== null && !Array.isArray(envs) ? Object.keys(envs) : [];
}

type LoadResult = Awaited<ReturnType<typeof import('../load/load-course.js').loadCourse>>;

/** The compiles of several environments as one: every distinct diagnostic once, valid when all are. */
function mergeResults(results: LoadResult[]): LoadResult {
  const first = results[0]!;
  if (results.length === 1) return first;
  const seen = new Set<string>();
  const diagnostics = results.flatMap((r) => r.diagnostics).filter((d) => {
    const id = JSON.stringify([d.file, d.line, d.column, d.code, d.message]);
    return seen.has(id) ? false : (seen.add(id), true);
  });
  return { ...first, diagnostics, ...(results.every((r) => r.desired) ? {} : { desired: undefined }) };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `2 programs, 5 sections, 21 lessons: valid` or `…: 3 errors, 1 warning`. */
export function summaryLine(
  counts: { programs: number; sections: number; lessons: number; webhooks?: number },
  diagnostics: ReadonlyArray<{ severity: string }>,
): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  let head = `${plural(counts.programs, 'program')}, ${plural(counts.sections, 'section')}, ${plural(counts.lessons, 'lesson')}`;
  if (counts.webhooks !== undefined) head += `, ${plural(counts.webhooks, 'webhook')}`;
  if (errors === 0) return `${head}: valid${warnings ? ` (${plural(warnings, 'warning')})` : ''}`;
  return `${head}: ${plural(errors, 'error')}${warnings ? `, ${plural(warnings, 'warning')}` : ''}`;
}
