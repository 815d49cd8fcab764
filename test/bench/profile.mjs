// CPU profiles (node --cpu-prof) of the built CLI for each figure of the scale goals, and where
// their time goes (profile-summary.mjs): module loading, state validation, stat, hashing,
// rendering, journal fsyncs, HTTP, other.
// Usage: npm run build && <compile generate-repo, see README> && node test/bench/profile.mjs [lessons=10000] [out=/tmp/coursesync-profile] [cases=warm,fresh,apply,startup]
//   warm:    `plan --detailed-exitcode`, 10k lessons, caches full, the state as apply leaves it (exit 0)
//   fresh:   the same on a fresh checkout (no .coursesync/cache), one lesson edited (exit 2)
//   apply:   `plan`, then `apply --yes --concurrency 8` of every lesson (creates) against the
//            emulator (own process, no latency): the apply is the profiled command
//   startup: `--version` and `--help`
// Profiles are kept in <out>/<case>/ for Chrome DevTools or speedscope.
import { mkdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { generateRepo } from './out/generate-repo.js';
import { seedPrograms, startEmulatorProcess } from './emulator-process.mjs';
import { report } from './profile-summary.mjs';
import { freshCheckout, warmRepo } from './setups.mjs';
import { CLI, cleanup, tempDir, timeNode } from './lib.mjs';

const [lessonsArg = '10000', out = '/tmp/coursesync-profile', casesArg = 'warm,fresh,apply,startup'] = process.argv.slice(2);
const lessons = Number(lessonsArg);
const cases = new Set(casesArg.split(','));
const cores = availableParallelism();
const env = { ...process.env, COURSESYNC_RENDER_THREADS: String(cores), NO_COLOR: '1' };

async function profiled(name, argv, { code = 0, extraEnv = {} } = {}) {
  const dir = join(out, name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const r = await timeNode(['--cpu-prof', `--cpu-prof-dir=${dir}`, CLI, ...argv], { env: { ...env, ...extraEnv } });
  if (r.code !== code) throw new Error(`${name}: exit code ${r.code}, expected ${code}\n${r.stderr}`);
  const files = readdirSync(dir).map((f) => join(dir, f));
  console.log(`\n## ${name}: coursesync ${argv.join(' ')}\nwall ${r.wall.toFixed(0)} ms (profiling on), CPU ${r.cpuMs.toFixed(0)} ms, peak ${r.rssMb.toFixed(0)} MB`);
  console.log(report(files).text);
}

if (cases.has('warm')) {
  const dir = await warmRepo(await tempDir('profile-warm'), lessons);
  await profiled('warm', ['plan', dir, '--detailed-exitcode']);
}
if (cases.has('fresh')) {
  const dir = await freshCheckout(await tempDir('profile-fresh'), lessons);
  await rm(join(dir, '.coursesync', 'cache'), { recursive: true, force: true });
  await profiled('fresh', ['plan', dir, '--detailed-exitcode'], { code: 2 });
}
if (cases.has('apply')) {
  const sections = Math.max(1, Math.round(lessons / 100));
  const dir = await tempDir('profile-apply');
  await generateRepo(dir, { lessons, sections, programs: Math.min(10, sections), seed: 5 });
  const emu = await startEmulatorProcess({ port: 0, latencyMs: 0, seed: { api_keys: [{ token: 'bench', programs: 'all' }], programs: seedPrograms(sections) } });
  const extraEnv = { COURSESYNC_TOKEN: 'bench' };
  const planRun = await timeNode([CLI, 'plan', dir, '--base-url', emu.url], { env: { ...env, ...extraEnv } });
  if (planRun.code !== 0) throw new Error(`plan before apply: ${planRun.stderr}`);
  await profiled('apply', ['apply', '--dir', dir, '--yes', '--concurrency', '8', '--base-url', emu.url], { extraEnv });
  await emu.close();
}
if (cases.has('startup')) {
  await profiled('version', ['--version']);
  await profiled('help', ['--help']);
}
await cleanup();
