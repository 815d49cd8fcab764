// Where a fresh checkout's plan spends its time: the step marks of COURSESYNC_DEBUG=timing
// (src/load/timing.ts), median over runs, each step's end and what it added, with the
// sync read + hash baseline (the reference of the fresh figure) run alternately.
// Usage: npm run build && node test/bench/fresh-timing.mjs [lessons=10000] [runs=10] [dir]
//   dir: a repo freshCheckout made with this build (kept from an earlier run), else one is made
//   (about a minute at 10k). Not in run.mjs: figures.mjs times the same plan whole.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, ROOT, cleanup, heading, median, tempDir, timeNode } from './lib.mjs';
import { freshCheckout } from './setups.mjs';

const [lessons = '10000', runs = '10', given] = process.argv.slice(2);
const dir = given && existsSync(given) ? given : await freshCheckout(await tempDir('fresh-timing'), Number(lessons));
heading(`plan on a fresh checkout, one lesson edited, ${lessons} lessons: when each step ends (COURSESYNC_DEBUG=timing), median of ${runs} runs`);

// Marks the end of the process (the main thread's), so the table ends where the run does.
const EXIT_MARK = `data:text/javascript,${encodeURIComponent("import { isMainThread } from 'node:worker_threads'; if (isMainThread) process.on('exit', () => process.stderr.write(`debug: ${performance.now().toFixed(0)} ms process exit\\n`));")}`;
const steps = new Map();
const base = [];
const walls = [];
for (let r = 0; r < Number(runs); r++) {
  base.push((await timeNode([join(ROOT, 'test/bench/read-hash.mjs'), dir, 'sync'])).wall);
  await rm(join(dir, '.coursesync/cache'), { recursive: true, force: true });
  const run = await timeNode(['--import', EXIT_MARK, CLI, 'plan', dir, '--detailed-exitcode'], { env: { ...process.env, COURSESYNC_DEBUG: 'timing' } });
  if (run.code !== 2) throw new Error(`plan: exit code ${run.code}, expected 2 (one update)\n${run.stderr}`);
  walls.push(run.wall);
  for (const m of run.stderr.matchAll(/^debug: (\d+) ms (.+)$/gm)) {
    if (!steps.has(m[2])) steps.set(m[2], []);
    steps.get(m[2]).push(Number(m[1]));
  }
}
const baseline = median(base);
console.log(`baseline (sync read + sha256 of every course file, own process): ${baseline.toFixed(0)} ms median; 3× is ${(3 * baseline).toFixed(0)} ms`);
console.log('\n| step ends | at (ms) | + (ms) |\n|---|---:|---:|');
let before = 0;
for (const [step, times] of steps) {
  const at = median(times);
  console.log(`| ${step} | ${at.toFixed(0)} | ${(at - before).toFixed(0)} |`);
  before = at;
}
const wall = median(walls);
console.log(`| wall, spawn to exit (\`/usr/bin/time\`) | ${wall.toFixed(0)} | ${(wall - before).toFixed(0)} |`);
console.log(`\nfresh plan ${wall.toFixed(0)} ms = ${(wall / baseline).toFixed(2)}× the baseline`);
if (!given) await cleanup();
