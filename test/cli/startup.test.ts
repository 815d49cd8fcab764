/**
 * Startup of the built CLI: --version, the root's --help and a completion script load neither
 * commander nor any command module (the help and the command tree are written at build time;
 * the help is checked equal to commander's own), a completion query runs no process at all, an
 * unknown command loads no command module, and a command loads only its own. The modules a run
 * loads are recorded by a loader hook (record-loads.mjs).
 */
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { CommanderError } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';
import { programFor } from '../../src/cli/program.js';
import { layOut, type HelpPiece } from '../../src/cli/root-help.js';
import { CLI, lesson, MODULE_CLI, removeRepos, runCli, writeRepo, type CliResult } from '../e2e/helpers.js';

const ROOT = join(import.meta.dirname, '../..');
const PRELOAD = pathToFileURL(join(import.meta.dirname, 'record-loads.mjs')).href;
const logs = await mkdtemp(join(tmpdir(), 'coursesync-loads-'));
afterAll(async () => {
  await rm(logs, { recursive: true, force: true });
  await removeRepos();
});

/** The src/cli modules that register a command (read from the source, not from the table). */
const commandModules = (async () => {
  const files = (await readdir(join(ROOT, 'src/cli'))).filter((f) => f.endsWith('.ts'));
  const out: string[] = [];
  for (const f of files) if ((await readFile(join(ROOT, 'src/cli', f), 'utf8')).includes('export function register(')) out.push(f.replace(/\.ts$/, ''));
  return out;
})();

let runs = 0;

/** Run the CLI; its result, the command modules, the packages and all of dist/ it loaded. */
async function traced(args: string[], cwd?: string, env: Record<string, string> = {}): Promise<CliResult & { commands: string[]; packages: string[]; dist: string[] }> {
  const log = join(logs, `${++runs}.txt`);
  const r = await runCli(args, { ...env, NODE_OPTIONS: `--import=${PRELOAD}`, COURSESYNC_LOAD_LOG: log }, cwd, MODULE_CLI);
  const urls = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  const cli = pathToFileURL(join(ROOT, 'dist/cli')).href;
  const modules = await commandModules;
  const commands = modules.filter((m) => urls.includes(`${cli}/${m}.js`));
  const packages = [...new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []))].sort();
  expect(urls, 'the hook recorded the entry').toContain(`${cli}/index.js`);
  const dist = `${pathToFileURL(join(ROOT, 'dist')).href}/`;
  return { ...r, commands, packages, dist: urls.filter((u) => u.startsWith(dist)).map((u) => u.slice(dist.length)).sort() };
}

/** What commander itself prints for `args`, through the program the entry builds (index.ts), at `width` columns. */
async function commanderOutput(args: string[], width = 80): Promise<string> {
  const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const program = await programFor(version, args);
  let out = '';
  program.configureOutput({ ...program.configureOutput(), writeOut: (s) => (out += s), getOutHelpWidth: () => width, getOutHasColors: () => false });
  await expect(program.parseAsync(['node', 'coursesync', ...args])).rejects.toThrow(CommanderError);
  return out;
}

/** What each fast path loads: the entry, the exit codes, the colour switches and its own modules; no package. */
const ENTRY = ['cli/color-flags.js', 'cli/index.js', 'diagnostics/exit-codes.js'];

describe('startup loads only what the run needs', () => {
  it('--version and -V load no command module and no package, not even commander', async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await traced([flag]);
      expect(r.code).toBe(ExitCode.Ok);
      expect(r.stdout).toBe(`${version}\n`);
      expect(r.commands, flag).toEqual([]);
      expect(r.packages, flag).toEqual([]);
      expect(r.dist, flag).toEqual(ENTRY);
    }
    // With anything else on the line, commander answers as before.
    const r = await traced(['--no-color', '--version', 'extra']);
    expect(r.packages).toEqual(['commander']);
  });

  it('--help, -h and help load neither commander nor any command module, and print what commander prints', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['--no-color', '--help']]) {
      const r = await traced(args);
      expect(r.code, args.join(' ')).toBe(ExitCode.Ok);
      expect(r.stderr).toBe('');
      expect(r.packages, args.join(' ')).toEqual([]);
      expect(r.dist, args.join(' ')).toEqual([...ENTRY, 'cli/root-help.js'].sort());
      expect(r.stdout, args.join(' ')).toBe(await commanderOutput(args.filter((a) => a !== '--no-color')));
      expect(r.stdout).toContain('\n  apply [options] [plan]  ');
      expect(r.stdout).toContain('\n  clone [options] <section-dir> <new-dir>  Copy a section folder in the repo');
      expect(r.stdout).toContain('\nExamples:\n  $ coursesync init --dir my-course');
      expect(r.stdout).toContain('--no-color or NO_COLOR turns it off');
    }
    const listed = [...(await traced(['--help'])).stdout.split(/^Commands:$/m)[1]!.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...(await commandModules), 'help'].sort());
    // Anything more on the line is commander's: `-h plan` is the root's help too, no command module.
    const r = await traced(['--no-color', '-h', 'plan']);
    expect(r.code).toBe(ExitCode.Ok);
    expect(r.packages).toEqual(['commander']);
    expect(r.commands).toEqual([]);
    expect(r.stdout).toBe(await commanderOutput(['-h', 'plan']));
  });

  it('the help written at build time is laid out as commander lays it out, at every terminal width', async () => {
    const pieces = JSON.parse(await readFile(join(ROOT, 'dist/cli/root-help.json'), 'utf8')) as HelpPiece[];
    const widths = Array.from({ length: 231 }, (_, i) => i + 20);
    const differ = [];
    for (const w of widths) if (layOut(pieces, w) !== (await commanderOutput(['--help'], w))) differ.push(w);
    expect(differ).toEqual([]);
    // The widths tried reach from no wrapping at all to every line on one.
    expect(layOut(pieces, 80)).not.toBe(layOut(pieces, 120));
    expect(layOut(pieces, 250)).toBe(layOut(pieces, 1000));
  });

  it('--help in a terminal is wrapped to its width, as commander wraps it', async () => {
    for (const columns of [60, 100, 150]) {
      // util-linux `script` gives the CLI a terminal; stty sets its width before the CLI starts.
      const command = `stty cols ${columns} rows 50; exec '${process.execPath}' '${join(ROOT, 'dist/cli/index.js')}' --help`;
      const r = spawnSync('script', ['-qfec', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', TERM: 'xterm' } });
      expect(r.status).toBe(0);
      expect(r.stdout.replace(/\r\n/g, '\n'), `${columns} columns`).toBe(await commanderOutput(['--help'], columns));
    }
  });

  it('an unknown command is a usage error with the did-you-mean, loading no command module', async () => {
    const r = await traced(['plna']);
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.stderr).toBe("error: unknown command 'plna'\n(Did you mean plan?)\n(run with --help for usage)\n");
    expect(r.commands).toEqual([]);
  });

  it('a completion script loads neither commander nor any command module, and still offers every command and their options', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await traced(['completion', shell]);
      expect(r.code, shell).toBe(ExitCode.Ok);
      expect(r.packages, shell).toEqual([]);
      expect(r.commands, shell).toEqual([]);
      expect(r.dist, shell).toEqual([...ENTRY, 'cli/completion-print.js', 'cli/completion-scripts.js'].sort());
    }
    const r = await traced(['--no-color', 'completion', 'bash']);
    expect(r.packages).toEqual([]);
    expect(r.stdout).toContain("    'members ban') echo '-y --yes --json");
    expect(r.stdout).toContain("    'emulator') echo '--host --port");
    // A shell it does not know is commander's usage error, from the completion command.
    const bad = await traced(['completion', 'tcsh']);
    expect(bad.code).toBe(ExitCode.Usage);
    expect(bad.stderr).toContain('Allowed choices are bash, zsh, fish.');
    expect(bad.commands).toEqual(['completion']);
  });

  it('a completion query runs no coursesync and no node: the script answers from its own tables', async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    // `node` and `coursesync` first on the PATH, each noting that it ran.
    const bin = join(logs, 'bin');
    const ran = join(logs, 'ran.txt');
    await mkdir(bin);
    for (const name of ['node', 'coursesync']) {
      await writeFile(join(bin, name), `#!/bin/sh\necho ${name} "$@" >> '${ran}'\n`);
      await chmod(join(bin, name), 0o755);
    }
    const ask = (words: string[]) => {
      const program = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _coursesync; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8', env: { PATH: `${bin}:/usr/bin:/bin` } });
      expect(r.stderr).toBe('');
      return r.stdout.split('\n').filter(Boolean);
    };
    expect(ask(['coursesync', 'members', 'b'])).toEqual(['ban']);
    expect(ask(['coursesync', 'plan', '--det'])).toEqual(['--detailed-exitcode']);
    expect(ask(['coursesync', 'comp'])).toEqual(['completion']);
    await expect(readFile(ran, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('usage errors on and around the fast paths never show the token', async () => {
    const token = 'sk_live_startup_9f8e7d';
    for (const args of [[`--token=${token}`], ['completion', token], [token], ['--no-color', `--tokn=${token}`]]) {
      const r = await traced(args, undefined, { COURSESYNC_TOKEN: token });
      expect(r.code, args.join(' ')).toBe(ExitCode.Usage);
      expect(r.stderr, args.join(' ')).toMatch(/^error: .*\n\(run with --help for usage\)\n$/);
      expect(r.stdout + r.stderr, args.join(' ')).not.toContain('startup_9f8e7d');
    }
    // --help or --version with anything else on the line is commander's, as before: the answer, no error.
    for (const args of [['--help', `--token=${token}`], ['--version', token]]) {
      const r = await traced(args, undefined, { COURSESYNC_TOKEN: token });
      expect(r.code, args.join(' ')).toBe(ExitCode.Ok);
      expect(r.stdout, args.join(' ')).toBe(await commanderOutput(args.slice(0, 1)));
      expect(r.stdout + r.stderr).not.toContain('startup_9f8e7d');
    }
  });

  it('a command, its help and `help <command>` load only that command module', async () => {
    const dir = await writeRepo({
      'intro/program.yaml': 'id: prog_intro\n',
      'intro/basics/section.yaml': 'id: sec_basics\n',
      'intro/basics/01-welcome.md': lesson('name: Welcome\nlesson_type: text', '# Welcome\n\nRead [the guide](https://example.com/guide).\n'),
    });
    const validate = await traced(['validate', '--dir', dir]);
    expect(validate.stdout).toBe('1 program, 1 section, 1 lesson: valid\n');
    expect(validate.commands).toEqual(['validate']);
    for (const args of [['plan', '--help'], ['help', 'plan']]) {
      const r = await traced(args);
      expect(r.code).toBe(ExitCode.Ok);
      expect(r.stdout).toMatch(/^Usage: coursesync plan \[options\]/);
      expect(r.stdout).toContain('\nExamples:\n  $ coursesync plan\n');
      expect(r.commands, args.join(' ')).toEqual(['plan']);
    }
  });
});

describe('the installed command is one bundle (scripts/bundle-cli.mjs)', () => {
  /** The files a run of the bundle (the package's bin) loads, relative to dist/bin/, and any from elsewhere. */
  async function bundleLoads(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string; own: string[]; elsewhere: string[] }> {
    const log = join(logs, `${++runs}.txt`);
    const r = await runCli(args, { ...env, NODE_OPTIONS: `--import=${PRELOAD}`, COURSESYNC_LOAD_LOG: log, COURSESYNC_RENDER_THREADS: '1' });
    const urls = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    const bin = `${pathToFileURL(join(ROOT, 'dist/bin')).href}/`;
    return { code: r.code, stdout: r.stdout, stderr: r.stderr, own: urls.filter((u) => u.startsWith(bin)).map((u) => u.slice(bin.length)), elsewhere: urls.filter((u) => !u.startsWith(bin)) };
  }

  it('the package runs it, and --version loads its entry and a few small chunks', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string>; version: string };
    expect(pkg.bin.coursesync).toBe('dist/bin/coursesync.js');
    const r = await bundleLoads(['--version']);
    expect(r.stdout).toBe(`${pkg.version}\n`);
    expect(r.elsewhere).toEqual([]);
    expect(r.own[0]).toBe('coursesync.js');
    expect(r.own.length).toBeLessThanOrEqual(6);
    let bytes = 0;
    for (const file of r.own) bytes += (await readFile(join(ROOT, 'dist/bin', file))).length;
    expect(bytes, r.own.join(' ')).toBeLessThan(16_000);
  });

  it('a plan that renders loads no file outside the bundle: no package, no module of the tsc build', async () => {
    const dir = await writeRepo({
      'coursesync.yaml': 'school:\n  base_url: http://127.0.0.1:9/api/v1\n',
      'intro/program.yaml': 'id: prog_intro\n',
      'intro/basics/section.yaml': 'id: sec_basics\n',
      'intro/basics/01-welcome.md': lesson('name: Welcome\nlesson_type: text', '# Welcome\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nRead [the guide](https://example.com/guide).\n'),
    });
    const r = await bundleLoads(['plan', dir, '--detailed-exitcode'], { COURSESYNC_DEBUG: 'timing' });
    expect(r.code).toBe(ExitCode.Changes);
    expect(r.stdout).toContain('+ intro/basics/01-welcome.md will be created in sec_basics at 1');
    expect(r.elsewhere).toEqual([]);
    // The commands are one CommonJS file, compiled through the code cache (src/cli/code-cache.ts),
    // not loaded as a module: the module loader sees the entry and its few small chunks alone.
    expect(r.stderr).toMatch(/^debug: \d+ ms code cache: (none|used)$/m);
    // Beside the entry and the read worker, only chunks: shared code, and the entry's own lazy
    // parts (plan-early: the read of a fresh checkout, started before the commands load).
    const named = r.own.filter((f) => !['coursesync.js', 'read-worker.js'].includes(f) && !/^chunk-[A-Z0-9]+\.js$/.test(f)).map((f) => f.replace(/-[A-Z0-9]+\.js$/, ''));
    expect(named.sort()).toEqual(['code-cache', 'color-flags', 'plan-early']);
  });

  it('plans what the module build plans when it reads and renders on worker threads (dist/bin/read-worker.js, render-worker.js)', async () => {
    const files: Record<string, string> = { 'p/program.yaml': 'id: prog_1\n', 'p/s/section.yaml': 'id: sec_1\n' };
    // Enough text that rendering goes to the workers (render-budget.ts safeInThread), none of it cached.
    const paragraph = (j: number) => `A paragraph with *emphasis*, \`code\` and [a link](https://example.com/${j}), long enough to count.\n\n`;
    for (let i = 1; i <= 60; i++) files[`p/s/${String(i).padStart(2, '0')}-lesson-${i}.md`] = lesson(`name: Lesson ${i}\nlesson_type: text`, `# Lesson ${i}\n\n${Array.from({ length: 60 }, (_, j) => paragraph(j)).join('')}`);
    const plans: unknown[] = [];
    const log = join(logs, `${++runs}.txt`);
    for (const cli of [CLI, MODULE_CLI]) {
      const dir = await writeRepo(files);
      const traceBundle: Record<string, string> = cli === CLI ? { NODE_OPTIONS: `--import=${PRELOAD}`, COURSESYNC_LOAD_LOG: log } : {};
      const r = await runCli(['plan', dir, '--json'], { COURSESYNC_RENDER_THREADS: '2', ...traceBundle }, undefined, cli);
      expect(r.code, r.stderr).toBe(ExitCode.Ok);
      const plan = JSON.parse(r.stdout) as { changes: unknown[]; state?: { lineage?: string } };
      expect(plan.changes).toHaveLength(60);
      // A new state's lineage is random: the one part two runs may not share.
      plans.push(JSON.parse(r.stdout.replace(/"lineage": "[^"]*"/g, '"lineage": ""')));
    }
    expect(plans[0]).toEqual(plans[1]);
    // The bundle's run started both workers from the bundle.
    const bin = `${pathToFileURL(join(ROOT, 'dist/bin')).href}/`;
    const loaded = (await readFile(log, 'utf8')).split('\n');
    expect(loaded).toContain(`${bin}read-worker.js`);
    expect(loaded).toContain(`${bin}render-worker.js`);
  });
});
