/**
 * The plan memo (I/O): `.coursesync/cache/plan.json` keeps the last plan that found nothing to
 * do, with the digest of everything it was made from. A plan of the same inputs answers with it,
 * having read no lesson, parsed no state and compiled nothing, the way `make` finds every target
 * up to date: what it costs is a stat per file, and a read of the state folder.
 *
 * The inputs, all in one sha256:
 * - coursesync's own code and installed packages (load/compiler-id.ts `codeProof`: checked
 *   by a stat of each module and manifest it was computed from, kept in the memo);
 * - every course file: path and sha256, from the stat index as in any plan (`readSource`), and
 *   what the walk found wrong (links, refused files, unreadable ones);
 * - every file of the state folders (`.coursesync/` but its cache): path and sha256;
 * - the flags and environment variables a plan reads (`--env`, COURSESYNC_ENV, `--base-url`,
 *   COURSESYNC_BASE_URL, `--skip-promotion-check`), and for the token variables only whether
 *   each is set, empty or unset: a token's value is never hashed or written.
 *
 * Kept only from a plan that sent no request (its answer then depends on files alone), found no
 * change and had a state file. Never used by apply, with --refresh, with a token file, or with
 * COURSESYNC_DEBUG set (but to `timing` alone, which watches the run as it is); like every cache
 * file, a missing or damaged memo is a miss.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceTree } from '../model/source-tree.js';
import type { Plan } from '../plan/plan-schema.js';
import { codeProof, provenCodeDigest } from '../load/compiler-id.js';
import { readCacheFile, writeCacheFile } from '../source/cache-file.js';
import { readSourceAside } from '../load/read-aside.js';
import { timing } from '../load/timing.js';
import type { PlanQuestion } from './plan-question.js';

export { memoizable, type PlanQuestion } from './plan-question.js';

const MEMO_FILE = join('.coursesync', 'cache', 'plan.json');
const TAG = 'coursesync-plan-memo/1';
const DEFAULT_TOKEN_VARIABLE = 'COURSESYNC_TOKEN';

/** A plan's inputs, read: the course's files (for the plan to compile on a miss) and their digest. */
export interface PlanInputs {
  source: SourceTree;
  /** Everything but the token variables, hashed; undefined when the state folder holds a link or a special file (then nothing is recalled or kept). */
  digest: string | undefined;
  env: NodeJS.ProcessEnv;
}

/**
 * Read the inputs of a plan of the repo at `dir`. `meanwhile` (loading what a plan that misses
 * needs) runs while the repo is read on another core, when it is, then `whileWaiting`'s steps
 * while the read goes on (load/read-aside.ts).
 */
export async function readPlanInputs(dir: string, question: PlanQuestion, meanwhile: () => Promise<unknown> = async () => {}, whileWaiting?: () => AsyncIterable<unknown>): Promise<PlanInputs> {
  const source = await readSourceAside(dir, meanwhile, whileWaiting);
  const hash = createHash('sha256');
  const { env } = question;
  hash.update(JSON.stringify([TAG, question.envFlag ?? null, env.COURSESYNC_ENV ?? null, question.baseUrlFlag ?? null, env.COURSESYNC_BASE_URL ?? null, question.skipPromotionCheck === true]));
  hash.update(sourceDigest(source));
  const plain = hashStateFolder(hash, dir, '.coursesync');
  timing('plan: inputs read and digested');
  return { source, digest: plain ? hash.digest('hex') : undefined, env };
}

/**
 * The plan kept for `inputs`, if any. The memo names what the code digest was computed from:
 * when none of it changed, the digest is taken from it (a stat per module) instead of
 * reading every module again.
 */
export async function recallPlan(dir: string, inputs: PlanInputs): Promise<Plan | undefined> {
  if (inputs.digest === undefined) return undefined;
  let tag: string[] = [];
  const entries = new Map<string, unknown>();
  const read = await readCacheFile(
    join(dir, MEMO_FILE),
    'memo',
    (t) => (tag = t.split(' '))[0] === TAG && tag.length === 3,
    (name, value) => entries.set(name, value),
  );
  const plan = entries.get('plan');
  if (!read || typeof plan !== 'object' || plan === null) return undefined;
  const [, key, variable] = tag as [string, string, string];
  const proven = provenCodeDigest(entries.get('code'));
  if (key !== memoKey(inputs, proven ?? codeProof().digest, variable)) return undefined;
  // A hit on a proof gone stale (coursesync rebuilt or reinstalled, its code the same): kept
  // anew with a fresh proof, so the next plans take the digest from a stat per module again.
  if (proven === undefined) await writeCacheFile(join(dir, MEMO_FILE), 'memo', tag.join(' '), new Map<string, unknown>([['code', codeProof()], ['plan', plan]]));
  return plan as Plan;
}

/**
 * Keep `plan` for `inputs` when it may answer the next plan of the same inputs: it found no
 * change, sent no request, and had a state file. `tokenVariable` is the variable its build read
 * the token from. A failed write is not an error.
 */
export async function keepPlan(dir: string, inputs: PlanInputs, built: { plan: Plan; stateExists: boolean; askedSchool: boolean; tokenVariable: string }): Promise<void> {
  const { plan } = built;
  if (inputs.digest === undefined || !built.stateExists || built.askedSchool || plan.changes.length > 0 || plan.renames.length > 0 || plan.refreshed) return;
  // A name with a space could not be told apart in the tag: such a plan is simply not kept.
  if (/\s/.test(built.tokenVariable)) return;
  const code = codeProof();
  const key = memoKey(inputs, code.digest, built.tokenVariable);
  await writeCacheFile(join(dir, MEMO_FILE), 'memo', `${TAG} ${key} ${built.tokenVariable}`, new Map<string, unknown>([['code', code], ['plan', plan]]));
}

/** The key: the inputs' digest, the code's, and whether each token variable is set, empty or unset. */
function memoKey(inputs: PlanInputs, code: string, tokenVariable: string): string {
  const presence = (name: string) => (inputs.env[name] === undefined ? 'unset' : inputs.env[name] === '' ? 'empty' : 'set');
  return createHash('sha256')
    .update(`${inputs.digest}\0${code}\0${presence(DEFAULT_TOKEN_VARIABLE)}\0${tokenVariable}\0${presence(tokenVariable)}`)
    .digest('hex');
}

/** sha256 of every course file's path and digest, and of what the walk reported. */
function sourceDigest(source: SourceTree): string {
  const hash = createHash('sha256');
  // The same bytes as an update per file, in one update per 64 KB (some 600 files): a call into
  // the hash per file was ~8 ms of a 10,000-lesson plan.
  let text = 'config\n';
  const file = (path: string, digest: string) => {
    text += `${path}\0${digest}\n`;
    if (text.length > 1 << 16) {
      hash.update(text);
      text = '';
    }
  };
  if (source.config) file(source.config.path, source.config.digest);
  for (const [name, files] of [['programs', source.programs], ['sections', source.sections], ['lessons', source.lessons]] as const) {
    text += `${name}\n`;
    for (const f of files) file(f.path, f.digest);
  }
  text += 'files\n';
  for (const [path, digest] of source.files ?? []) file(path, digest);
  hash.update(text + JSON.stringify([[...(source.linked ?? [])], [...(source.refused ?? [])], source.diagnostics]));
  return hash.digest('hex');
}

/**
 * Hash the path and bytes of every file of the state folders (`.coursesync/` and its `env/`),
 * the cache left out. False when one is a link or not a regular file: its content could change
 * under an unchanged name, so such a repo's plans are not memoized.
 */
function hashStateFolder(hash: ReturnType<typeof createHash>, dir: string, rel: string): boolean {
  let entries;
  try {
    entries = readdirSync(join(dir, rel), { withFileTypes: true });
  } catch {
    hash.update(`${rel}\0none\n`);
    return true;
  }
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = `${rel}/${entry.name}`;
    if (path === '.coursesync/cache') continue;
    if (entry.isDirectory()) {
      if (!hashStateFolder(hash, dir, path)) return false;
    } else if (entry.isFile()) hash.update(`${path}\0`).update(readFileSync(join(dir, path))).update('\n');
    else return false;
  }
  return true;
}
