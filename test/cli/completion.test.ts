/**
 * `coursesync completion bash|zsh|fish` from the built CLI: the bash script is run in bash and
 * asked what it completes; the zsh and fish scripts name the same subcommands and flags; every
 * command --help lists is in the scripts (they are generated from the program, so never drift).
 * The same walk of every --help checks that each has an Examples block.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../e2e/helpers.js';

/** What bash completes for the words typed so far (the last one being completed). */
function bashComplete(script: string, words: string[]): string[] {
  const program = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _coursesync; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter((l) => l !== '');
}

/** Command paths (`members ban`) and options of every command --help lists, walked from the top. */
async function commandsFromHelp(prefix: string[] = []): Promise<Array<{ path: string; options: string[]; help: string }>> {
  const help = (await runCli([...prefix, '--help'])).stdout;
  const [, commands = ''] = help.split(/^Commands:$/m);
  const [, optionText = ''] = help.split(/^Options:$/m);
  const options = [...optionText.split(/^Commands:$/m)[0]!.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!);
  const names = [...commands.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((n) => n !== 'help');
  const nested = await Promise.all(names.map((n) => commandsFromHelp([...prefix, n])));
  return [{ path: prefix.join(' '), options, help }, ...nested.flat()];
}

describe('coursesync completion', () => {
  it('bash: completes subcommands at each level and the options of the command typed', async () => {
    const r = await runCli(['completion', 'bash']);
    expect(r.code).toBe(0);
    const script = r.stdout;
    expect(bashComplete(script, ['coursesync', 'mem'])).toEqual(['members']);
    expect(bashComplete(script, ['coursesync', 'members', 'b'])).toEqual(['ban']);
    expect(bashComplete(script, ['coursesync', 'members', 'ban', '--'])).toEqual(expect.arrayContaining(['--yes', '--json', '--token-file', '--help']));
    expect(bashComplete(script, ['coursesync', '--no-color', 'apply', '-'])).toEqual(expect.arrayContaining(['-y', '--yes', '--json', '--concurrency']));
    expect(bashComplete(script, ['coursesync', 'auth', ''])).toEqual(['status']);
    expect(bashComplete(script, ['coursesync', 'au'])).toEqual(['auth']);
    // A leaf command leaves the word to the shell's file completion (folders, plan files).
    expect(bashComplete(script, ['coursesync', 'plan', 'ex'])).toEqual([]);
  });

  it('zsh and fish: the same subcommands and flags, with their descriptions', async () => {
    const zsh = (await runCli(['completion', 'zsh'])).stdout;
    expect(zsh.split('\n')[0]).toBe('#compdef coursesync');
    expect(zsh).toContain("'members ban') reply=('-y:do not ask for confirmation (required when not run in a terminal)' '--yes:");
    expect(zsh).toContain("'status:Which school, where the token comes from");
    expect(zsh).toMatch(/compdef _coursesync coursesync/);
    const fish = (await runCli(['completion', 'fish'])).stdout;
    expect(fish).toContain(`complete -c coursesync -n '__coursesync_at "members"' -f -a 'ban' -d 'Ban a member, then show it'`);
    expect(fish).toContain(`complete -c coursesync -n '__coursesync_at "apply"' -s y -l yes -d`);
    expect(fish).toContain(`complete -c coursesync -n '__coursesync_at "apply"' -l concurrency -r -d`);
  });

  // One walk of every --help (40 runs of the CLI) serves both checks.
  it('every command and option --help shows is in every script (generated from the program, never stale), and every --help has examples', async () => {
    const scripts = await Promise.all(['bash', 'zsh', 'fish'].map(async (shell) => (await runCli(['completion', shell])).stdout));
    const commands = await commandsFromHelp();
    expect(commands.length).toBeGreaterThan(35);
    const [bash, zsh, fish] = scripts as [string, string, string];
    for (const { path, options, help } of commands) {
      expect(help, path).toMatch(/\nExamples:\n {2}\$ coursesync /);
      expect(bash, path).toContain(`    '${path}') echo `);
      expect(zsh, path).toContain(`    '${path}') reply=(`);
      expect(fish, path).toContain(`-n '__coursesync_at "${path}"'`);
      const line = bash.split('\n').filter((l) => l.startsWith(`    '${path}') echo `))[1]!;
      for (const o of options) expect(line, `${path} ${o}`).toContain(o);
    }
  });

  it('an unknown shell is a usage error (exit 2) naming the choices', async () => {
    const r = await runCli(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Allowed choices are bash, zsh, fish.');
  });
});
