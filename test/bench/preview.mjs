// `coursesync preview` live reload on a generated repo: the built CLI serves it; each edit
// appends a line to one lesson body, and the time is taken from the write until a client of
// the event stream has been told and has fetched a page that shows the edit (what the open
// page does). Baseline in the same run: `coursesync plan` of the same repo after an edit (a
// fresh process with warm caches: what an author would run instead).
// Usage: npm run build && node test/bench/preview.mjs [lessons=500] [edits=30]
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { generateRepo } from './out/generate-repo.js';
import { CLI, cleanup, heading, median, ms, ratio, tempDir, timeNode } from './lib.mjs';

const [lessons = 500, edits = 30] = process.argv.slice(2).map(Number);
heading(`preview live reload: ${lessons} lessons, ${edits} edits`);
const dir = await tempDir('preview');
await generateRepo(dir, { lessons, seed: 5 });

/** Lesson files: Markdown next to a section.yaml. */
async function lessonFiles(root) {
  const out = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) {
    const parent = entry.parentPath ?? entry.path;
    if (entry.isFile() && entry.name.endsWith('.md') && !parent.includes('.coursesync')) {
      const siblings = await readdir(parent);
      if (siblings.includes('section.yaml')) out.push(join(parent, entry.name));
    }
  }
  return out.sort();
}
const files = await lessonFiles(dir);

const child = spawn(process.execPath, [CLI, 'preview', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
let stderr = '';
child.stderr.on('data', (d) => (stderr += d));
const url = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
    const m = /preview on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
    if (m) resolve(m[1]);
  });
  child.on('exit', (code) => reject(new Error(`preview exited with ${code}: ${stderr}`)));
});
const firstCompile = /compiled \d+ lessons in (\d+) ms/.exec(stderr)?.[1];

// One event-stream client, as an open page is.
let waiting = null;
const events = request(new URL('events', url), (res) => {
  let buffer = '';
  res.on('data', (d) => {
    buffer += d;
    let i;
    while ((i = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, i);
      buffer = buffer.slice(i + 2);
      const m = /^data: (\d+)$/m.exec(block);
      if (m && waiting) waiting(Number(m[1]));
    }
  });
});
events.end();
const getPage = () => fetch(url, { cache: 'no-store' }).then((r) => r.text());

const times = [];
for (let n = 0; n < edits; n++) {
  const file = files[(n * 7919) % files.length];
  const marker = `Edited for the preview benchmark, round ${n}.`;
  const text = await readFile(file, 'utf8');
  const told = new Promise((resolve) => (waiting = resolve));
  const t0 = performance.now();
  await writeFile(file, `${text.trimEnd()}\n\n${marker}\n`);
  // Events can come in twice for one save (editors and fs.watch): wait until the page shows it.
  let page = '';
  await told;
  for (;;) {
    page = await getPage();
    if (page.includes(marker)) break;
    await new Promise((resolve) => (waiting = resolve));
  }
  times.push(performance.now() - t0);
  await new Promise((r) => setTimeout(r, 100)); // let the watcher settle between saves
}
waiting = null;
events.destroy();
child.kill('SIGINT');
await new Promise((r) => child.on('exit', r));

const sorted = [...times].sort((a, b) => a - b);
const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
const plan = median([await timeNode([CLI, 'plan', dir]), await timeNode([CLI, 'plan', dir])].map((r) => r.wall));
console.log(`first compile (cold cache): ${firstCompile} ms`);
console.log(`reload after a save: median ${ms(median(times))}, p95 ${ms(p95)}, max ${ms(sorted.at(-1))} over ${edits} edits (target: p95 < 1000 ms)`);
console.log(`baseline: \`coursesync plan\` after an edit, warm caches: ${ms(plan)}; preview reload p95 = ${ratio(p95, plan)} of it`);
if (p95 >= 1000) process.exitCode = 1;
await cleanup();
