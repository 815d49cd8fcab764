/**
 * One CLI style across commands: colour from NO_COLOR / FORCE_COLOR / CLICOLOR_FORCE /
 * --color / --no-color (the rule, then the built CLI), and `-y` wherever `--yes` is offered.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { colorFlag, colors } from '../../src/cli/terminal.js';
import { lesson, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';
import { collector } from './school-helpers.js';

afterAll(removeRepos);

const on = (tty: boolean, env: Record<string, string>, argv: string[] = []) => colors(collector(tty), env, argv).isColorSupported;

describe('colour', () => {
  it('a terminal gets colour, a pipe does not, TERM=dumb does not', () => {
    expect(on(true, {})).toBe(true);
    expect(on(false, {})).toBe(false);
    expect(on(true, { TERM: 'dumb' })).toBe(false);
  });

  it('FORCE_COLOR, CLICOLOR_FORCE and --color force it on a pipe; FORCE_COLOR=0 does not', () => {
    expect(on(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(on(false, { FORCE_COLOR: '3' })).toBe(true);
    expect(on(false, { CLICOLOR_FORCE: '1' })).toBe(true);
    expect(on(false, {}, ['node', 'cli', 'plan', '--color'])).toBe(true);
    expect(on(false, { FORCE_COLOR: '0' })).toBe(false);
    expect(on(false, { FORCE_COLOR: '' })).toBe(false);
  });

  it('NO_COLOR and --no-color win over everything; the last switch counts; after `--` nothing counts', () => {
    expect(on(true, { NO_COLOR: '1' })).toBe(false);
    expect(on(true, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    expect(on(true, { FORCE_COLOR: '1' }, ['node', 'cli', '--no-color'])).toBe(false);
    expect(on(true, { NO_COLOR: '' })).toBe(true);
    expect(colorFlag(['plan', '--no-color', '--color'])).toBe('--color');
    expect(colorFlag(['plan', '--', '--no-color'])).toBeUndefined();
  });

  it('the built CLI: plan text is coloured only when forced, and --no-color is accepted by every command in any position', async () => {
    const dir = await writeRepo({
      'intro/program.yaml': 'id: prog_intro\n',
      'intro/basics/section.yaml': 'id: sec_basics\n',
      'intro/basics/01-welcome.md': lesson('name: Welcome\nlesson_type: text', '# Welcome\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'),
    });
    const ESC = '\u001b[';
    const plain = await runCli(['plan', dir]);
    expect(plain.stdout).toContain('intro/basics/01-welcome.md will be created');
    expect(plain.stdout).not.toContain(ESC);
    expect((await runCli(['plan', dir], { FORCE_COLOR: '1' })).stdout).toContain(ESC);
    expect((await runCli(['plan', '--color', dir])).stdout).toContain(ESC);
    const off = await runCli(['plan', dir, '--no-color'], { FORCE_COLOR: '1' });
    expect(off.code).toBe(0);
    expect(off.stdout).toBe(plain.stdout);
    const noColorEnv = await runCli(['plan', dir], { FORCE_COLOR: '1', NO_COLOR: '1' });
    expect(noColorEnv.stdout).toBe(plain.stdout);
    const validate = await runCli(['--no-color', 'validate', dir]);
    expect(validate.code).toBe(0);
    expect(validate.stdout).toBe('1 program, 1 section, 1 lesson: valid\n');
    expect((await runCli(['--help'])).stdout).toContain('--no-color or NO_COLOR turns it off');
  });
});

/** The --help of every command (`members ban`, …) that --help lists, walked from the top. */
async function helpOfEveryCommand(prefix: string[] = []): Promise<Array<{ path: string; help: string }>> {
  const help = (await runCli([...prefix, '--help'])).stdout;
  const section = help.split(/^Commands:$/m)[1];
  const names = section === undefined ? [] : [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((n) => n !== 'help');
  const nested = await Promise.all(names.map((n) => helpOfEveryCommand([...prefix, n])));
  return [{ path: prefix.join(' '), help }, ...nested.flat()];
}

/** The walk runs the CLI some 40 times: once per file, shared by the tests below. */
let walked: ReturnType<typeof helpOfEveryCommand> | undefined;
const everyHelp = () => (walked ??= helpOfEveryCommand());

/** The options block of a help text (examples mention options too). */
const optionsOf = (help: string) => (help.split(/^Options:$/m)[1] ?? '').split(/^\S/m)[0]!;

describe('-y', () => {
  it('is the short form of --yes on every command that offers --yes', async () => {
    const withYes = (await everyHelp()).map((c) => ({ ...c, help: optionsOf(c.help) })).filter((c) => /--yes\b/.test(c.help));
    for (const c of withYes) expect(c.help, c.path).toMatch(/^ {2}-y, --yes\b/m);
    expect(withYes.map((c) => c.path)).toEqual(expect.arrayContaining(['apply', 'offers delete', 'webhooks apply', 'members ban']));
  });
});

describe('exit codes', () => {
  it('every named exit code has its row in docs/cli.md#exit-codes, and the table names no other', async () => {
    const { readFile } = await import('node:fs/promises');
    const { ExitCode } = await import('../../src/diagnostics/exit-codes.js');
    const doc = await readFile(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const section = doc.split(/^## Exit codes$/m)[1]!.split(/^## /m)[0]!;
    const rows = [...section.matchAll(/^\| (\d+) \| `(\w+)` \|/gm)].map((m) => [m[2], Number(m[1])]);
    expect(Object.fromEntries(rows)).toEqual({ ...ExitCode });
    expect(rows).toHaveLength(Object.keys(ExitCode).length);
  });
});

describe('--help and completion', () => {
  it('every --help has examples; every command and option it shows is in every completion script (generated from the program, never stale)', async () => {
    const [commands, ...scripts] = await Promise.all([everyHelp(), ...['bash', 'zsh', 'fish'].map(async (shell) => (await runCli(['completion', shell])).stdout)]);
    expect(commands.length).toBeGreaterThan(35);
    const [bash, zsh, fish] = scripts as [string, string, string];
    for (const { path, help } of commands) {
      expect(help, path).toMatch(/\nExamples:\n {2}\$ coursesync /);
      expect(bash, path).toContain(`    '${path}') echo `);
      expect(zsh, path).toContain(`    '${path}') reply=(`);
      expect(fish, path).toContain(`-n '__coursesync_at "${path}"'`);
      // The second table of the bash script is the options one.
      const line = bash.split('\n').filter((l) => l.startsWith(`    '${path}') echo `))[1]!;
      for (const [, o] of optionsOf(help).matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)) expect(line, `${path} ${o}`).toContain(o);
    }
  });
});

describe('one folder convention: --dir on every command', () => {
  it('every command that reads the course repo takes --dir <dir>; no usage line shows a folder positional', async () => {
    const commands = await everyHelp();
    const repoCommands = ['init', 'validate', 'plan', 'apply', 'preview', 'assets', 'state list', 'state show', 'state rm', 'import', 'clone', 'duplicate lesson', 'webhooks plan', 'webhooks apply', 'webhooks list', 'sections list', 'auth status'];
    for (const path of repoCommands) {
      const c = commands.find((x) => x.path === path);
      expect(c, path).toBeDefined();
      expect(optionsOf(c!.help), path).toMatch(/^ {2}--dir <dir> /m);
    }
    for (const { path, help } of commands) expect(help.split('\n')[0], path).not.toMatch(/\[(dir|target)\]/);
  });

  it('--dir names the repo from anywhere; the old positional still works; both, differing, is a usage error', async () => {
    const dir = await writeRepo({ 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n', 'p/s/01-a.md': lesson('name: A') });
    const other = await writeRepo({ 'x.txt': 'not a course\n' });
    expect((await runCli(['validate', '--dir', dir], {}, other)).stdout).toBe('1 program, 1 section, 1 lesson: valid\n');
    expect((await runCli(['plan', '--dir', dir], {}, other)).stdout).toContain('Plan: 1 to create');
    expect((await runCli(['validate', dir], {}, other)).stdout).toBe('1 program, 1 section, 1 lesson: valid\n');
    const both = await runCli(['plan', dir, '--dir', other]);
    expect(both.code).toBe(64);
    expect(both.stderr).toContain(`the folder ${dir} and --dir ${other} cannot be combined`);
  });

  it('help examples use lesson keys as keys are written (no "/": a key is a name, not a path)', async () => {
    const { examplesOf } = await import('../../src/cli/help-examples.js');
    const { LESSON_KEY_PATTERN } = await import('../../src/model/lesson.js');
    const keys: string[] = [];
    for (const { path } of await everyHelp()) {
      for (const line of examplesOf(path) ?? []) {
        for (const m of line.matchAll(/(?:--key|--replace|--recreate) (\S+)/g)) keys.push(m[1]!);
        const rm = /state (?:show|rm) ((?:[^\s-]\S*\s?)+)/.exec(line.split('#')[0]!);
        if (rm) keys.push(...rm[1]!.trim().split(/\s+/));
      }
    }
    expect(keys.length).toBeGreaterThan(5);
    for (const k of keys) expect(k, k).toMatch(LESSON_KEY_PATTERN);
  });
});
