#!/usr/bin/env node
/**
 * The coursesync command line: commander wiring only. Each command lives in its own file and
 * imports its heavy modules only when it runs. One catch turns errors into exit codes.
 */
import { Command, CommanderError } from 'commander';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { redactUsageError } from './redact-usage-error.js';
import { reportFatal } from './report-error.js';

/** Each command file exports one function that adds its command to the program. */
type Register = (program: Command) => void;

// In the order --help lists them: setting up a repo, the sync workflow, then the rest of the API, then the emulator.
const commands: Array<() => Promise<{ register: Register }>> = [
  () => import('./init.js'),
  () => import('./validate.js'),
  () => import('./plan.js'),
  () => import('./apply.js'),
  () => import('./preview.js'),
  () => import('./assets.js'),
  () => import('./state.js'),
  () => import('./import.js'),
  () => import('./duplicate.js'),
  () => import('./clone.js'),
  () => import('./webhooks.js'),
  () => import('./members.js'),
  () => import('./offers.js'),
  () => import('./badges.js'),
  () => import('./custom-code.js'),
  () => import('./sections.js'),
  () => import('./auth.js'),
  () => import('./completion.js'),
  () => import('./emulator.js'),
];

/**
 * A reader that stops early (`coursesync --help | head`) closes the pipe: what is left to print
 * is dropped, quietly, and the command goes on to its own end and exit code (an apply is never
 * cut short by it). Any other stream error is still thrown.
 */
function ignoreClosedReader(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
  });
}
ignoreClosedReader(process.stdout);
ignoreClosedReader(process.stderr);

async function main(argv: string[]): Promise<number> {
  const program = new Command('coursesync')
    .description('Declarative course-as-code: sync a repo of programs, sections and lessons to an online school.')
    .version(await readVersion(), '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    // Set before the commands are added: each command copies these settings.
    .configureOutput({ outputError: (message, write) => write(redactUsageError(message)) })
    .exitOverride();
  for (const load of commands) (await load()).register(program);
  (await import('./help-examples.js')).addExamples(program);
  program.addHelpText('after', '\nColour: on a terminal; --no-color or NO_COLOR turns it off, --color or FORCE_COLOR forces it (every command).');
  // --color/--no-color are read by terminal.ts colors() from the command line itself, for any
  // command and in any position; commander never sees them.
  const { COLOR_FLAGS } = await import('./terminal.js');
  const end = argv.indexOf('--');
  const args = argv.filter((a, i) => !((end === -1 || i < end) && (COLOR_FLAGS as readonly string[]).includes(a)));
  try {
    await program.parseAsync(args);
  } catch (e) {
    // Help and --version exit 0; anything else commander stops on is a usage error.
    if (e instanceof CommanderError) return e.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
    throw e;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.Ok;
}

async function readVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.exitCode = reportFatal(e);
  },
);
