// Apply throughput against the emulator with injected latency: N creates over S sections, at
// concurrency c and at 1, in one run, against the ideal schedule for each limit.
// Usage: npm run build && node test/bench/apply.mjs [lessons=1000] [sections=20] [latencyMs=50] [concurrency=8] [repeats=3] [serial=1]
// Each run: a fresh copy of the generated repo (render cache warm, no state), a reset emulator,
// then applyCourse (what `coursesync apply --yes` runs, in-process). "calls" is the span from
// the first request to the last answer; "total" adds loading the repo, planning and state.
// Ideal = max(ceil(N / c), longest section chain) × latency. Concurrency 1 runs once (it takes
// N × latency by construction); c runs `repeats` times.
import { cp } from 'node:fs/promises';
import { generateRepo } from './out/generate-repo.js';
import { cleanup, heading, median, ms, ratio, tempDir } from './lib.mjs';

import { bareClient, chainsOf, seedPrograms, startEmulatorProcess } from './emulator-process.mjs';

const [lessons = 1000, sectionCount = 20, latencyMs = 50, limit = 8, repeats = 3, serial = 1] = process.argv.slice(2).map(Number);
const { applyCourse } = await import('../../dist/apply/index.js');
const { loadCourse } = await import('../../dist/load/load-course.js');
const TOKEN = 'bench';
export const results = {};

heading(`apply: ${lessons} creates over ${sectionCount} sections, emulator latency ${latencyMs} ms, concurrency ${limit} vs 1`);
const repo = await tempDir('apply-repo');
await generateRepo(repo, { lessons, sections: sectionCount, programs: Math.min(10, sectionCount), seed: 3 });
await loadCourse(repo, { cache: true }); // warm the render cache: this measures the calls
const programs = seedPrograms(sectionCount);
const emu = await startEmulatorProcess({ port: 0, latencyMs, seed: { api_keys: [{ token: TOKEN, programs: 'all' }], programs } });
const env = { ...process.env, COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url };

let lastPlan;

/**
 * The baseline: the same requests (the last plan's chains, in order, at the same limit) sent
 * with bare fetch and nothing else: no state, no client library. What the emulator, HTTP and
 * this machine allow; apply's own overhead is the difference.
 */
async function bare(plan, concurrency) {
  await emu.reset(TOKEN);
  return bareClient(emu.url, TOKEN, chainsOf(plan), concurrency);
}

async function run(concurrency) {
  await emu.reset(TOKEN);
  const dir = await tempDir('apply-run');
  await cp(repo, dir, { recursive: true });
  let first = 0;
  let last = 0;
  const t0 = performance.now();
  const result = await applyCourse(dir, {
    env,
    concurrency,
    onEvent: (e) => {
      if (e.type === 'call-start' && first === 0) first = performance.now();
      if (e.type === 'call-end') last = performance.now();
    },
  });
  const total = performance.now() - t0;
  const outcomes = result.result?.outcomes ?? [];
  if (outcomes.length !== lessons || !outcomes.every((o) => o.status === 'done')) throw new Error(`apply at concurrency ${concurrency}: ${outcomes.filter((o) => o.status === 'done').length} of ${lessons} calls done`);
  const longest = Math.max(...result.plan.chains.map((c) => c.steps.length));
  lastPlan = result.plan;
  return { calls: last - first, total, ideal: Math.max(Math.ceil(outcomes.length / concurrency), longest) * latencyMs, longest, maxInFlight: (await emu.stats()).maxInFlight };
}

const fast = [];
const bases = [];
for (let r = 0; r < repeats; r++) {
  fast.push(await run(limit));
  bases.push(await bare(lastPlan, limit));
}
const slow = serial ? await run(1) : undefined;
await emu.close();
const c = median(fast.map((x) => x.calls));
const ideal = fast[0].ideal;
const b = median(bases);
console.log(`baseline, the same ${lessons} requests by bare fetch at concurrency ${limit}, no state: ${ms(b)} median of ${bases.map((x) => x.toFixed(0)).join('/')} → ${ratio(b, fast[0].ideal)} the ideal`);
console.log(
  `concurrency ${limit}: calls ${ms(c)} median of ${fast.map((x) => x.calls.toFixed(0)).join('/')}; ideal ${ms(ideal)} (max(ceil(${lessons}/${limit}), longest chain ${fast[0].longest}) × ${latencyMs} ms) → ${ratio(c, ideal)} the ideal (target ≤ 1.1×), ${ratio(c, b)} the bare-fetch baseline; ` +
    `total with load + plan ${fast.map((x) => x.total.toFixed(0)).join('/')} ms; max in flight ${Math.max(...fast.map((x) => x.maxInFlight))}`,
);
if (slow) console.log(`concurrency 1: calls ${ms(slow.calls)}; ideal ${ms(slow.ideal)} → ${ratio(slow.calls, slow.ideal)} the ideal; total ${ms(slow.total)}; max in flight ${slow.maxInFlight}`);
if (slow) console.log(`speed-up of concurrency ${limit} over 1: ${ratio(slow.calls, c)} (ideal ${ratio(slow.ideal, ideal)})`);
results.apply = { calls: c, ideal, bare: b, slow: slow?.calls, slowIdeal: slow?.ideal };
await cleanup();
