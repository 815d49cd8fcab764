/**
 * The table of top-level commands in src/cli/program.ts, which --help and the did-you-mean read
 * without loading any command module, says what the modules register; and the command a run
 * loads is the one commander will run.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandNamed, rootCommand } from '../../src/cli/program.js';

const CLI_SRC = join(import.meta.dirname, '../../src/cli');

describe('the command table', () => {
  it('each row is what its module registers: one command, its name, usage and description', async () => {
    for (const row of COMMANDS) {
      const program = rootCommand('0.0.0');
      (await row.load()).register(program);
      expect(program.commands.map((c) => c.name()), row.name).toEqual([row.name]);
      const command = program.commands[0]!;
      expect(command.description(), row.name).toBe(row.description);
      expect(new Help().subcommandTerm(command), row.name).toBe([row.name, row.usage].filter(Boolean).join(' '));
    }
  });

  it('has a row for every command module of src/cli, each once', async () => {
    const files = (await readdir(CLI_SRC)).filter((f) => f.endsWith('.ts'));
    const registering: string[] = [];
    for (const f of files) if ((await readFile(join(CLI_SRC, f), 'utf8')).includes('export function register(')) registering.push(f);
    const registered: string[] = [];
    for (const f of registering) {
      const program = new Command('coursesync');
      ((await import(join(CLI_SRC, f))) as { register: (p: Command) => void }).register(program);
      registered.push(...program.commands.map((c) => c.name()));
    }
    expect(registering.length).toBeGreaterThan(15);
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
    expect(registered.sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  });
});

describe('commandNamed: the command commander will dispatch to', () => {
  it('is the first word, or the word after help, before any option; after -- every word counts', () => {
    expect(commandNamed(['plan', '--out', 'p.json'])).toBe('plan');
    expect(commandNamed(['members', 'ban', 'ada@example.com', '--yes'])).toBe('members');
    expect(commandNamed(['help', 'plan'])).toBe('plan');
    expect(commandNamed(['help', 'members', 'ban'])).toBe('members');
    expect(commandNamed(['--', 'plan', '--help'])).toBe('plan');
    expect(commandNamed(['plna'])).toBe('plna');
  });

  it('is none for the root alone: no word, help alone, or an option first (commander then shows the root help or error)', () => {
    for (const args of [[], ['--help'], ['-V'], ['help'], ['-h', 'plan'], ['--help', 'plan'], ['--bogus', 'plan'], ['help', '--bogus', 'plan']]) {
      expect(commandNamed(args), args.join(' ')).toBeUndefined();
    }
  });
});
