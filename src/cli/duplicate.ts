/**
 * `coursesync duplicate lesson|section|program`: server-side copies through the school's
 * duplication operations (src/clone/duplicate-lessons.ts, duplicate-program.ts). On a TTY the
 * wait shows a one-line progress on stderr; off a TTY each finished copy gets one line.
 */
import type { Command } from 'commander';
import type { ConnectionFlags } from '../school/connection.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { positiveInt, processIo, type CommandIo } from './school-command.js';

export interface DuplicateCommandOptions extends ConnectionFlags {
  to?: string;
  name?: string;
  position?: string;
  requestId?: string;
  into?: string;
  dir?: string;
  concurrency?: string;
  timeout?: string;
  yes?: boolean;
  env?: string;
}

/**
 * A copy adds lessons to the school that only the school's admin can remove: asked first at a
 * terminal, and off one only with --yes (as apply). Answered no, nothing was sent.
 */
async function confirmCopy(question: string, options: DuplicateCommandOptions, io: CommandIo): Promise<boolean> {
  const { confirm } = await import('./terminal.js');
  if (await confirm(question, { yes: options.yes })) return true;
  io.stderr.write('Duplication cancelled; nothing was copied.\n');
  return false;
}

/** ` in the school of the environment NAME`, for a question asked in a repo with environments. */
const inEnvironment = (environment: string | undefined) => (environment === undefined ? '' : ` in the school of the environment ${environment}`);

function progressLine(io: CommandIo): (text: string | null) => void {
  const tty = io.stderr.isTTY === true;
  return (text) => {
    if (!tty) return;
    io.stderr.write(text === null ? '\r\x1b[2K' : `\r\x1b[2K${text}`);
  };
}

/** `duplicate lesson` and `duplicate section`. */
export async function runDuplicateLessons(kind: 'lesson' | 'section', source: string, options: DuplicateCommandOptions, io: CommandIo = processIo()): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  if (options.to === undefined) throw failure('cli/missing-option', { what: 'say where the copy goes: --to <section folder|section id>', example: `coursesync duplicate ${kind} ${source} --to my-program/02-next` });
  // A missing or unknown --env is a usage error, said before the question.
  const { repoAndEnvironment } = await import('./environment.js');
  const { dir, environment } = await repoAndEnvironment(options.dir, options.env, io.env);
  if (!(await confirmCopy(`Copy ${kind === 'lesson' ? 'the lesson' : 'every lesson of the section'} ${source} into ${options.to}${inEnvironment(environment)}?`, options, io))) return ExitCode.Cancelled;
  const { duplicateLessons } = await import('../clone/duplicate-lessons.js');
  const show = progressLine(io);
  const pending = new Map<string, number>();
  const result = await duplicateLessons(dir, { kind, arg: source }, {
    environment,
    to: options.to,
    name: options.name,
    position: positiveInt('--position', options.position),
    requestId: options.requestId,
    concurrency: positiveInt('--concurrency', options.concurrency, 64),
    timeoutMs: (positiveInt('--timeout', options.timeout, 86_400) ?? 120) * 1000,
    baseUrl: options.baseUrl,
    tokenFile: options.tokenFile,
    env: io.env,
    onNotice: (m) => io.stderr.write(`coursesync: ${m}\n`),
    onProgress: (e) => {
      if (e.type === 'polled') {
        if (e.operation.status === 'pending') pending.set(e.sourceId, e.elapsedMs);
        else pending.delete(e.sourceId);
        const slowest = Math.max(0, ...pending.values());
        show(`copying: ${pending.size} operation${pending.size === 1 ? '' : 's'} pending (${(slowest / 1000).toFixed(1)} s)…`);
        return;
      }
      show(null);
      io.stdout.write(`  + ${e.copy.path ?? '(no folder)'}  ← copy ${e.copy.lessonId} of ${e.copy.sourceKey ?? e.copy.sourceId}\n`);
    },
  });
  show(null);
  const out = io.stdout;
  const n = result.copies.length;
  out.write(`${result.resumed ? 'Resumed an interrupted duplication: ' : ''}${n} lesson${n === 1 ? '' : 's'} copied to section ${result.destinationId} (request id ${result.requestId}).\n`);
  const unwritten = result.copies.filter((c) => c.path === null);
  if (unwritten.length > 0) {
    out.write(`The repo has no folder for section ${result.destinationId}, so no file was written. To track the copies, create the folder and import them:\n`);
    out.write(`  coursesync import ${unwritten.map((c) => c.lessonId).join(' ')} --into <section folder>\n`);
  } else {
    out.write('Copies are unpublished in the school, so their files say is_published: false; set it to true and apply to publish them.\n');
  }
  if (result.applied) out.write(`Placed ${result.applied.outcomes.length} cop${result.applied.outcomes.length === 1 ? 'y' : 'ies'} in the folder's order.\n`);
  return ExitCode.Ok;
}

/** `duplicate program`. */
export async function runDuplicateProgram(program: string, options: DuplicateCommandOptions, io: CommandIo = processIo()): Promise<number> {
  const { repoAndEnvironment } = await import('./environment.js');
  const { dir, environment } = await repoAndEnvironment(options.dir, options.env, io.env);
  if (!(await confirmCopy(`Copy the program ${program}${options.name ? ` as "${options.name}"` : ''}${inEnvironment(environment)}?`, options, io))) return ExitCode.Cancelled;
  const { duplicateProgram } = await import('../clone/duplicate-program.js');
  const show = progressLine(io);
  const result = await duplicateProgram(dir, program, {
    environment,
    name: options.name,
    into: options.into,
    requestId: options.requestId,
    timeoutMs: (positiveInt('--timeout', options.timeout, 86_400) ?? 300) * 1000,
    baseUrl: options.baseUrl,
    tokenFile: options.tokenFile,
    env: io.env,
    onNotice: (m) => io.stderr.write(`coursesync: ${m}\n`),
    onProgress: (op, ms) => show(op.status === 'pending' ? `copying program: pending (${(ms / 1000).toFixed(1)} s)…` : null),
  });
  show(null);
  const out = io.stdout;
  out.write(`${result.resumed ? 'Resumed an interrupted duplication: ' : ''}program ${result.sourceId} copied to ${result.programId} "${result.name}" (unpublished, without members).\n`);
  out.write(`Wrote ${result.folder}/program.yaml and ${result.sections.length} section folder${result.sections.length === 1 ? '' : 's'}:\n`);
  for (const s of result.sections) out.write(`  ${s.folder}/section.yaml  (${s.id} "${s.name}")\n`);
  out.write(
    'The copy\'s lessons are not in the repo: the school API can neither list the lessons of a section nor say which copy came from which lesson, so their ids cannot be found through it.\n' +
      'To manage them with coursesync, look up each lesson id in the school and adopt them by id, one section at a time:\n' +
      `  coursesync import <lesson id>... --into ${result.sections[0]?.folder ?? `${result.folder}/<section folder>`}\n`,
  );
  return ExitCode.Ok;
}

function connectionOptions(command: Command): Command {
  return command
    .option('--dir <dir>', 'the course repo (default: found from the current folder upward)')
    .option('-y, --yes', 'copy without asking (required off a terminal)')
    .option('--request-id <id>', 'makes the idempotency key (default: recorded on the first run, so a re-run resumes)')
    .option('--timeout <seconds>', 'stop waiting for an operation after this long (a re-run resumes it)')
    .option('--base-url <url>', 'school API address (overrides COURSESYNC_BASE_URL and coursesync.yaml)')
    .option('--token-file <file>', 'read the API token from this file instead of COURSESYNC_TOKEN')
    .option('--env <name>', 'the environment of coursesync.yaml to duplicate in (required in a repo with environments; default COURSESYNC_ENV)');
}

/** Add `duplicate lesson|section|program`. */
export function register(program: Command): void {
  const duplicate = program.command('duplicate').description('Server-side copies (content, media and steps kept) of lessons, sections and programs');
  connectionOptions(
    duplicate
      .command('lesson')
      .description('Copy a lesson into a section; writes the copy\'s file (fresh key, copied_from) and records it in state')
      .argument('<lesson>', 'a lesson file of the repo, or a lesson id')
      .option('--to <section>', 'destination: a section folder of the repo, or a section id')
      .option('--name <name>', 'name of the copy (default: the school\'s "Copy of …")')
      .option('--position <n>', 'place of the copy among the destination folder\'s lessons (default: last)'),
  ).action(async (source: string, options: DuplicateCommandOptions) => {
    process.exitCode = await runDuplicateLessons('lesson', source, options);
  });
  connectionOptions(
    duplicate
      .command('section')
      .description('Copy every lesson of a section folder, in order, into another section')
      .argument('<section-dir>', 'a section folder of the repo')
      .option('--to <section>', 'destination: a section folder of the repo, or a section id')
      .option('--concurrency <n>', 'at most this many copies in progress (default: coursesync.yaml apply.concurrency, else 4)'),
  ).action(async (source: string, options: DuplicateCommandOptions) => {
    process.exitCode = await runDuplicateLessons('section', source, options);
  });
  connectionOptions(
    duplicate
      .command('program')
      .description('Copy a program; writes a program folder with program.yaml and one section folder per section of the copy')
      .argument('<program>', 'a program folder (holding program.yaml) or a program id')
      .option('--name <name>', 'name of the copy (default: the school\'s "Copy of …")')
      .option('--into <dir>', 'folder for the copy (default: a folder of the repo named after the copy)'),
  ).action(async (source: string, options: DuplicateCommandOptions) => {
    process.exitCode = await runDuplicateProgram(source, options);
  });
}
