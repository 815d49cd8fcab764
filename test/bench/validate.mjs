// `coursesync validate` with and without the lesson cache, the built CLI in its own process.
// Usage: npm run build && node test/bench/validate.mjs [lessons=2000] [repeats=3]
//
// A generated repo whose every lesson has a local image, a link to another lesson's heading
// and an in-page anchor (so a warm run still resolves references for every lesson). Runs
// alternate: cold (no `.coursesync/cache`, what a fresh CI checkout sees; it fills the cache)
// then warm (nothing changed). Then one lesson body is edited and validate runs warm again.
// Baselines in the same run: the cold validate, and read-hash.mjs (a process that only walks,
// reads and sha256-hashes the same course files).
import { appendFile, readdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { generateRepo } from './out/generate-repo.js';
import { CLI, ROOT, cleanup, heading, median, ms, ratio, tempDir, timeNode } from './lib.mjs';

const [lessons = 2_000, repeats = 3] = process.argv.slice(2).map(Number);
const cores = availableParallelism();
const validate = (dir) => timeNode([CLI, 'validate', dir], { env: { ...process.env, NO_COLOR: '1' } });
const check = (r, what) => {
  if (r.code !== 0) throw new Error(`${what}: exit code ${r.code}, expected 0 (a valid repo)\n${r.stderr}`);
  return r;
};
export const results = {};

heading(`validate, cold vs warm lesson cache: ${lessons} lessons (image, lesson link, anchor each), ${cores} render threads`);
const dir = await tempDir('validate');
const counts = await generateRepo(dir, { lessons, seed: 3, references: true });
const cold = [];
const warm = [];
const base = [];
for (let r = 0; r < repeats; r++) {
  await rm(join(dir, '.coursesync'), { recursive: true, force: true });
  cold.push(check(await validate(dir), 'cold validate'));
  warm.push(check(await validate(dir), 'warm validate'));
  base.push(check(await timeNode([join(ROOT, 'test/bench/read-hash.mjs'), dir]), 'read-hash baseline'));
}
const [c, w, b] = [median(cold.map((x) => x.wall)), median(warm.map((x) => x.wall)), median(base.map((x) => x.wall))];
const peak = (xs) => Math.max(...xs.map((x) => x.rssMb)).toFixed(0);
console.log(`repo: ${counts.programs} programs, ${counts.sections} sections, ${counts.lessons} lessons`);
console.log(`baseline (read + sha256 of the course files, own process): ${ms(b)} median of ${base.map((x) => x.wall.toFixed(0)).join('/')}`);
console.log(
  `cold (no cache; fills it): ${ms(c)} median of ${cold.map((x) => x.wall.toFixed(0)).join('/')} → ${(lessons / (c / 1000)).toFixed(0)} lessons/s = ${ratio(c, b)} the baseline; CPU/wall ${median(cold.map((x) => x.cpuMs / x.wall)).toFixed(2)}; peak ${peak(cold)} MB`,
);
console.log(
  `warm (nothing changed): ${ms(w)} median of ${warm.map((x) => x.wall.toFixed(0)).join('/')} = ${ratio(w, c)} the cold run (${(c / w).toFixed(1)}× faster), ${ratio(w, b)} the baseline; peak ${peak(warm)} MB`,
);
// One lesson body edited: that file is compiled again, every other comes from the cache.
const section = join(dir, (await readdir(dir, { withFileTypes: true })).find((e) => e.isDirectory() && !e.name.startsWith('.')).name);
const firstSection = (await readdir(section, { withFileTypes: true })).find((e) => e.isDirectory()).name;
const lesson = (await readdir(join(section, firstSection))).find((n) => n.endsWith('.md'));
await appendFile(join(section, firstSection, lesson), '\nOne more paragraph.\n');
const one = check(await validate(dir), 'warm validate, one lesson edited');
console.log(`warm, one lesson edited: ${ms(one.wall)} = ${ratio(one.wall, c)} the cold run, ${ratio(one.wall, b)} the baseline; peak ${one.rssMb.toFixed(0)} MB`);
results.validate = { lessons, cold: c, warm: w, oneEdit: one.wall, base: b };
await cleanup();
