// How plan and apply grow with the school: the same steps at each size, with time and peak memory
// per step, so a curve that is not linear shows as a per-lesson figure that grows.
// Usage: npm run build && npx tsc … test/bench/generate-repo.ts (as `npm run bench` does), then
//   node test/bench/growth.mjs [sizes=1000,10000,100000] [repeats=3]   (GROWTH_PROFILE=<folder>: CPU profiles)
// Per size N (100 lessons per section, images and links between lessons, ~1.5 KB each), each
// step the built CLI in its own process, against the emulator (own process, no latency):
// 1. first compile: `coursesync assets` renders every lesson (on every core) and writes the cache;
//    first apply: every lesson created, concurrency 8;
// 2. plan with nothing changed, caches warm; against the baseline: reading and hashing the
//    course files (read-hash.mjs), in the same run;
// 3. plan on a fresh checkout (.coursesync/cache removed) with one lesson edited;
// 4. apply of 100 edited lessons spread over the school.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedPrograms, startEmulatorProcess } from './emulator-process.mjs';
import { CLI, cleanup, heading, median, ms, ratio, tempDir, timeNode } from './lib.mjs';

const TOKEN = 'bench';
const READ_HASH = fileURLToPath(new URL('read-hash.mjs', import.meta.url));
const [sizesArg = '1000,10000,100000', repeatsArg = '3'] = process.argv.slice(2);
const sizes = sizesArg.split(',').map(Number);
const repeats = Number(repeatsArg);
const { generateRepo } = await import('./out/generate-repo.js');

/** `coursesync …args` timed in its own process; throws unless it exits with `code`. */
async function cli(args, env, code = 0) {
  // GROWTH_PROFILE=<folder>: a CPU profile of every command there (node --cpu-prof).
  const profile = process.env.GROWTH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.GROWTH_PROFILE}`] : [];
  const run = await timeNode([...profile, CLI, ...args], { env });
  if (run.code !== code) throw new Error(`coursesync ${args.join(' ')}: exit code ${run.code}, expected ${code}\n${run.stderr}`);
  return run;
}

/** The median wall time and the largest peak memory of `repeats` runs of `once`. */
async function repeated(once) {
  const runs = [];
  for (let i = 0; i < repeats; i++) runs.push(await once());
  return { wall: median(runs.map((r) => r.wall)), rssMb: Math.max(...runs.map((r) => r.rssMb)), walls: runs.map((r) => r.wall.toFixed(0)).join('/') };
}

heading(`growth: plan and apply at ${sizes.join(', ')} lessons (100 per section, images and links), emulator with no latency`);
// The assets host: files of the current size's published folder, by name.
const assets = { folder: '', url: '' };
const host = createServer(async (req, res) => {
  const file = join(assets.folder, basename(new URL(req.url ?? '/', 'http://x').pathname));
  const bytes = await readFile(file).catch(() => undefined);
  res.writeHead(bytes ? 200 : 404, { 'content-length': bytes?.length ?? 0 });
  res.end(req.method === 'HEAD' ? undefined : bytes);
});
await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
assets.url = `http://127.0.0.1:${host.address().port}`;

const rows = [];
for (const n of sizes) {
  const sections = Math.max(1, Math.round(n / 100));
  const dir = await tempDir(`growth-${n}`);
  await generateRepo(dir, { lessons: n, sections, programs: Math.min(10, sections), seed: 7, references: true });
  // Images are published as a team would: `coursesync assets`, served here (apply checks each URL).
  const config = join(dir, 'coursesync.yaml');
  await writeFile(config, (await readFile(config, 'utf8')).replace('https://cdn.example.com/course/', `${assets.url}/`));
  const published = await tempDir(`growth-assets-${n}`);
  // The first compile of the course (every lesson rendered, on every core; the cache written).
  const firstCompile = await cli(['assets', dir, '--out', published], process.env);
  assets.folder = published;
  const emu = await startEmulatorProcess({ port: 0, latencyMs: 0, seed: { api_keys: [{ token: TOKEN, programs: 'all' }], programs: seedPrograms(sections) } });
  const env = { ...process.env, COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url, NO_COLOR: '1' };

  // The lesson files, to edit later: every *.md under a section folder.
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.md') && f.includes('-section/')).sort();
  if (files.length !== n) throw new Error(`${files.length} lesson files, expected ${n}`);

  const first = await cli(['apply', dir, '--yes', '--concurrency', '8'], env);
  const baseline = await repeated(() => timeNode([READ_HASH, dir]));
  const warm = await repeated(() => cli(['plan', dir, '--detailed-exitcode'], env));
  await writeFile(join(dir, files[0]), `${await readFile(join(dir, files[0]), 'utf8')}\nOne more paragraph, with **emphasis**.\n`);
  const fresh = await repeated(async () => {
    await rm(join(dir, '.coursesync/cache'), { recursive: true, force: true });
    return cli(['plan', dir, '--detailed-exitcode'], env, 2);
  });
  const step = Math.max(1, Math.floor(n / 100));
  const edited = files.filter((_, i) => i % step === 0).slice(0, 100);
  for (const [i, file] of edited.entries()) {
    await writeFile(join(dir, file), `${await readFile(join(dir, file), 'utf8')}\nA closing paragraph (edit ${i + 1}), with a [link](https://example.com/more-${i}).\n`);
  }
  const edits = await cli(['apply', dir, '--yes', '--concurrency', '8'], env);
  await cli(['plan', dir, '--detailed-exitcode'], env); // converged

  console.log(`${n} lessons:`);
  console.log(`  first compile (coursesync assets: every lesson rendered): ${ms(firstCompile.wall)} = ${(firstCompile.wall / n).toFixed(2)} ms per lesson; peak ${firstCompile.rssMb.toFixed(0)} MB`);
  console.log(`  first apply (${n} creates, lessons from the cache): ${ms(first.wall)} = ${(first.wall / n).toFixed(2)} ms per lesson; peak ${first.rssMb.toFixed(0)} MB`);
  console.log(`  read + hash baseline: ${ms(baseline.wall)} median of ${baseline.walls}`);
  console.log(`  plan, nothing changed: ${ms(warm.wall)} median of ${warm.walls} = ${ratio(warm.wall, baseline.wall)} the baseline; peak ${warm.rssMb.toFixed(0)} MB`);
  console.log(`  plan, fresh checkout, 1 edited: ${ms(fresh.wall)} median of ${fresh.walls} = ${ratio(fresh.wall, baseline.wall)} the baseline; peak ${fresh.rssMb.toFixed(0)} MB`);
  console.log(`  apply of ${edited.length} edits: ${ms(edits.wall)}; peak ${edits.rssMb.toFixed(0)} MB`);
  rows.push({ n, firstCompile, first, baseline, warm, fresh, edits });
  await emu.close();
  await cleanup();
}

const us = (wall, n) => `${((wall * 1000) / n).toFixed(0)} µs`;
heading('growth curve (per lesson: constant = linear)');
console.log('| lessons | first compile | per lesson | peak MB | first apply | per lesson | peak MB | read+hash per lesson | plan, no change | per lesson | peak MB | fresh plan, 1 edit | per lesson | peak MB | apply 100 edits | peak MB |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const { n, firstCompile, first, baseline, warm, fresh, edits } of rows) {
  console.log(
    `| ${n} | ${ms(firstCompile.wall)} | ${(firstCompile.wall / n).toFixed(2)} ms | ${firstCompile.rssMb.toFixed(0)} | ${ms(first.wall)} | ${(first.wall / n).toFixed(2)} ms | ${first.rssMb.toFixed(0)} | ${us(baseline.wall, n)} | ${ms(warm.wall)} | ${us(warm.wall, n)} | ${warm.rssMb.toFixed(0)} | ` +
      `${ms(fresh.wall)} | ${us(fresh.wall, n)} | ${fresh.rssMb.toFixed(0)} | ${ms(edits.wall)} | ${edits.rssMb.toFixed(0)} |`,
  );
}
host.close();
