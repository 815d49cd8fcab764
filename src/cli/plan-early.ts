/**
 * The entry's head start for `plan` (I/O edge): when the command line is a plan that reads the
 * repo on another core (a fresh checkout: no stat index to spare the reads; a plan the memo may
 * answer, load/read-aside.ts), the read worker is started before the commands load
 * (load/early-read.ts), and its walk runs beside that load. Only what is read with certainty
 * counts: any word this reading does not know leaves the start to the plan itself. The options
 * are the plan command's own, from the command tree written at build time (completion-data.json).
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { startEarlyRead } from '../load/early-read.js';
import { debugValues } from '../load/timing.js';
import { findRepoRoot } from '../source/repo-root.js';
import { indexMaySpare } from '../source/stat-index.js';
import type { CommandSpec } from './completion-scripts.js';

/** Options after which a plan reads no repo aside: it asks the school for every lesson, or prints help. */
const NOT_ASIDE = new Set(['--refresh', '--token-file', '--help']);

/**
 * The folder `plan`'s words name (`--dir`, or the old positional; undefined: found from the
 * current folder), or null when they are not read with certainty or name a plan that reads no
 * repo aside. `takesValue`: the plan's long options, each with whether it takes a value.
 */
export function planFolderArg(words: readonly string[], takesValue: ReadonlyMap<string, boolean>): string | undefined | null {
  let dir: string | undefined;
  let positional: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!word.startsWith('-')) {
      if (positional !== undefined) return null;
      positional = word;
      continue;
    }
    const eq = word.indexOf('=');
    const name = eq === -1 ? word : word.slice(0, eq);
    const value = takesValue.get(name);
    if (value === undefined || NOT_ASIDE.has(name) || (!value && eq !== -1)) return null;
    if (!value) continue;
    const given = eq === -1 ? words[++i] : word.slice(eq + 1);
    if (given === undefined) return null;
    if (name === '--dir') dir = given;
  }
  if (dir !== undefined && positional !== undefined && dir !== positional) return null;
  return dir ?? positional;
}

/** Start the read of the repo `plan` (its words after the command name) will read, when it will read it aside. */
export async function startPlanRead(words: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  if (availableParallelism() < 2 || !debugValues(env).every((d) => d === 'timing')) return;
  const options = await planOptions();
  const arg = options === undefined ? null : planFolderArg(words, options);
  if (arg === null) return;
  const root = await findRepoRoot(arg).catch(() => undefined);
  if (root === undefined || (await indexMaySpare(root))) return;
  startEarlyRead(root);
}

/** The plan command's long options, from the tree written at build time; undefined without it. */
async function planOptions(): Promise<Map<string, boolean> | undefined> {
  let tree: CommandSpec;
  try {
    tree = JSON.parse(await readFile(new URL('./completion-data.json', import.meta.url), 'utf8')) as CommandSpec;
  } catch {
    return undefined;
  }
  const plan = tree.commands.find((c) => c.name === 'plan');
  return plan && new Map(plan.options.map((o) => [o.long, o.takesValue]));
}
