// Wall time of applying examples/ (22 creates in 5 sections) to the emulator with injected
// latency, at concurrency 1 versus 8, in one run, against the ideal schedule for each limit.
// Usage: npm run build && node test/bench/apply-examples.mjs [latencyMs=50] [concurrencies=1,8] [repeats=3]
// Each run: a fresh copy of examples/ (no state), a reset emulator, then applyCourse (the code
// `coursesync apply --yes` runs, in-process: no CLI start-up). "calls" is the span from the first
// request to the last answer; "total" adds loading the repo, planning and state set-up.
// Ideal schedule: calls of one section run in order, sections in parallel, at most N at once,
// each taking latencyMs: max(longest chain, ceil(calls / N)) × latency for these chains.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { startEmulator } = await import('../../dist/emulator/index.js');
const { applyCourse } = await import('../../dist/apply/index.js');

const [latencyArg = '50', concArg = '1,8', repeatArg = '3'] = process.argv.slice(2);
const latencyMs = Number(latencyArg);
const limits = concArg.split(',').map(Number);
const repeats = Number(repeatArg);
const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));
const TOKEN = 'demo-token';

const emu = await startEmulator({ port: 0, latencyMs });
const env = { ...process.env, COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url };

/** Simulate the ideal list schedule of the plan's chains at limit n (unit = one call). */
function idealUnits(chains, n) {
  const left = chains.map((c) => c.steps.length);
  let t = 0;
  while (left.some((x) => x > 0)) {
    // Longest remaining chains first: the best greedy choice for chains of unit calls.
    const order = left.map((x, i) => [x, i]).filter(([x]) => x > 0).sort((a, b) => b[0] - a[0]).slice(0, n);
    for (const [, i] of order) left[i]--;
    t++;
  }
  return t;
}

console.log(`apply examples/ → emulator (latency ${latencyMs} ms), ${repeats} run(s) per limit`);
const rows = [];
for (const n of limits) {
  for (let r = 0; r < repeats; r++) {
    await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/reset'), { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    const dir = await mkdtemp(join(tmpdir(), 'coursesync-bench-'));
    await cp(EXAMPLES, dir, { recursive: true, filter: (src) => basename(src) !== '.coursesync' });
    let first = 0;
    let last = 0;
    const t0 = performance.now();
    const result = await applyCourse(dir, {
      env,
      concurrency: n,
      onEvent: (e) => {
        if (e.type === 'call-start' && first === 0) first = performance.now();
        if (e.type === 'call-end') last = performance.now();
      },
    });
    const total = performance.now() - t0;
    await rm(dir, { recursive: true, force: true });
    const ok = result.result?.outcomes.every((o) => o.status === 'done');
    if (!ok) throw new Error(`apply failed at concurrency ${n}`);
    const ideal = idealUnits(result.plan.chains, n) * latencyMs;
    rows.push({ n, calls: last - first, total, ideal, count: result.result.outcomes.length, maxInFlight: emu.stats().maxInFlight });
  }
}
for (const n of limits) {
  const mine = rows.filter((x) => x.n === n);
  const best = Math.min(...mine.map((x) => x.calls));
  const median = mine.map((x) => x.calls).sort((a, b) => a - b)[Math.floor(mine.length / 2)];
  const totals = mine.map((x) => x.total.toFixed(0)).join('/');
  console.log(
    `concurrency ${String(n).padStart(2)}: ${mine[0].count} calls in ${median.toFixed(0)} ms median (best ${best.toFixed(0)}; ideal ${mine[0].ideal} ms; ` +
      `ratio ${(median / mine[0].ideal).toFixed(2)}), total with planning ${totals} ms, max in flight ${Math.max(...mine.map((x) => x.maxInFlight))}`,
  );
}
await emu.close();
