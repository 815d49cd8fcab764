// The scale goals (issue 28's table), each as the ratio to a baseline measured in the same run,
// with the build before a change run the same way, interleaved, when given one.
// Usage: npm run build && <generate-repo compiled, as npm run bench does> &&
//   node test/bench/figures.mjs [--lessons=10000|1k|10k|100k] [--repeats=3] [--apply-repeats=1]
//        [--startup-runs=10] [--before=<folder of an older build, holding dist/>] [--only=warm,fresh,ci,apply,startup]
//        [--json=<file>]   (the results, for run.mjs's summary)
//
// Every command is the built CLI in its own process (wall time from spawn to exit, peak RSS):
// - warm plan, nothing changed: `plan --detailed-exitcode` (exit 0) of `lessons` lessons, the
//   caches full and the state as apply leaves it (setups.mjs); baselines: read-hash.mjs sync
//   (THE reference: readdirSync + readFileSync + sha256 of every course file) and async (the
//   p-limit walk the benchmarks used before), alternately with the plans;
// - fresh checkout, one lesson edited: `plan --detailed-exitcode` (exit 2) with
//   .coursesync/cache removed before every run; the same baselines on that repo;
// - the same in CI as the shipped workflows run it: the cache an earlier run kept, restored after
//   a checkout that wrote every file anew (setups.mjs ciCheckout), before every run;
// - first apply, `lessons` creates, no latency, c=8: the user's commands, `coursesync plan`
//   (fills the render cache; not timed in the figure) then `coursesync apply --yes
//   --concurrency 8`, timed whole (start-up, load, plan, calls, compaction: what the user waits
//   for), against the emulator in its own process; baseline: a bare fetch client in its own
//   fresh process sending the same requests (the planned chains, in order) at c=8, before and
//   after each apply, on the emulator reset to the same seed;
// - peak memory of the warm plan (the largest of its runs);
// - `--version` and `--help`: median wall of `runs` runs each, interleaved with `node -e ""`.
import { cp, rm, writeFile, readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chainsOf, readPlanFile, seedPrograms, startEmulatorProcess, writeChains } from './emulator-process.mjs';
import { ROOT, cleanup, cliOf, heading, median, ms, tempDir, timeNode } from './lib.mjs';
import { ciCheckout, freshCheckout, restoreCiCache, warmRepo } from './setups.mjs';

const opts = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? 'true']));
const SIZES = { '1k': 1000, '10k': 10_000, '100k': 100_000 };
const lessons = SIZES[opts.lessons] ?? Number(opts.lessons ?? 10_000);
const repeats = Number(opts.repeats ?? 3);
const applyRepeats = Number(opts['apply-repeats'] ?? 1);
const startupRuns = Number(opts['startup-runs'] ?? 10);
const only = new Set((opts.only ?? 'warm,fresh,ci,apply,startup').split(','));
const TOKEN = 'bench';
const READ_HASH = fileURLToPath(new URL('read-hash.mjs', import.meta.url));
const APPLY_SCALE = fileURLToPath(new URL('apply-scale.mjs', import.meta.url));
const cores = availableParallelism();
const env = { ...process.env, COURSESYNC_RENDER_THREADS: String(cores), NO_COLOR: '1' };
delete env.COURSESYNC_TOKEN;

/** The builds compared: this one, and the one before when given (run alternately). */
const builds = [{ name: 'now', root: ROOT }];
if (opts.before) builds.unshift({ name: 'before', root: opts.before });
for (const b of builds) b.cli = cliOf(b.root);

const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
const check = (r, what, code = 0) => {
  if (r.code !== code) throw new Error(`${what}: exit code ${r.code}, expected ${code}\n${r.stderr}`);
  return r;
};
const list = (xs) => xs.map((x) => x.toFixed(0)).join('/');
const results = { lessons, cores, loadStart: load(), builds: builds.map((b) => b.name), figures: {} };

/** Alternately: the two baselines on `dir`, then each build's `run(build)`; medians. */
async function alternate(dir, run) {
  const sync = [];
  const asyncs = [];
  const runs = Object.fromEntries(builds.map((b) => [b.name, []]));
  for (let r = 0; r < repeats; r++) {
    sync.push(check(await timeNode([READ_HASH, dir, 'sync']), 'read-hash sync').wall);
    asyncs.push(check(await timeNode([READ_HASH, dir, 'async']), 'read-hash async').wall);
    for (const b of builds) runs[b.name].push(await run(b));
  }
  return { sync, async: asyncs, runs };
}

/** One plan figure (warm or fresh) for every build. */
async function planFigure(key, title, setUp, code, before) {
  heading(`${title}: ${lessons} lessons (load average ${load()})`);
  const dirs = {};
  for (const b of builds) dirs[b.name] = await setUp(await tempDir(`${key}-${b.name}`), b);
  // The baselines read the first build's copy (the same files, byte for byte).
  const { sync, async: asyncs, runs } = await alternate(dirs[builds[0].name], async (b) => {
    await before?.(dirs[b.name]);
    return check(await timeNode([b.cli, 'plan', dirs[b.name], '--detailed-exitcode'], { env }), `${b.name}: ${title}`, code);
  });
  const base = { sync: median(sync), async: median(asyncs) };
  console.log(`baseline, read + sha256 of every course file, sync (the reference): ${ms(base.sync)} median of ${list(sync)}; async (p-limit 32): ${ms(base.async)} median of ${list(asyncs)}`);
  const figure = { base, syncRuns: sync, asyncRuns: asyncs, builds: {}, loadEnd: load() };
  for (const b of builds) {
    const walls = runs[b.name].map((x) => x.wall);
    const wall = median(walls);
    const peakMb = Math.max(...runs[b.name].map((x) => x.rssMb));
    figure.builds[b.name] = { wall, walls, peakMb, ratio: wall / base.sync, ratioAsync: wall / base.async };
    console.log(`${b.name}: ${ms(wall)} median of ${list(walls)} = ${(wall / base.sync).toFixed(2)}× the sync baseline (${(wall / base.async).toFixed(2)}× the async one); peak RSS ${peakMb.toFixed(0)} MB`);
  }
  results.figures[key] = figure;
}

// Every build's commands through a code cache of this run's own, made by a plan that compiles
// (a fresh checkout's): a command's cache is written by its first run of a build, and one made
// by a plan the memo answers (the warm figure's) lacks the compiler, which then costs every
// later plan ~70 ms (README, "a code cache made by a small run").
if (['warm', 'fresh', 'ci'].some((k) => only.has(k))) {
  env.COURSESYNC_CODE_CACHE = await tempDir('code-cache');
  for (const b of builds) {
    const dir = await freshCheckout(await tempDir(`code-cache-${b.name}`), 200, { root: b.root });
    check(await timeNode([b.cli, 'plan', dir, '--detailed-exitcode'], { env }), `${b.name}: the plan that makes the code cache`, 2);
  }
}

if (only.has('warm')) await planFigure('warm', 'plan, warm, nothing changed', (dir, b) => warmRepo(dir, lessons, { root: b.root }), 0);
if (only.has('fresh'))
  await planFigure('fresh', 'plan, fresh checkout (no .coursesync/cache), one lesson edited', (dir, b) => freshCheckout(dir, lessons, { root: b.root }), 2, (dir) =>
    rm(join(dir, '.coursesync', 'cache'), { recursive: true, force: true }),
  );
if (only.has('ci')) await planFigure('ci', 'plan, fresh checkout with the CI cache restored (made before the checkout), one lesson edited', (dir, b) => ciCheckout(dir, lessons, { root: b.root }), 2, restoreCiCache);

if (only.has('apply')) {
  const sections = Math.max(1, Math.round(lessons / 100));
  heading(`first apply, ${lessons} creates over ${sections} sections, emulator with no latency, concurrency 8 (load average ${load()})`);
  const pristine = await tempDir('apply-repo');
  const work = await tempDir('apply-work'); // saved plans, the bare client's chains and answers
  const { generateRepo } = await import('./out/generate-repo.js');
  await generateRepo(pristine, { lessons, sections, programs: Math.min(10, sections), seed: 5 });
  const emu = await startEmulatorProcess({ port: 0, latencyMs: 0, seed: { api_keys: [{ token: TOKEN, programs: 'all' }], programs: seedPrograms(sections) } });
  const apiEnv = { ...env, COURSESYNC_TOKEN: TOKEN };
  const bare = async (chainsFile) => {
    await emu.reset(TOKEN);
    const out = `${chainsFile}.${Math.random().toString(36).slice(2)}.json`;
    check(await timeNode([APPLY_SCALE, '--bare', emu.url, '8', chainsFile, out]), 'bare client');
    return JSON.parse(await readFile(out, 'utf8')).calls;
  };
  const bareRuns = [];
  const runs = Object.fromEntries(builds.map((b) => [b.name, []]));
  let chainsFile;
  for (let r = 0; r < applyRepeats; r++) {
    for (const b of builds) {
      await emu.reset(TOKEN);
      const dir = await tempDir(`apply-${b.name}`);
      await rm(dir, { recursive: true, force: true });
      await cp(pristine, dir, { recursive: true });
      // What the user runs first: a plan (it fills the render cache), saved to get the calls.
      const planFile = join(work, `plan-${b.name}-${r}.json`);
      const plan = check(await timeNode([b.cli, 'plan', dir, '--base-url', emu.url, '--out', planFile], { env: apiEnv }), `${b.name}: plan before apply`);
      if (!chainsFile) {
        chainsFile = join(work, 'chains.ndjson');
        await writeChains(chainsFile, chainsOf(await readPlanFile(planFile)));
        bareRuns.push(await bare(chainsFile));
        await emu.reset(TOKEN);
      }
      const apply = check(await timeNode([b.cli, 'apply', '--dir', dir, '--yes', '--concurrency', '8', '--base-url', emu.url], { env: apiEnv }), `${b.name}: apply`);
      runs[b.name].push({ ...apply, planWall: plan.wall });
      console.log(`${b.name}: plan ${ms(plan.wall)}, then apply --yes ${ms(apply.wall)} (CPU ${ms(apply.cpuMs)}, peak ${apply.rssMb.toFixed(0)} MB)`);
      await rm(dir, { recursive: true, force: true });
    }
    bareRuns.push(await bare(chainsFile));
  }
  await emu.close();
  const base = median(bareRuns);
  console.log(`bare client (fetch, own fresh process, same requests at c=8): ${ms(base)} median of ${list(bareRuns)}`);
  const figure = { base, bareRuns, builds: {}, loadEnd: load() };
  for (const b of builds) {
    const walls = runs[b.name].map((x) => x.wall);
    const wall = median(walls);
    figure.builds[b.name] = { wall, walls, peakMb: Math.max(...runs[b.name].map((x) => x.rssMb)), ratio: wall / base, planWall: median(runs[b.name].map((x) => x.planWall)) };
    console.log(`${b.name}: the whole apply command ${ms(wall)} median of ${list(walls)} = ${(wall / base).toFixed(2)}× the bare client`);
  }
  results.figures.apply = figure;
}

if (only.has('startup')) {
  heading(`--version and --help: ${startupRuns} runs each, interleaved (load average ${load()})`);
  const cases = [{ key: 'node', argv: ['-e', ''] }];
  for (const b of builds) for (const a of ['--version', '--help']) cases.push({ key: `${b.name} ${a}`, build: b.name, arg: a, argv: [b.cli, a] });
  const times = new Map(cases.map((c) => [c.key, []]));
  for (let i = 0; i < startupRuns; i++)
    for (const c of cases) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(process.execPath, c.argv, { stdio: 'ignore' });
      if (r.status !== 0) throw new Error(`${c.key} exited ${r.status}`);
      times.get(c.key).push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  const node = median(times.get('node'));
  console.log(`node -e "": ${ms(node)} median of ${list(times.get('node'))}`);
  const figure = { node, builds: {}, loadEnd: load() };
  for (const b of builds) {
    const [v, h] = ['--version', '--help'].map((a) => median(times.get(`${b.name} ${a}`)));
    figure.builds[b.name] = { version: v, help: h, wall: Math.max(v, h) };
    console.log(`${b.name}: --version ${ms(v)} median of ${list(times.get(`${b.name} --version`))}, --help ${ms(h)} median of ${list(times.get(`${b.name} --help`))} (${(v / node).toFixed(2)}× / ${(h / node).toFixed(2)}× bare node)`);
  }
  results.figures.startup = figure;
}

results.loadEnd = load();
if (opts.json) await writeFile(opts.json, JSON.stringify(results, null, 2));
const { summaryTable } = await import('./summary.mjs');
console.log(`\n${summaryTable(results)}`);
await cleanup();
