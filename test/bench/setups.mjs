// The repos the plan benchmarks and profiles run on, set up the same way for both.
// (Needs a build, dist/, and generate-repo compiled into test/bench/out/.)
import { appendFile, cp, readdir, rm, utimes } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { generateRepo } from './out/generate-repo.js';
import { ROOT, cliOf, distModule, stateAsApplied, tempDir, timeNode } from './lib.mjs';

export const BASE_URL = 'http://127.0.0.1:4010/api/v1'; // what generate-repo writes in coursesync.yaml
const cores = availableParallelism();

/**
 * Nothing changed: `lessons` lessons (seed 1), the caches filled by a first plan, then the
 * state as apply leaves it (every lesson applied at its place, and its blob, digest, compiler
 * and deps recorded by apply's own recordBuilds), then one plan that must find nothing (it
 * also settles the stat index). Returns the repo folder; `plan --detailed-exitcode` exits 0.
 */
export async function warmRepo(dir, lessons, { root = ROOT } = {}) {
  const cli = cliOf(root);
  const { loadCourse, StateStore } = await distModule('index.js', root); // the public API: stable across refactors
  const { writeStateFile } = await distModule('state/state-file.js', root);
  const { recordBuilds } = await distModule('apply/record-builds.js', root);
  const { compilerId } = await distModule(['load/compiler-id.js', 'source/compiler-id.js'], root);
  await generateRepo(dir, { lessons, seed: 1 });
  const env = { ...process.env, COURSESYNC_RENDER_THREADS: String(cores), NO_COLOR: '1' };
  const fill = await timeNode([cli, 'plan', dir], { env });
  if (fill.code !== 0) throw new Error(`first plan: exit ${fill.code}\n${fill.stderr}`);
  const { desired } = await loadCourse(dir, { cache: true, renderThreads: cores });
  await writeStateFile(dir, await stateAsApplied(desired, BASE_URL, root));
  const store = await StateStore.load(dir);
  await recordBuilds(store, dir, desired, await compilerId());
  await store.close();
  const settle = await timeNode([cli, 'plan', dir, '--detailed-exitcode'], { env });
  if (settle.code !== 0) throw new Error(`plan of an unchanged repo: exit ${settle.code}, expected 0\n${settle.stderr}`);
  return dir;
}

/**
 * A fresh checkout: `lessons` lessons with an image and a link to the previous lesson in each
 * (seed 3), the state as apply leaves it, one lesson body edited. The caller removes
 * .coursesync/cache before each plan; `plan --detailed-exitcode` exits 2 (one update).
 */
export async function freshCheckout(dir, lessons, { root = ROOT } = {}) {
  const { loadCourse, StateStore } = await distModule('index.js', root); // the public API: stable across refactors
  const { linkLessons } = await distModule('plan/lesson-links.js', root);
  const { appliedOf } = await distModule('model/state/fingerprint.js', root);
  const { writeStateFile } = await distModule('state/state-file.js', root);
  const { recordBuilds } = await distModule('apply/record-builds.js', root);
  const { compilerId } = await distModule(['load/compiler-id.js', 'source/compiler-id.js'], root);
  await generateRepo(dir, { lessons, seed: 3, references: true });
  const { desired } = await loadCourse(dir, { cache: false, renderThreads: cores });
  if (!desired) throw new Error('the generated repo does not compile');
  // Ids first (links are filled from them), then what apply would have sent and recorded.
  const state = await stateAsApplied(desired, BASE_URL, root);
  const linked = linkLessons(desired, state);
  for (const p of linked.desired.programs) for (const s of p.sections) for (const l of s.lessons) state.lessons[l.key].applied = appliedOf(l.fields);
  await writeStateFile(dir, state);
  const store = await StateStore.load(dir);
  await recordBuilds(store, dir, linked.desired, await compilerId());
  await store.close();
  const first = desired.programs.flatMap((p) => p.sections.flatMap((s) => s.lessons))[0]; // sections may be empty below 200 lessons
  await appendFile(join(dir, first.path), '\nOne more paragraph, with **emphasis**.\n');
  return dir;
}

/** Repo folder → the folder its kept cache is in (a temporary folder of its own: lib.mjs cleanup removes it). */
const keptCaches = new Map();

/**
 * A fresh checkout in CI as the shipped workflows run it: freshCheckout, whose cache a plan
 * of it then filled and which was kept apart, and every file of the repo written anew after
 * that (as a checkout writes them: new ctimes). Before each plan, restoreCiCache puts the
 * kept cache back, as actions/cache does after actions/checkout; the plan
 * (`--detailed-exitcode`) exits 2.
 */
export async function ciCheckout(dir, lessons, { root = ROOT } = {}) {
  await freshCheckout(dir, lessons, { root });
  const env = { ...process.env, COURSESYNC_RENDER_THREADS: String(cores), NO_COLOR: '1' };
  const fill = await timeNode([cliOf(root), 'plan', dir, '--detailed-exitcode'], { env });
  if (fill.code !== 2) throw new Error(`first plan: exit ${fill.code}, expected 2\n${fill.stderr}`);
  const kept = join(await tempDir('ci-kept-cache'), 'cache');
  await cp(join(dir, '.coursesync', 'cache'), kept, { recursive: true });
  keptCaches.set(dir, kept);
  const now = new Date();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && !join(entry.parentPath, entry.name).includes('/.coursesync/cache')) await utimes(join(entry.parentPath, entry.name), now, now);
  }
  return dir;
}

/** Put back the cache ciCheckout kept for `dir`. */
export async function restoreCiCache(dir) {
  await rm(join(dir, '.coursesync', 'cache'), { recursive: true, force: true });
  await cp(keptCaches.get(dir), join(dir, '.coursesync', 'cache'), { recursive: true });
}
