// Two builds' fresh-checkout plans side by side: each run removes the repo's .coursesync/cache,
// plans with COURSESYNC_DEBUG=timing, and the builds take turns (A B A B …), so a drift of the
// machine's speed falls on both; prints each step's median end (ms) and the wall, per build.
// Each repo must be one its own build recorded (setups.mjs freshCheckout(dir, n, { root })), and
// each build's code cache made by a full plan first (test/bench/README.md: a cache made by a
// small run slows every later run). Not in run.mjs: a tool for comparing a change step by step.
// Usage: node test/bench/fresh-steps-ab.mjs <runs> <build A root> <repo A> <build B root> <repo B>
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './lib.mjs';

const [runs = '10', ...pairs] = process.argv.slice(2);
if (pairs.length !== 4) throw new Error('usage: fresh-steps-ab.mjs <runs> <build A root> <repo A> <build B root> <repo B>');
const builds = [
  { name: 'A', root: pairs[0], repo: pairs[1], steps: new Map() },
  { name: 'B', root: pairs[2], repo: pairs[3], steps: new Map() },
];
const add = (steps, step, ms) => (steps.get(step) ?? steps.set(step, []).get(step)).push(ms);
for (let r = 0; r < Number(runs); r++) {
  for (const b of builds) {
    rmSync(join(b.repo, '.coursesync', 'cache'), { recursive: true, force: true });
    const start = performance.now();
    const run = spawnSync(process.execPath, [join(b.root, 'dist/bin/coursesync.js'), 'plan', b.repo, '--detailed-exitcode'], { env: { ...process.env, COURSESYNC_DEBUG: 'timing' }, encoding: 'utf8' });
    if (run.status !== 2) throw new Error(`${b.name}: plan exited ${run.status}, expected 2 (one update)\n${run.stderr}`);
    add(b.steps, 'wall, spawn to exit', performance.now() - start);
    for (const m of run.stderr.matchAll(/^debug: (\d+) ms (.+)$/gm)) add(b.steps, m[2], Number(m[1]));
  }
}
console.log(`| step ends (median of ${runs}) | A: ${builds[0].root} | B: ${builds[1].root} |\n|---|---:|---:|`);
for (const step of new Set([...builds[0].steps.keys(), ...builds[1].steps.keys()])) {
  const at = (b) => (b.steps.has(step) ? median(b.steps.get(step)).toFixed(0) : '');
  console.log(`| ${step} | ${at(builds[0])} | ${at(builds[1])} |`);
}
