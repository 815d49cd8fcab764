/**
 * `coursesync completion bash|zsh|fish` from the built CLI: the bash script is run in bash and
 * asked what it completes; the zsh and fish scripts name the same subcommands and flags. That
 * every command and option of --help is in the scripts is checked in cli-consistency.test.ts,
 * on its one walk of every --help.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../e2e/helpers.js';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';

/** What bash completes for the words typed so far (the last one being completed). */
function bashComplete(script: string, words: string[]): string[] {
  const program = `${script}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _coursesync; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter((l) => l !== '');
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

  it('an unknown shell is a usage error (exit 64) naming the choices', async () => {
    const r = await runCli(['completion', 'powershell']);
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.stderr).toContain('Allowed choices are bash, zsh, fish.');
  });
});
