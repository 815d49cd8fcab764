/**
 * The command tree of the CLI, every command registered (every src/cli module
 * that exports `register`), so tests can walk every command and option that exists, including
 * commands added after these tests were written.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';

const CLI_SRC = join(import.meta.dirname, '../../src/cli');

/** The whole `coursesync` program, every command registered. */
export async function buildProgram(): Promise<Command> {
  const program = new Command('coursesync').exitOverride();
  const files = (await readdir(CLI_SRC)).filter((f) => f.endsWith('.ts') && f !== 'index.ts').sort();
  for (const f of files) {
    const mod = (await import(join(CLI_SRC, f))) as { register?: (p: Command) => void };
    if (typeof mod.register === 'function') mod.register(program);
  }
  return program;
}

export interface LeafCommand {
  /** `['members', 'list']` */
  path: string[];
  command: Command;
}

/** Every command that runs something (no subcommands of its own). */
export function leafCommands(program: Command): LeafCommand[] {
  const out: LeafCommand[] = [];
  const walk = (c: Command, path: string[]) => {
    if (c.commands.length === 0) out.push({ path, command: c });
    for (const sub of c.commands) walk(sub, [...path, sub.name()]);
  };
  for (const c of program.commands) walk(c, [c.name()]);
  return out;
}

/** Every command, leaves and groups. */
export function allCommands(program: Command): LeafCommand[] {
  const out: LeafCommand[] = [];
  const walk = (c: Command, path: string[]) => {
    out.push({ path, command: c });
    for (const sub of c.commands) walk(sub, [...path, sub.name()]);
  };
  for (const c of program.commands) walk(c, [c.name()]);
  return out;
}

/** Whether a command has an option with this long flag (`--json`). */
export function hasOption(c: Command, long: string): boolean {
  return c.options.some((o) => o.long === long);
}
