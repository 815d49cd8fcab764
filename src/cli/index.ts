#!/usr/bin/env node
/**
 * The coursesync command line: commander wiring only. Each command lives in its own file and
 * imports its heavy modules only when it runs; a run loads only the module of the command it
 * names (program.ts). One catch turns errors into exit codes.
 */
import { ExitCode } from '../diagnostics/exit-codes.js';

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
  // --color/--no-color are read by terminal.ts colors() from the command line itself, for any
  // command and in any position; commander never sees them.
  const { COLOR_FLAGS } = await import('./color-flags.js');
  const end = argv.indexOf('--');
  const args = argv.filter((a, i) => !((end === -1 || i < end) && (COLOR_FLAGS as readonly string[]).includes(a)));
  const version = await readVersion();
  // `--version` alone is answered before commander loads: commander is most of what is left of
  // a start-up above bare Node (test/bench/README.md, "Startup").
  if (args.length === 3 && (args[2] === '--version' || args[2] === '-V')) {
    process.stdout.write(`${version}\n`);
    return ExitCode.Ok;
  }
  const { CommanderError } = await import('commander');
  const { addCommandsFor, rootCommand } = await import('./program.js');
  const program = rootCommand(version);
  // Only the named command's module is loaded (program.ts): --version and --help load none.
  await addCommandsFor(program, args.slice(2));
  (await import('./help-examples.js')).addExamples(program);
  program.addHelpText('after', '\nColour: on a terminal; --no-color or NO_COLOR turns it off, --color or FORCE_COLOR forces it (every command).');
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
  async (e: unknown) => {
    // Loaded only here: it brings the diagnostics and the terminal, which --version never needs.
    const { reportFatal } = await import('./report-error.js');
    process.exitCode = reportFatal(e);
  },
);
