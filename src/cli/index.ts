#!/usr/bin/env node
/**
 * The coursesync command line: a few fast paths (--version, the root's --help, a completion
 * script) answered without commander, then commander. Each command lives in its own file and
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

/** A run answered before commander loads: its exit code, or undefined when `args` are not its. */
type FastPath = (args: readonly string[]) => Promise<number | undefined>;

/**
 * What is answered without commander or any command module (commander is most of what a
 * start-up costs above bare Node: test/bench/README.md, "Startup"); every other run goes to
 * commander. `args` are the words after `coursesync`, colour switches removed.
 */
const FAST_PATHS: readonly FastPath[] = [printVersion, printHelp, printCompletionScript];

/** `--version` or `-V` alone. */
async function printVersion(args: readonly string[]): Promise<number | undefined> {
  if (args.length !== 1 || (args[0] !== '--version' && args[0] !== '-V')) return undefined;
  process.stdout.write(`${await readVersion()}\n`);
  return ExitCode.Ok;
}

/** `--help`, `-h` or `help` alone: the root's help, written at build time from commander's. */
async function printHelp(args: readonly string[]): Promise<number | undefined> {
  if (args.length !== 1 || !['--help', '-h', 'help'].includes(args[0]!)) return undefined;
  return (await import('./root-help.js')).printRootHelp();
}

/** `completion <shell>` for a shell it knows: the script, from the tree written at build time. */
async function printCompletionScript(args: readonly string[]): Promise<number | undefined> {
  if (args.length !== 2 || args[0] !== 'completion') return undefined;
  const { isShell, runCompletion } = await import('./completion-print.js');
  return isShell(args[1]) ? runCompletion(args[1]) : undefined;
}

async function main(argv: string[]): Promise<number> {
  // --color/--no-color are read by terminal.ts colors() from the command line itself, for any
  // command and in any position; commander never sees them.
  const { COLOR_FLAGS } = await import('./color-flags.js');
  const end = argv.indexOf('--');
  const args = argv.filter((a, i) => !((end === -1 || i < end) && (COLOR_FLAGS as readonly string[]).includes(a)));
  for (const fast of FAST_PATHS) {
    const code = await fast(args.slice(2));
    if (code !== undefined) return code;
  }
  // A plan of a fresh checkout reads the repo on the other core: started now, beside the load of the commands.
  if (args[2] === 'plan') await (await import('./plan-early.js')).startPlanRead(args.slice(3), process.env).catch(() => undefined);
  const { runCommand } = await commands(args[2] ?? '');
  return runCommand(args, await readVersion());
}

type Commands = typeof import('./run-command.js');

/**
 * The commands: in the built command, one CommonJS file beside this one, compiled through V8's
 * code cache (code-cache.ts); from the modules (dist/cli/, as the load tests run them), imported.
 */
async function commands(name: string): Promise<Commands> {
  const [{ existsSync }, { fileURLToPath }] = await Promise.all([import('node:fs'), import('node:url')]);
  const bundle = fileURLToPath(new URL('./commands.cjs', import.meta.url));
  if (!existsSync(bundle)) return import('./run-command.js');
  const { loadCached } = await import('./code-cache.js');
  return loadCached<Commands>(bundle, name);
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
