/**
 * What `coursesync apply [dir|plan.json]` applies: a saved plan (a file) to the course repo found
 * from the current folder (or `--dir`), as Terraform applies a saved plan in its working
 * directory; else the repo named (a folder, the old way to give `--dir`) or found; and the
 * environment chosen for it.
 */
import { readFile, stat } from 'node:fs/promises';
import { failure } from '../diagnostics/error-codes/index.js';
import type { Plan } from '../plan/plan-schema.js';
import { MAX_PLAN_FILE_BYTES, parsePlanText } from '../plan/render-json.js';
import { findRepoRoot } from '../source/repo-root.js';
import { chooseEnvironment } from './environment.js';
import { repoFolder } from './repo-folder.js';

export interface ApplyTarget {
  savedPlan: { plan: Plan; file: string } | undefined;
  dir: string;
  environment: string | undefined;
}

/** @throws CoursesyncError `apply/no-target` when `target` does not exist */
export async function applyTarget(target: string | undefined, options: { dir?: string; env?: string }, env: NodeJS.ProcessEnv): Promise<ApplyTarget> {
  const info = target === undefined ? undefined : await stat(target).catch(() => undefined);
  if (target !== undefined && info === undefined) throw failure('apply/no-target', { target });
  // A plan too large for one string (100,000 creates and more) is refused by name, not by a crash.
  if (info?.isFile() && info.size > MAX_PLAN_FILE_BYTES) throw failure('plan/too-large', { file: target!, bytes: info.size, max: MAX_PLAN_FILE_BYTES });
  const savedPlan = target !== undefined && info?.isFile() ? { plan: parsePlanText(await readFile(target, 'utf8'), target), file: target } : undefined;
  const dir = await findRepoRoot(savedPlan ? options.dir : repoFolder(target, options.dir));
  return { savedPlan, dir, environment: await chooseEnvironment(dir, options.env, env) };
}
