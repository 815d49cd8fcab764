// The worst lessons under the 200,000-character limit: `coursesync validate` (the built CLI, own
// process, under /usr/bin/time) of a repo holding one such lesson, against the same command on
// a realistic lesson of the same length (headings, lists, code, a table, quotes, links) measured
// in the same run. Target: no lesson takes much longer or much more memory than the realistic one.
// Usage: node test/bench/hostile.mjs [threads=1] [repeats=1]
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLI, ROOT, cleanup, heading, median, ms, ratio, tempDir, timeNode } from './lib.mjs';

const threads = process.argv[2] ?? '1';
const repeats = Number(process.argv[3] ?? 1);
const LENGTH = 195_000;
const fill = (unit) => unit.repeat(Math.floor(LENGTH / unit.length));

const example = (await readFile(join(ROOT, 'examples/intro-to-typescript/01-getting-started/01-welcome.md'), 'utf8')).split(/^---$/m).slice(2).join('---');
const realistic = fill(example + '\n\n');
const indented = (() => {
  const lines = [];
  for (let i = 0, n = 0; n < LENGTH; i++) {
    const line = `${' '.repeat(2 * i)}- x`;
    lines.push(line);
    n += line.length + 1;
  }
  return lines.join('\n').slice(0, LENGTH);
})();

const cases = [
  ['realistic lesson (baseline)', realistic],
  ['unclosed links `[a](` (quadratic in remark)', fill('[a](')],
  ['shortcut references `[a]`', fill('[a]')],
  ['`](`', fill('](')],
  ['`a](`', fill('a](')],
  ['`<a` + newline', fill('<a\n')],
  ['block quotes `>`', fill('>')],
  ['list markers `- `', fill('- ')],
  ['nested lists by indentation', indented],
  ['`<div>`', fill('<div>')],
  ['table of 4,000 columns', `${'|a'.repeat(4000)}|\n${'|-'.repeat(4000)}|\n${'|a'.repeat(4000)}|\n`.padEnd(LENGTH, ' ')],
];

heading(`hostile lessons (${LENGTH} characters each), coursesync validate, COURSESYNC_RENDER_THREADS=${threads}`);
const results = [];
for (const [name, body] of cases) {
  const dir = await tempDir('hostile');
  await mkdir(join(dir, 'p/s'), { recursive: true });
  await writeFile(join(dir, 'p/program.yaml'), 'id: prog_bench\n');
  await writeFile(join(dir, 'p/s/section.yaml'), 'id: sec_bench\n');
  await writeFile(join(dir, 'p/s/01-lesson.md'), `---\nname: Bench\nlesson_type: text\n---\n${body}\n`);
  const runs = [];
  for (let i = 0; i < repeats; i++) runs.push(await timeNode([CLI, 'validate', dir], { env: { ...process.env, COURSESYNC_RENDER_THREADS: threads } }));
  const wall = median(runs.map((r) => r.wall));
  const rss = Math.max(...runs.map((r) => r.rssMb));
  const outcome = runs[0].code === 0 ? 'valid' : /\[(lesson\/[a-z-]+)\]/.exec(await runCode(dir, threads))?.[1] ?? `exit ${runs[0].code}`;
  results.push({ name, wall, rss, outcome });
}
const base = results[0];
for (const r of results) {
  console.log(`${r.name.padEnd(46)} ${ms(r.wall).padStart(9)} = ${ratio(r.wall, base.wall).padStart(6)}  peak ${r.rss.toFixed(0).padStart(4)} MB = ${ratio(r.rss, base.rss).padStart(6)}  ${r.outcome}`);
}
const worst = results.slice(1).reduce((a, b) => (b.wall > a.wall ? b : a));
const fattest = results.slice(1).reduce((a, b) => (b.rss > a.rss ? b : a));
console.log(`worst time: ${worst.name}, ${ms(worst.wall)} = ${ratio(worst.wall, base.wall)} the realistic lesson; worst memory: ${fattest.name}, ${fattest.rss.toFixed(0)} MB = ${ratio(fattest.rss, base.rss)}`);
await cleanup();

/** The diagnostics of one more run (to name the outcome). */
async function runCode(dir, threads) {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => execFile(process.execPath, [CLI, 'validate', dir], { env: { ...process.env, COURSESYNC_RENDER_THREADS: threads } }, (_e, stdout) => resolve(stdout)));
}
