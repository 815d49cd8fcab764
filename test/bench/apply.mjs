// Apply throughput against the emulator with injected latency: N creates over S sections, at
// concurrency c and at 1, in one run, against the ideal schedule for each limit.
// Usage: npm run build && node test/bench/apply.mjs [lessons=1000] [sections=20] [latencyMs=50] [concurrency=8] [repeats=3] [serial=1]
// Each run: a fresh copy of the generated repo (render cache warm, no state), a reset emulator,
// then applyCourse (what `coursesync apply --yes` runs, in-process). "calls" is the span from
// the first request to the last answer; "total" adds loading the repo, planning and state.
// Ideal = max(ceil(N / c), longest section chain) × latency. Concurrency 1 runs once (it takes
// N × latency by construction); c runs `repeats` times.
import { fork } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { generateRepo } from './out/generate-repo.js';
import { cleanup, heading, median, ms, ratio, tempDir } from './lib.mjs';

const [lessons = 1000, sectionCount = 20, latencyMs = 50, limit = 8, repeats = 3, serial = 1] = process.argv.slice(2).map(Number);
const { startEmulator } = await import('../../dist/emulator/index.js');

// The emulator runs in its own process (as a real school would be elsewhere): its request
// handling does not take this process's CPU away from apply.
if (process.argv[2] === '--emulator') {
  const emu = await startEmulator(JSON.parse(process.argv[3]));
  process.send({ url: emu.url });
  process.on('message', async (m) => {
    if (m === 'stats') process.send({ stats: emu.stats() });
    else process.exit(0);
  });
  await new Promise(() => {});
}
async function startEmulatorProcess(options) {
  const child = fork(fileURLToPath(import.meta.url), ['--emulator', JSON.stringify(options)]);
  const { url } = await new Promise((resolve) => child.once('message', resolve));
  return {
    url,
    stats: () => new Promise((resolve) => (child.send('stats'), child.once('message', (m) => resolve(m.stats)))),
    close: () => new Promise((resolve) => (child.once('exit', resolve), child.send('stop'))),
  };
}
const { applyCourse } = await import('../../dist/apply/index.js');
const { loadCourse } = await import('../../dist/source/load-course.js');
const TOKEN = 'bench';
export const results = {};

heading(`apply: ${lessons} creates over ${sectionCount} sections, emulator latency ${latencyMs} ms, concurrency ${limit} vs 1`);
const repo = await tempDir('apply-repo');
await generateRepo(repo, { lessons, sections: sectionCount, programs: Math.min(10, sectionCount), seed: 3 });
await loadCourse(repo, { cache: true }); // warm the render cache: this measures the calls
const perProgram = Math.ceil(sectionCount / Math.min(10, sectionCount));
const programs = [];
for (let s = 0; s < sectionCount; s++) {
  const p = Math.floor(s / perProgram);
  programs[p] ??= { id: `prog_${p + 1}`, name: `Program ${p + 1}`, sections: [] };
  programs[p].sections.push({ id: `sec_${s + 1}`, name: `Section ${s + 1}`, position: programs[p].sections.length + 1 });
}
const emu = await startEmulatorProcess({ port: 0, latencyMs, seed: { api_keys: [{ token: TOKEN, programs: 'all' }], programs } });
const env = { ...process.env, COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url };

let lastPlan;

/**
 * The baseline: the same requests (the last plan's chains, in order, at the same limit) sent
 * with bare fetch and nothing else: no state, no client library. What the emulator, HTTP and
 * this machine allow; apply's own overhead is the difference.
 */
async function bare(plan, concurrency) {
  await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/reset'), { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
  const { default: pLimit } = await import('p-limit');
  const limit = pLimit(concurrency);
  const byId = new Map(plan.changes.filter((c) => c.call_id).map((c) => [c.call_id, c]));
  const t0 = performance.now();
  await Promise.all(
    plan.chains.map(async (chain) => {
      for (const id of chain.steps) {
        const r = await limit(() =>
          fetch(`${emu.url}/lessons`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(byId.get(id).request) }),
        );
        if (r.status !== 201 && r.status !== 200) throw new Error(`bare POST: ${r.status} ${await r.text()}`);
        await r.arrayBuffer();
      }
    }),
  );
  return performance.now() - t0;
}

async function run(concurrency) {
  await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/reset'), { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
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
  `concurrency ${limit}: calls ${ms(c)} median of ${fast.map((x) => x.calls.toFixed(0)).join('/')}; ideal ${ms(ideal)} (max(ceil(${lessons}/${limit}), longest chain ${fast[0].longest}) × ${latencyMs} ms) → ${ratio(c, ideal)} the ideal (target ≤ 1.25×), ${ratio(c, b)} the bare-fetch baseline; ` +
    `total with load + plan ${fast.map((x) => x.total.toFixed(0)).join('/')} ms; max in flight ${Math.max(...fast.map((x) => x.maxInFlight))}`,
);
if (slow) console.log(`concurrency 1: calls ${ms(slow.calls)}; ideal ${ms(slow.ideal)} → ${ratio(slow.calls, slow.ideal)} the ideal; total ${ms(slow.total)}; max in flight ${slow.maxInFlight}`);
if (slow) console.log(`speed-up of concurrency ${limit} over 1: ${ratio(slow.calls, c)} (ideal ${ratio(slow.ideal, ideal)})`);
results.apply = { calls: c, ideal, bare: b, slow: slow?.calls, slowIdeal: slow?.ideal };
await cleanup();
