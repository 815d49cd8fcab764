// `npm run bench`: every benchmark, one after the other, each in its own process, with the
// machine it ran on. Figures are printed as ratios against baselines measured in the same run,
// and the scale goals (figures.mjs) are summarised at the very end: goal, measured, met.
// Usage: npm run bench [-- options]   (builds first), or after a build: node test/bench/run.mjs [options]
//   --lessons=1k|10k|100k   size of the scale figures (default 10k; 100k takes about an hour)
//   --before=<folder>       an older build (a folder holding dist/, e.g. /tmp/base-10c4482) run
//                           interleaved with this one: in the scale figures, the cold plans and startup
//   --only=figures          the scale figures only (figures.mjs), not the other benchmarks
//   --repeats=N             runs of each plan figure (default 3)
import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliOf } from './lib.mjs';
import { summaryTable } from './summary.mjs';

const opts = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? 'true']));
const figuresJson = fileURLToPath(new URL('out/figures.json', import.meta.url));
const figureArgs = [`--lessons=${opts.lessons ?? '10k'}`, `--repeats=${opts.repeats ?? 3}`, `--json=${figuresJson}`, ...(opts.before ? [`--before=${opts.before}`] : [])];
const beforeCli = opts.before && cliOf(opts.before);
const steps = [
  ['figures.mjs', ...figureArgs],
  // The cold plans only (1,000 lessons, 1 thread vs every core): the 10k warm plan is a figure above.
  ['plan.mjs', '0', '1000', '2'],
  ['apply.mjs', '1000', '20', '50', '8', '1'],
  ['apply-scale.mjs', '1000,10000', '100', '8'],
  ['client.mjs', '100', '8', '5'],
  ['growth.mjs', '1000,10000', '1'],
  ['calls.mjs'],
  ['references.mjs', '1000', '7'],
  ['emulator.mjs', '100000', '3000', '16', '2'],
  ['preview.mjs', '500', '30'],
  ['hostile.mjs', '1', '1'],
  ['validate.mjs', '2000', '3'],
  ['startup.mjs', '10'],
].filter(([script]) => opts.only !== 'figures' || script === 'figures.mjs');
const env = { ...process.env, ...(beforeCli ? { PLAN_BASELINE_CLI: beforeCli, STARTUP_BASELINE_CLI: beforeCli } : {}) };
const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
await rm(figuresJson, { force: true }); // a failed run must not print an older run's summary
const t0 = performance.now();
console.log(`# coursesync benchmarks, ${new Date().toISOString()}`);
console.log(
  `machine: ${availableParallelism()} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(1)} GB memory, ` +
    `load average ${load()} at start; Node ${process.version}`,
);
for (const [script, ...args] of steps) {
  const started = performance.now();
  const code = await new Promise((resolve) => {
    spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), ...args], { stdio: 'inherit', env }).on('close', resolve);
  });
  console.log(`(${script}: ${((performance.now() - started) / 1000).toFixed(0)} s, load average ${load()})`);
  if (code !== 0) {
    console.error(`${script} failed (exit code ${code})`);
    process.exitCode = 1;
  }
}
console.log(`\nall benchmarks: ${((performance.now() - t0) / 1000).toFixed(0)} s; load average at the end ${load()}`);
const figures = await readFile(figuresJson, 'utf8').catch(() => undefined);
if (figures) console.log(`\n${summaryTable(JSON.parse(figures))}`);
