// Helpers shared by the benchmarks: child processes timed with their peak memory, medians,
// ratios against a baseline measured in the same run, and the generated repos.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The command of the build at `root` as its package installs it: the bundle, or for a build before it, the tsc entry. */
export const cliOf = (root) => (existsSync(join(root, 'dist/bin/coursesync.js')) ? join(root, 'dist/bin/coursesync.js') : join(root, 'dist/cli/index.js'));
export const CLI = cliOf(ROOT);

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const ms = (x) => `${x.toFixed(0)} ms`;
export const ratio = (x, base) => `${(x / base).toFixed(2)}×`;

/** A fresh temporary folder; removed by `cleanup()`. */
const temps = [];
export async function tempDir(name) {
  const dir = await mkdtemp(join(tmpdir(), `coursesync-bench-${name}-`));
  temps.push(dir);
  return dir;
}
export async function cleanup() {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/**
 * Run `node <args>` as a child under /usr/bin/time: wall time (measured here, spawn to exit),
 * CPU time (user + system, every thread), peak resident memory of the child (KB → MB) and its
 * exit code. stdout is discarded.
 */
export async function timeNode(args, { env = process.env, cwd = ROOT } = {}) {
  const out = join(tmpdir(), `coursesync-bench-time-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const t0 = performance.now();
  const child = spawn('/usr/bin/time', ['-f', '%U %S %M', '-o', out, process.execPath, ...args], { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  const wall = performance.now() - t0;
  const text = await readFile(out, 'utf8').catch(() => '');
  await rm(out, { force: true });
  const [user, sys, kb] = (text.trim().split('\n').pop() ?? '').split(' ').map(Number);
  return { wall, rssMb: kb / 1024, cpuMs: (user + sys) * 1000, code, stderr };
}

/** Print a section heading. */
export function heading(text) {
  console.log(`\n## ${text}`);
}

/**
 * How much parallel CPU this process really gets: `threads` worker threads each doing the same
 * fixed computation, against one thread doing it alone. 2.0 on two free cores; 1.0 when the
 * machine (a CPU quota, other processes) lets this process use only one.
 */
export async function parallelSpeedup(threads) {
  const { Worker } = await import('node:worker_threads');
  const code = "let x = 0; for (let i = 0; i < 1e8; i++) x += i; require('node:worker_threads').parentPort.postMessage(x);";
  const run = async (n) => {
    const t0 = performance.now();
    await Promise.all(Array.from({ length: n }, () => new Promise((resolve) => new Worker(code, { eval: true }).once('message', resolve))));
    return performance.now() - t0;
  };
  const one = await run(1);
  const many = await run(threads);
  return (threads * one) / many;
}

/**
 * A module of a build's dist/ (this build's by default; `root` is the folder holding dist/).
 * `path` may list the places the module had in different builds (e.g. source/ then load/): the
 * first that exists is imported, so one benchmark runs an older build as well as this one.
 */
export function distModule(path, root = ROOT) {
  const paths = [path].flat();
  const found = paths.map((p) => join(root, 'dist', p)).find((p) => existsSync(p));
  if (!found) throw new Error(`none of ${paths.join(', ')} in ${join(root, 'dist')}: build first (npm run build)`);
  return import(pathToFileURL(found).href);
}

/**
 * A state as an apply of `desired` would leave it: every lesson tracked at its place with the
 * fields it compiled to (as fingerprints), ids les_1… in course order. (Needs a build: dist/.)
 */
export async function stateAsApplied(desired, baseUrl, root = ROOT) {
  const { randomUUID } = await import('node:crypto');
  const { STATE_VERSION } = await distModule('model/state/schema.js', root);
  const { appliedOf } = await distModule('model/state/fingerprint.js', root);
  const state = { version: STATE_VERSION, lineage: randomUUID(), serial: 1, base_url: baseUrl, lessons: {}, sections: {}, pending: {} };
  let n = 0;
  for (const p of desired.programs)
    for (const s of p.sections)
      s.lessons.forEach((l, i) => {
        state.lessons[l.key] = { id: `les_${++n}`, program_id: p.id, section_id: s.ref.id, position: i + 1, path: l.path, applied: appliedOf(l.fields), response: '' };
      });
  return state;
}
