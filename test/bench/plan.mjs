// `coursesync plan` on generated repos, the built CLI in its own process each time.
// Usage: npm run build && node test/bench/plan.mjs [lessons=10000] [coldLessons=1000] [coldRepeats=2] [repeats=3]
//        PLAN_BASELINE_CLI=/path/to/older/dist/cli/index.js node test/bench/plan.mjs …  (also times that build's cold plan)
//
// 1. Cold cache, everything changed (no state: every lesson is a create) on `coldLessons`
//    lessons: rendering on one thread (COURSESYNC_RENDER_THREADS=1) versus every core, run
//    alternately, lessons per second of the whole plan command, and CPU time per lesson
//    against a calibration (a fixed pure computation in its own process, same run), which
//    moves much less with the machine's load than wall time. With PLAN_BASELINE_CLI, another
//    build (say, the previous release) runs the same cold plans interleaved: its rate is the
//    baseline; then the render stage alone (render-only.mjs) of both builds, alternately.
// 2. Nothing changed on `lessons` lessons: a first plan fills the caches (cold, every core),
//    then the state is written as apply would leave it (every lesson applied at its
//    place), then `plan --detailed-exitcode` must exit 0. Baseline: read-hash.mjs, a process
//    that only walks, reads and hashes the same course files. Wall time and peak RSS.
// 3. One lesson body edited: plan again (one update, one rendering).
import { appendFile, rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { generateRepo } from './out/generate-repo.js';
import { CLI, ROOT, cleanup, heading, median, ms, parallelSpeedup, ratio, stateAsApplied, tempDir, timeNode } from './lib.mjs';

const [lessons = 10_000, coldLessons = 1_000, coldRepeats = 2, repeats = 3] = process.argv.slice(2).map(Number);
const { loadCourse } = await import('../../dist/load/load-course.js');
const { readSource } = await import('../../dist/source/read-source.js');
const { compileCourse } = await import('../../dist/compile/index.js');
const { createCachedRender } = await import('../../dist/compile/render-cache.js');
const { createCachedCompile } = await import('../../dist/compile/lesson-cache.js');
const { compilerDigest, compilerId } = await import('../../dist/load/compiler-id.js');
const { lessonCachePath, readLessonCache } = await import('../../dist/load/lesson-cache-file.js');
const { readRenderCache, renderCachePath } = await import('../../dist/load/render-cache-file.js');
const { writeStateFile } = await import('../../dist/state/state-file.js');
const { StateStore } = await import('../../dist/state/state-store.js');
const { recordBuilds } = await import('../../dist/apply/record-builds.js');

const execFileAsync = promisify(execFile);
const BASE_URL = 'http://127.0.0.1:4010/api/v1'; // what generate-repo writes in coursesync.yaml
const cores = availableParallelism();
const plan = (dir, threads, extra = [], cli = CLI) =>
  timeNode([cli, 'plan', dir, ...extra], { env: { ...process.env, COURSESYNC_RENDER_THREADS: String(threads), NO_COLOR: '1' } });
const baselineCli = process.env.PLAN_BASELINE_CLI;
/** CPU ms of a fixed single-threaded computation in its own process: the unit the cold plan's CPU is counted in. */
const CALIBRATION = "let x = 0; for (let i = 0; i < 1e8; i++) x = (x + i * i) % 1000003; console.log(x);";
const check = (r, what, code = 0) => {
  if (r.code !== code) throw new Error(`${what}: exit code ${r.code}, expected ${code}\n${r.stderr}`);
  return r;
};
export const results = {};

// 1. Cold cache, everything changed.
heading(`plan, cold cache, everything changed: ${coldLessons} lessons, 1 thread vs ${cores} (every core)`);
const small = await tempDir('cold');
await generateRepo(small, { lessons: coldLessons, seed: 2 });
const speedup = await parallelSpeedup(cores);
console.log(`machine check: ${cores} threads of pure computation do ${speedup.toFixed(2)}× the work of one in the same time (${cores}.00 = ${cores} free cores)`);
const single = [];
const multi = [];
const older = [];
const calibration = [];
for (let r = 0; r < coldRepeats; r++) {
  calibration.push(check(await timeNode(['-e', CALIBRATION]), 'calibration').cpuMs);
  await rm(join(small, '.coursesync'), { recursive: true, force: true });
  single.push(check(await plan(small, 1), 'cold plan, 1 thread'));
  await rm(join(small, '.coursesync'), { recursive: true, force: true });
  multi.push(check(await plan(small, cores), `cold plan, ${cores} threads`));
  if (baselineCli) {
    await rm(join(small, '.coursesync'), { recursive: true, force: true });
    older.push(check(await plan(small, 1, [], baselineCli), 'cold plan, baseline build, 1 thread'));
  }
}
const cal = median(calibration);
const [s1, sN] = [median(single.map((x) => x.wall)), median(multi.map((x) => x.wall))];
// CPU time / wall time: how many cores the process really got (1.0 = one core busy all the time).
const cores1 = median(single.map((x) => x.cpuMs / x.wall));
const coresN = median(multi.map((x) => x.cpuMs / x.wall));
const perLesson = (runs) => median(runs.map((x) => x.cpuMs)) / coldLessons;
const line = (name, runs, extra = '') => {
  const wall = median(runs.map((x) => x.wall));
  return (
    `${name}${ms(wall)} median of ${runs.map((x) => x.wall.toFixed(0)).join('/')} → ${(coldLessons / (wall / 1000)).toFixed(0)} lessons/s; ` +
    `CPU ${perLesson(runs).toFixed(2)} ms per lesson = ${((1000 * perLesson(runs)) / cal).toFixed(2)} calibrations per 1,000 lessons; CPU/wall ${median(runs.map((x) => x.cpuMs / x.wall)).toFixed(2)}; peak ${Math.max(...runs.map((x) => x.rssMb)).toFixed(0)} MB${extra}`
  );
};
console.log(`calibration (fixed pure computation, own process, one thread): ${ms(cal)} CPU median of ${calibration.map((x) => x.toFixed(0)).join('/')}`);
console.log(line('1 thread:    ', single));
console.log(line(`${cores} threads:   `, multi, `; ${ratio(s1, sN)} the single-threaded rate (target: CPU/wall ≥ 1.7)`));
if (baselineCli) {
  const o = median(older.map((x) => x.wall));
  console.log(line('baseline build, 1 thread: ', older));
  console.log(`this build, 1 thread: ${ratio(o, s1)} the baseline build's lessons/s by wall time, ${ratio(perLesson(older), perLesson(single))} by CPU per lesson (target ≥ 2×)`);
}
if (baselineCli) {
  // The render stage alone (render-only.mjs: this thread, no worker, no plan around it), the
  // two builds alternately: how much of the plan's cost the renderer is, and its own ratio.
  const renderOnly = async (dist) => JSON.parse((await execFileAsync(process.execPath, [join(ROOT, 'test/bench/render-only.mjs'), dist, small])).stdout);
  const baseDist = dirname(dirname(baselineCli));
  const [mine, theirs] = [[], []];
  for (let r = 0; r < Math.max(3, coldRepeats); r++) {
    mine.push(await renderOnly(join(ROOT, 'dist')));
    theirs.push(await renderOnly(baseDist));
  }
  const per = (runs, key) => median(runs.map((x) => x[key] / x.lessons));
  const fmt = (runs) => `${per(runs, 'cpuMs').toFixed(2)} ms CPU (${runs.map((x) => (x.cpuMs / x.lessons).toFixed(2)).join('/')}), ${per(runs, 'wallMs').toFixed(2)} ms wall per lesson`;
  console.log(`render stage alone, one thread, cold process: this build ${fmt(mine)}; baseline build ${fmt(theirs)} → ${ratio(per(theirs, 'cpuMs'), per(mine, 'cpuMs'))} by CPU, ${ratio(per(theirs, 'wallMs'), per(mine, 'wallMs'))} by wall`);
}
results.cold = { single: s1, multi: sN, lessons: coldLessons, cores, cores1, coresN, calibrationMs: cal };

// 2. Nothing changed (lessons = 0: the cold case only).
if (lessons === 0) {
  await cleanup();
  process.exit(0);
}
heading(`plan, nothing changed: ${lessons} lessons (10 programs, 200 sections, ~3 KB each)`);
const big = await tempDir('unchanged');
const t0 = performance.now();
await generateRepo(big, { lessons, seed: 1 });
const genMs = performance.now() - t0;
const fill = check(await plan(big, cores), 'first plan (fills the cache)');
console.log(`generated in ${ms(genMs)}; first plan (cold cache, ${cores} threads, ${lessons} creates): ${ms(fill.wall)} → ${(lessons / (fill.wall / 1000)).toFixed(0)} lessons/s, CPU/wall ${(fill.cpuMs / fill.wall).toFixed(2)}, peak ${fill.rssMb.toFixed(0)} MB`);
const { desired } = await loadCourse(big, { cache: true, renderThreads: cores });
const state = await stateAsApplied(desired, BASE_URL);
await writeStateFile(big, state);
// Nothing unchanged is compiled or rendered: with the caches as the plan left them, a compile
// whose lesson compiler and renderer throw still succeeds.
const lessonEntries = await readLessonCache(big, await compilerDigest());
const renderEntries = await readRenderCache(big, await compilerDigest());
const refuse = (what) => () => {
  throw new Error(`${what} although the cache holds it`);
};
const probeCompile = createCachedCompile(lessonEntries, refuse('compiled a lesson'));
const probeRender = createCachedRender(new Map(), refuse('rendered a text'));
const probe = compileCourse(await readSource(big), { render: probeRender.render, compileLesson: probeCompile.compileLesson });
const mb = async (file) => ((await stat(file)).size / 2 ** 20).toFixed(1);
console.log(
  `caches: ${lessonEntries.size} compiled lessons (${await mb(lessonCachePath(big))} MB), ${renderEntries.size} renderings (${await mb(renderCachePath(big))} MB); ` +
    `a compile with them compiles ${probeCompile.misses} lessons and renders ${probeRender.misses} texts (${probe.desired ? 'desired state complete' : 'FAILED'})`,
);
const mtimes = async () => `${(await stat(lessonCachePath(big))).mtimeMs} ${(await stat(renderCachePath(big))).mtimeMs}`;
const cacheMtime = await mtimes();

const base = [];
const warm = [];
let peak = 0;
let basePeak = 0;
for (let r = 0; r < repeats; r++) {
  const b = check(await timeNode([join(ROOT, 'test/bench/read-hash.mjs'), big]), 'read-hash baseline');
  base.push(b.wall);
  basePeak = Math.max(basePeak, b.rssMb);
  const p = check(await plan(big, cores, ['--detailed-exitcode']), 'plan with nothing changed (exit 0 = no changes)');
  warm.push(p.wall);
  peak = Math.max(peak, p.rssMb);
}
const rewritten = (await mtimes()) !== cacheMtime;
const [b, w] = [median(base), median(warm)];
console.log(`baseline (read + sha256 of the same ${lessons + 211} course files, own process): ${ms(b)} median of ${base.map((x) => x.toFixed(0)).join('/')}, peak ${basePeak.toFixed(0)} MB`);
console.log(`plan, no changes: ${ms(w)} median of ${warm.map((x) => x.toFixed(0)).join('/')} = ${ratio(w, b)} the baseline (target ≤ 1.5×; < 1 s absolute); peak RSS ${peak.toFixed(0)} MB (target ≤ 250 MB); caches rewritten: ${rewritten ? 'yes' : 'no'}`);
results.unchanged = { base: b, plan: w, peakMb: peak, lessons };

// 2b. Nothing changed, the state as apply leaves it (each lesson's blob, digest, compiler and
// deps recorded by apply's own recordBuilds): the state answers for every lesson.
const store = await StateStore.load(big);
const recorded = await recordBuilds(store, big, desired, await compilerId());
await store.close();
const base2 = [];
const warm2 = [];
let peak2 = 0;
for (let r = 0; r < repeats; r++) {
  base2.push(check(await timeNode([join(ROOT, 'test/bench/read-hash.mjs'), big]), 'read-hash baseline').wall);
  const p = check(await plan(big, cores, ['--detailed-exitcode']), 'plan with nothing changed, digests in the state');
  warm2.push(p.wall);
  peak2 = Math.max(peak2, p.rssMb);
}
const [b2, w2] = [median(base2), median(warm2)];
console.log(
  `plan, no changes, ${recorded} digests in the state: ${ms(w2)} median of ${warm2.map((x) => x.toFixed(0)).join('/')} = ${ratio(w2, b2)} the baseline (${ms(b2)} median of ${base2.map((x) => x.toFixed(0)).join('/')}) (target ≤ 1.5×; < 1 s absolute); peak RSS ${peak2.toFixed(0)} MB (target ≤ 250 MB)`,
);
results.unchangedWithDigests = { base: b2, plan: w2, peakMb: peak2 };

// 3. One body edited.
const first = desired.programs[0].sections[0].lessons[0];
await appendFile(join(big, first.path), '\nOne more paragraph.\n');
const one = check(await plan(big, cores, ['--detailed-exitcode']), 'plan with one lesson edited (exit 2 = changes)', 2);
console.log(`plan, one body edited: ${ms(one.wall)} = ${ratio(one.wall, b)} the baseline; peak ${one.rssMb.toFixed(0)} MB`);
results.oneEdit = { plan: one.wall };
await cleanup();
