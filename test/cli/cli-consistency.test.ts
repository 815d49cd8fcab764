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

describe('-y', () => {
  it('is the short form of --yes on every command that offers --yes', async () => {
    const withYes = (await helpOfEveryCommand()).filter((c) => /--yes\b/.test(c.help));
    for (const c of withYes) expect(c.help, c.path).toMatch(/^ {2}-y, --yes\b/m);
    expect(withYes.map((c) => c.path)).toEqual(expect.arrayContaining(['apply', 'offers delete', 'webhooks apply', 'members ban']));
  });
});
