/**
 * The entry's head start for `plan` (I/O edge): when the command line is a plan that reads the
 * repo on another core (a fresh checkout: no stat index to spare the reads; a plan the memo may
 * answer, load/read-aside.ts), the read worker is started before the commands load
 * (load/early-read.ts), and its walk runs beside that load. The rules are the plan's own (the
 * memo's, sync/plan-question.ts; the read's, early-read.ts readsAside); only words read with
 * certainty count: any word this reading does not know leaves the start to the plan itself. The
 * options are the plan command's, from the command tree written at build time (completion-data.json).
 */
import { readFile } from 'node:fs/promises';
import { readsAside, startEarlyRead } from '../load/early-read.js';
import { findRepoRoot } from '../source/repo-root.js';
import { memoizable } from '../sync/plan-question.js';
import type { CommandSpec } from './completion-scripts.js';

/** What a plan's words say that decides its read: the folder it names (undefined: found from the current folder), and the options the memo's rule reads. */
export interface PlanWords {
  folder: string | undefined;
  refresh: boolean;
  tokenFile: string | undefined;
}

/**
 * What `plan`'s words say (PlanWords), or null when they are not read with certainty (a word
 * the plan does not know, a value missing, two folders) or ask for help.
 * `takesValue`: the plan's long options, each with whether it takes a value.
 */
export function readPlanWords(words: readonly string[], takesValue: ReadonlyMap<string, boolean>): PlanWords | null {
  let dir: string | undefined;
  let positional: string | undefined;
  const read: PlanWords = { folder: undefined, refresh: false, tokenFile: undefined };
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
    if (value === undefined || name === '--help' || (!value && eq !== -1)) return null;
    if (name === '--refresh') read.refresh = true;
    if (!value) continue;
    const given = eq === -1 ? words[++i] : word.slice(eq + 1);
    if (given === undefined) return null;
    if (name === '--dir') dir = given;
    if (name === '--token-file') read.tokenFile = given;
  }
  if (dir !== undefined && positional !== undefined && dir !== positional) return null;
  read.folder = dir ?? positional;
  return read;
}

/** Start the read of the repo `plan` (its words after the command name) will read, when it reads it aside (read-aside.ts). */
export async function startPlanRead(words: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const options = await planOptions();
  const read = options === undefined ? null : readPlanWords(words, options);
  if (read === null || !memoizable({ ...read, env })) return;
  const root = await findRepoRoot(read.folder).catch(() => undefined);
  if (root !== undefined && (await readsAside(root))) startEarlyRead(root);
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
