// `coursesync plan` on a fresh checkout (CI: no .coursesync/cache), one lesson edited: the
// lessons whose digests match the state are neither read for Markdown nor rendered.
// Usage: npm run build && node test/bench/fresh-plan.mjs [lessons=10000] [repeats=3]
//
// 1. A generated repo (images and links between lessons included) is compiled in this process
//    and a state is written as apply would leave it: every lesson applied at its place, then
//    the builds recorded by the same code apply runs (recordBuilds: blob, digest, compiler, deps).
// 2. One lesson body is edited; then, alternately, read-hash.mjs (the baseline: walk, read and
//    sha256 the course files) and `coursesync plan --detailed-exitcode` (must exit 2: one update)
//    after removing .coursesync/cache before every run. Wall time and peak RSS of each process.
// 3. The committed state: bytes per lesson.
import { appendFile, rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { generateRepo } from './out/generate-repo.js';
import { CLI, ROOT, cleanup, heading, median, ms, ratio, stateAsApplied, tempDir, timeNode } from './lib.mjs';

const [lessons = 10_000, repeats = 3] = process.argv.slice(2).map(Number);
const { loadCourse } = await import('../../dist/load/load-course.js');
const { linkLessons } = await import('../../dist/plan/lesson-links.js');
const { appliedOf } = await import('../../dist/model/state/fingerprint.js');
const { statePath, writeStateFile } = await import('../../dist/state/state-file.js');
const { StateStore } = await import('../../dist/state/state-store.js');
const { recordBuilds } = await import('../../dist/apply/record-builds.js');
const { compilerId } = await import('../../dist/load/compiler-id.js');

const BASE_URL = 'http://127.0.0.1:4010/api/v1'; // what generate-repo writes in coursesync.yaml
const cores = availableParallelism();
const check = (r, what, code) => {
  if (r.code !== code) throw new Error(`${what}: exit code ${r.code}, expected ${code}\n${r.stderr}`);
  return r;
};
export const results = {};

heading(`plan on a fresh checkout (no .coursesync/cache), one lesson edited: ${lessons} lessons with images and links`);
const dir = await tempDir('fresh');
const t0 = performance.now();
await generateRepo(dir, { lessons, seed: 3, references: true });
const { desired } = await loadCourse(dir, { cache: false, renderThreads: cores });
if (!desired) throw new Error('the generated repo does not compile');
// Ids first (links are filled from them), then what apply would have sent and recorded.
const state = await stateAsApplied(desired, BASE_URL);
const n = Object.keys(state.lessons).length;
const linked = linkLessons(desired, state);
for (const p of linked.desired.programs) for (const s of p.sections) for (const l of s.lessons) state.lessons[l.key].applied = appliedOf(l.fields);
await writeStateFile(dir, state);
const store = await StateStore.load(dir);
const recorded = await recordBuilds(store, dir, linked.desired, await compilerId());
await store.close();
const bytes = (await stat(statePath(dir))).size;
console.log(`set up in ${ms(performance.now() - t0)}: ${n} lessons applied, ${recorded} builds recorded; state ${(bytes / 2 ** 20).toFixed(2)} MB = ${(bytes / n).toFixed(0)} bytes per lesson (target ≤ 400)`);

const first = desired.programs[0].sections[0].lessons[0];
await appendFile(join(dir, first.path), '\nOne more paragraph, with **emphasis**.\n');

const base = [];
const fresh = [];
let peak = 0;
let basePeak = 0;
for (let r = 0; r < repeats; r++) {
  const b = check(await timeNode([join(ROOT, 'test/bench/read-hash.mjs'), dir]), 'read-hash baseline', 0);
  base.push(b.wall);
  basePeak = Math.max(basePeak, b.rssMb);
  await rm(join(dir, '.coursesync', 'cache'), { recursive: true, force: true });
  const p = check(
    await timeNode([CLI, 'plan', dir, '--detailed-exitcode'], { env: { ...process.env, COURSESYNC_RENDER_THREADS: String(cores), NO_COLOR: '1' } }),
    'plan with one lesson edited (exit 2 = changes)',
    2,
  );
  fresh.push(p.wall);
  peak = Math.max(peak, p.rssMb);
}
const [b, f] = [median(base), median(fresh)];
console.log(`baseline (read + sha256 of the course files, own process): ${ms(b)} median of ${base.map((x) => x.toFixed(0)).join('/')}, peak ${basePeak.toFixed(0)} MB`);
console.log(`plan, fresh checkout, 1 edited: ${ms(f)} median of ${fresh.map((x) => x.toFixed(0)).join('/')} = ${ratio(f, b)} the baseline (target ≤ 3×); peak RSS ${peak.toFixed(0)} MB (target ≤ 250 MB)`);
results.fresh = { base: b, plan: f, peakMb: peak, bytesPerLesson: bytes / n, lessons: n };
await cleanup();
