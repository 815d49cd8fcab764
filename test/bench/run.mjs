// `npm run bench`: every benchmark, one after the other, each in its own process, with the
// machine it ran on. Figures are printed as ratios against baselines measured in the same run.
// Usage: npm run bench   (builds first), or after a build: node test/bench/run.mjs
import { spawn } from 'node:child_process';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

const steps = [
  ['plan.mjs', '10000', '1000', '2', '3'],
  ['fresh-plan.mjs', '10000', '3'],
  ['apply.mjs', '1000', '20', '50', '8', '2'],
  ['apply-scale.mjs', '1000,10000', '100', '8'],
  ['client.mjs', '100', '8', '5'],
  ['growth.mjs', '1000,10000', '3'],
  ['calls.mjs'],
  ['references.mjs', '1000', '7'],
  ['emulator.mjs', '100000', '3000', '16', '2'],
  ['preview.mjs', '500', '30'],
  ['hostile.mjs', '1', '1'],
  ['validate.mjs', '2000', '3'],
  ['startup.mjs', '10'],
];
const t0 = performance.now();
console.log(`# coursesync benchmarks, ${new Date().toISOString()}`);
console.log(
  `machine: ${availableParallelism()} cores (${cpus()[0]?.model.trim()}), ${(totalmem() / 2 ** 30).toFixed(1)} GB memory, ` +
    `load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at start; Node ${process.version}`,
);
for (const [script, ...args] of steps) {
  const code = await new Promise((resolve) => {
    spawn(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), ...args], { stdio: 'inherit' }).on('close', resolve);
  });
  if (code !== 0) {
    console.error(`${script} failed (exit code ${code})`);
    process.exitCode = 1;
  }
}
console.log(`\nall benchmarks: ${((performance.now() - t0) / 1000).toFixed(0)} s; load average at the end ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
