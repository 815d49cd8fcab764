/**
 * The folder a plan will read, as the entry tells it before the commands load
 * (cli/plan-folder.ts, which starts the plan's read worker early when that folder will be read
 * on one): for every way of writing the command line it names one, it is the folder commander
 * then gives the plan; a line it cannot read for sure names none.
 */
import { describe, expect, it } from 'vitest';
import { everyCommandTree } from '../../src/cli/completion.js';
import { planFolder } from '../../src/cli/plan-folder.js';
import { programFor } from '../../src/cli/program.js';
import { repoFolder } from '../../src/cli/repo-folder.js';

/** The folder commander gives `plan words` (undefined: none), or 'error' when it refuses the line. */
async function commanderFolder(words: string[]): Promise<string | undefined | 'error'> {
  const program = await programFor('0.0.0', ['plan', ...words]);
  const plan = program.commands.find((c) => c.name() === 'plan')!;
  let got: string | undefined | 'error' = 'error';
  for (const c of [program, plan]) c.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
  plan.action((dir: string | undefined, options: { dir?: string }) => {
    got = repoFolder(dir, options.dir);
  });
  try {
    await program.parseAsync(['node', 'coursesync', 'plan', ...words]);
  } catch {
    return 'error';
  }
  return got;
}

const LINES: string[][] = [
  [],
  ['course'],
  ['--dir', 'course'],
  ['--dir=course', '--detailed-exitcode'],
  ['--format', 'markdown', '--detailed-exitcode'],
  ['--env', 'staging', '--format', 'markdown', '--detailed-exitcode'],
  ['--out', 'plan.json'],
  ['--out', 'plan.json', 'course'],
  ['--format', 'json', 'course', '--html-diff'],
  ['--env=staging', '--skip-promotion-check'],
  ['--dir', 'course', 'course'],
  ['--', 'course'],
  ['--detailed-exitcode', '--', 'course'],
  ['--help'],
  ['-h'],
  ['--bogus'],
  ['--json=yes'],
  ['a', 'b'],
  ['--dir', 'a', 'b'],
  ['--dir', 'a', '--dir', 'b'],
  ['--out', '--json'],
  ['--dir'],
  ['--', 'a', 'b'],
];

describe('the folder a plan reads, as the entry tells it before commander', () => {
  it('is the folder commander gives the plan, whenever the entry names one', async () => {
    const plan = (await everyCommandTree()).commands.find((c) => c.name === 'plan')!;
    let named = 0;
    for (const words of LINES) {
      const ahead = planFolder(words, plan);
      if (ahead === undefined) continue;
      named++;
      expect(await commanderFolder(words), words.join(' ')).toBe(ahead.dir);
    }
    // What the comparison covers: lines with a folder, without one (the shipped workflows' among them).
    expect(named).toBe(13);
  });

  it('names none when the line is not that clear: help, an unknown option, two folders', async () => {
    const plan = (await everyCommandTree()).commands.find((c) => c.name === 'plan')!;
    const unread = LINES.filter((words) => planFolder(words, plan) === undefined).map((w) => w.join(' '));
    expect(unread).toEqual(['--help', '-h', '--bogus', '--json=yes', 'a b', '--dir a b', '--dir a --dir b', '--out --json', '--dir', '-- a b']);
    expect(planFolder(['--out', 'plan.json'], plan)).toEqual({});
    expect(planFolder(['--format', 'json', 'course'], plan)).toEqual({ dir: 'course' });
  });
});
