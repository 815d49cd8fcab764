/**
 * `coursesync import <lesson-id>... --into <section-dir> [--keep-html]` and
 * `coursesync import <lesson-id> --key KEY`: adopt existing school lessons (src/clone/import-lessons.ts).
 * Prints one line per file, the lessons kept as HTML and why, and what the next plan holds for
 * them (it runs the planner, which needs no request).
 */
import type { Command } from 'commander';
import type { ConnectionFlags } from '../school/connection.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { processIo, type CommandIo } from './school-command.js';

export interface ImportCommandOptions extends ConnectionFlags {
  into?: string;
  key?: string;
  keepHtml?: boolean;
  writeFile?: boolean;
  dir?: string;
  json?: boolean;
  env?: string;
}

/** Keys of `keys` that the repo's plan would still change, with the action. */
export async function pendingChangesFor(dir: string, keys: ReadonlySet<string>, flags: ConnectionFlags, env: NodeJS.ProcessEnv, environment?: string): Promise<Array<{ key: string; action: string }>> {
  const { buildPlan } = await import('../sync/build-plan.js');
  // What is left for these keys only: the section check belongs to plan and apply (so does the promotion check).
  const { plan } = await buildPlan(dir, { baseUrl: flags.baseUrl, tokenFile: flags.tokenFile, env, verifySections: false, environment, skipPromotionCheck: true });
  return plan.changes.filter((c) => keys.has(c.key) && c.action !== 'orphan').map((c) => ({ key: c.key, action: c.action }));
}

/** Run import; returns the exit code. */
export async function runImport(ids: string[], options: ImportCommandOptions, io: CommandIo = processIo()): Promise<number> {
  const { importLessons } = await import('../clone/import-lessons.js');
  const { repoAndEnvironment } = await import('./environment.js');
  const { dir, environment } = await repoAndEnvironment(options.dir, options.env, io.env);
  const result = await importLessons(dir, ids, {
    environment,
    into: options.into,
    key: options.key,
    keepHtml: options.keepHtml,
    writeFile: options.writeFile,
    baseUrl: options.baseUrl,
    tokenFile: options.tokenFile,
    env: io.env,
    onNotice: (m) => io.stderr.write(`coursesync: ${m}\n`),
  });
  const keys = new Set(result.lessons.map((l) => l.key));
  const left = await pendingChangesFor(dir, keys, options, io.env, environment);
  if (options.json) {
    const { printDocument } = await import('./terminal.js');
    printDocument({ lessons: result.lessons, resolved_uncertain: result.resolvedUncertain, next_plan: left }, io.stdout);
    return ExitCode.Ok;
  }
  const out = io.stdout;
  if (options.key !== undefined) {
    const l = result.lessons[0]!;
    if (options.writeFile) out.write(`Wrote the school's version of lesson ${l.id} "${l.name}" into ${l.path} (${l.keptAsHtml === null ? 'Markdown' : 'HTML'}) and recorded it as ${l.key}.\n`);
    else out.write(`Adopted lesson ${l.id} "${l.name}" as ${l.key} (${l.path}); state only, the file was not changed.\n`);
    if (result.resolvedUncertain) out.write(`This settles the uncertain create of ${l.key}: it will not be created again.\n`);
  } else {
    out.write(`Imported ${result.lessons.length} lesson${result.lessons.length === 1 ? '' : 's'}:\n`);
    for (const l of result.lessons) out.write(`  + ${l.path}  ← ${l.id} "${l.name}" (${l.keptAsHtml === null ? 'Markdown' : 'HTML'})\n`);
    const kept = result.lessons.filter((l) => l.keptAsHtml !== null);
    if (kept.length > 0) {
      out.write(`Kept as HTML (content_format: html), ${kept.length}:\n`);
      for (const l of kept) out.write(`  ${l.id} ${l.path}: ${l.keptAsHtml}\n`);
    }
  }
  for (const l of result.lessons) {
    for (const n of l.notes) out.write(`  note: ${l.path}: ${n}\n`);
    if (l.movesFrom !== null) out.write(`  note: ${l.path}: the lesson is in section ${l.movesFrom} in the school; the next apply moves it to this folder's section\n`);
  }
  if (left.length === 0) out.write(`Next plan: no changes for ${result.lessons.length === 1 ? 'this lesson' : 'these lessons'}.\n`);
  else out.write(`Next plan: ${left.map((c) => `${c.action} ${c.key}`).join(', ')} (run \`coursesync plan\` for the details).\n`);
  return ExitCode.Ok;
}

/** Add the import command. */
export function register(program: Command): void {
  program
    .command('import')
    .description('Adopt existing school lessons: write one file per lesson into a section folder and record them in state (or --key: adopt into an existing file)')
    .argument('<lesson-ids...>', 'ids of the school lessons')
    .option('--into <section-dir>', 'section folder to write the lesson files into (never overwrites a file)')
    .option('--key <key>', 'adopt the one lesson into the existing file of this key (state only; settles an uncertain create)')
    .option('--write-file', 'with --key: also write the school\'s version of the lesson into the file (keeps an edit made in the school)')
    .option('--keep-html', 'keep bodies as HTML (content_format: html) instead of converting them to Markdown')
    .option('--dir <dir>', 'the course repo (default: found from the current folder upward)')
    .option('--json', 'print the result as JSON')
    .option('--base-url <url>', 'school API address (overrides COURSESYNC_BASE_URL and coursesync.yaml)')
    .option('--token-file <file>', 'read the API token from this file instead of COURSESYNC_TOKEN')
    .option('--env <name>', 'the environment of coursesync.yaml to import from (required in a repo with environments; default COURSESYNC_ENV)')
    .action(async (ids: string[], options: ImportCommandOptions) => {
      process.exitCode = await runImport(ids, options);
    });
}
