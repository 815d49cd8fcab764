/**
 * Whether a plan will read its repo on another core, told before the commands load (I/O edge):
 * then its read worker is started with the process (load/spare-worker.ts), ~40 ms of start-up
 * off the read's path. The folder is the one the plan will read: its `--dir` or folder
 * argument, told from the values of its other options by the command tree written at build
 * time (completion-data.json), else the folder found from the current one
 * (source/repo-search.ts); the plan reads on a worker when that folder has no stat index it may
 * trust (source/stat-index-head.ts indexMaySpare). A line it cannot read for sure (an unknown
 * option, `--help`, two folders) starts nothing; the plan then starts its worker when it reads,
 * as it would anyway. Only when the worker starts is decided here: the plan tells it the folder.
 */
import { readFile } from 'node:fs/promises';
import type { Worker } from 'node:worker_threads';
import type { CommandSpec } from './completion-scripts.js';
import { courseFolder } from '../source/repo-search.js';
import { indexMaySpare } from '../source/stat-index-head.js';
import { canReadAside, startReadWorker } from '../load/spare-worker.js';
import { timing } from '../load/timing.js';

/** The read worker of the plan `args` (process.argv's shape, colour switches removed) runs, started now; undefined when it will read here, or it is unclear. */
export async function readWorkerAhead(args: readonly string[]): Promise<Worker | undefined> {
  if (args[2] !== 'plan' || !canReadAside()) return undefined;
  try {
    const tree = JSON.parse(await readFile(new URL('./completion-data.json', import.meta.url), 'utf8')) as CommandSpec;
    const plan = tree.commands.find((c) => c.name === 'plan');
    const named = plan && planFolder(args.slice(3), plan);
    if (named === undefined || (await indexMaySpare(await courseFolder(named.dir)))) return undefined;
  } catch {
    // No tree (a build by tsc alone), a folder that cannot be read: the plan decides as it reads.
    return undefined;
  }
  const worker = startReadWorker();
  timing('read: worker started with the process');
  return worker;
}

/**
 * The folder `words` (after `plan`) name, as commander will read them: `--dir`, else the folder
 * argument, else none (`{}`); undefined when they are not that clear (an option `plan` does
 * not know, a value that looks like an option, help, two folders).
 */
export function planFolder(words: readonly string[], plan: CommandSpec): { dir?: string } | undefined {
  const takesValue = new Map(plan.options.map((o) => [o.long, o.takesValue]));
  let flag: string | undefined;
  let positional: string | undefined;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word === '--') {
      const rest = words.slice(i + 1);
      if (rest.length + (positional === undefined ? 0 : 1) > 1) return undefined;
      positional ??= rest[0];
      break;
    }
    if (!word.startsWith('-')) {
      if (positional !== undefined) return undefined;
      positional = word;
      continue;
    }
    const eq = word.indexOf('=');
    const name = eq === -1 ? word : word.slice(0, eq);
    if (name === '--help' || !takesValue.has(name)) return undefined;
    if (!takesValue.get(name)) {
      if (eq !== -1) return undefined;
      continue;
    }
    const value = eq === -1 ? words[++i] : word.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith('-'))) return undefined;
    if (name === '--dir') {
      if (flag !== undefined) return undefined;
      flag = value;
    }
  }
  if (flag !== undefined && positional !== undefined && flag !== positional) return undefined;
  const dir = flag ?? positional;
  return dir === undefined ? {} : { dir };
}
