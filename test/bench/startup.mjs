// Startup of the built CLI: wall time of `--version`, `--help`, `completion bash` and
// `validate --help`, each its own process, against a bare `node -e ""` started the same way
// (what Node itself costs); with STARTUP_BASELINE_CLI=<an older build's command>, that
// build's runs too. Runs are interleaved (one of each, then again) so that load on a shared
// machine falls on all alike; the median and the fastest are printed.
// Usage: node test/bench/startup.mjs [runs=10]   (after npm run build)
import { spawnSync } from 'node:child_process';
import { CLI } from './lib.mjs';

const runs = Number(process.argv[2] ?? 10);
const cli = CLI;
const baseline = process.env.STARTUP_BASELINE_CLI;
const commands = [['--version'], ['--help'], ['completion', 'bash'], ['validate', '--help']];

const cases = [{ name: 'node -e ""', argv: ['-e', ''] }];
for (const args of commands) {
  if (baseline) cases.push({ name: `baseline ${args.join(' ')}`, argv: [baseline, ...args] });
  cases.push({ name: `coursesync ${args.join(' ')}`, argv: [cli, ...args] });
}

const times = new Map(cases.map((c) => [c.name, []]));
for (let i = 0; i < runs; i++) {
  for (const c of cases) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, c.argv, { stdio: ['ignore', 'ignore', 'ignore'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}`);
    times.get(c.name).push(ms);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bare = median(times.get('node -e ""'));
console.log(`\n## startup (${runs} runs each, interleaved)\n`);
console.log('| run | median ms | fastest ms | median / bare node |');
console.log('|---|---|---|---|');
for (const c of cases) {
  const xs = times.get(c.name);
  console.log(`| ${c.name} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${(median(xs) / bare).toFixed(2)} |`);
}
