/**
 * Startup of the built CLI: --version, --help and an unknown command load no command module
 * (nor zod, yaml or the renderer), completion loads only its own, and a command loads only
 * its own. The modules a run loads are recorded by a loader hook (record-loads.mjs).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';
import { lesson, removeRepos, runCli, writeRepo, type CliResult } from '../e2e/helpers.js';

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

/** Run the CLI; its result, the command modules it loaded and the packages it loaded. */
async function traced(args: string[], cwd?: string): Promise<CliResult & { commands: string[]; packages: string[] }> {
  const log = join(logs, `${++runs}.txt`);
  const r = await runCli(args, { NODE_OPTIONS: `--import=${PRELOAD}`, COURSESYNC_LOAD_LOG: log }, cwd);
  const urls = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  const cli = pathToFileURL(join(ROOT, 'dist/cli')).href;
  const modules = await commandModules;
  const commands = modules.filter((m) => urls.includes(`${cli}/${m}.js`));
  const packages = [...new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []))].sort();
  expect(urls, 'the hook recorded the entry').toContain(`${cli}/index.js`);
  return { ...r, commands, packages };
}

describe('startup loads only what the run needs', () => {
  it('--version and -V load no command module and no package, not even commander', async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = await traced([flag]);
      expect(r.code).toBe(ExitCode.Ok);
      expect(r.stdout).toBe(`${version}\n`);
      expect(r.commands, flag).toEqual([]);
      expect(r.packages, flag).toEqual([]);
    }
    // With anything else on the line, commander answers as before.
    const r = await traced(['--no-color', '--version', 'extra']);
    expect(r.packages).toEqual(['commander']);
  });

  it('--help and help load no command module, and still list every command with its usage, and the examples', async () => {
    for (const args of [['--help'], ['help'], ['--no-color', '-h', 'plan']]) {
      const r = await traced(args);
      expect(r.code, args.join(' ')).toBe(ExitCode.Ok);
      expect(r.commands, args.join(' ')).toEqual([]);
      expect(r.packages).toEqual(['commander']);
      expect(r.stdout).toContain('\n  apply [options] [plan]  ');
      expect(r.stdout).toContain('\n  clone [options] <section-dir> <new-dir>  Copy a section folder in the repo');
      expect(r.stdout).toContain('\n  members                                  Members of the school');
      expect(r.stdout).toMatch(/\n {2}emulator \[options\] +Run a faithful local school/);
      expect(r.stdout).toContain('\nExamples:\n  $ coursesync init --dir my-course');
      expect(r.stdout).toContain('--no-color or NO_COLOR turns it off');
    }
    const listed = [...(await traced(['--help'])).stdout.split(/^Commands:$/m)[1]!.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...(await commandModules), 'help'].sort());
  });

  it('an unknown command is a usage error with the did-you-mean, loading no command module', async () => {
    const r = await traced(['plna']);
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.stderr).toBe("error: unknown command 'plna'\n(Did you mean plan?)\n(run with --help for usage)\n");
    expect(r.commands).toEqual([]);
  });

  it('completion loads only its own module, and its script still offers every command and their options', async () => {
    const r = await traced(['completion', 'bash']);
    expect(r.code).toBe(ExitCode.Ok);
    expect(r.commands).toEqual(['completion']);
    expect(r.packages).toEqual(['commander']);
    expect(r.stdout).toContain("    'members ban') echo '-y --yes --json");
    expect(r.stdout).toContain("    'emulator') echo '--host --port");
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
