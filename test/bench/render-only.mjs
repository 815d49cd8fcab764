// The render stage alone, in this thread: every lesson body of a repo through one build's
// renderMarkdown, in a fresh process (cold, as a plan's worker is). Prints JSON: lessons, CPU ms
// of the process over the loop (every thread: V8's compiler and GC threads included), wall ms.
// Usage: node test/bench/render-only.mjs <build's dist folder> <course repo>
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, repo] = process.argv.slice(2);
const { renderMarkdown } = await import(pathToFileURL(resolve(dist, 'compile/render.js')).href);
const bodies = [];
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.')) walk(path);
    else if (entry.name.endsWith('.md')) bodies.push(readFileSync(path, 'utf8').replace(/^---\n[\s\S]*?\n---\n/, ''));
  }
};
walk(repo);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (const body of bodies) renderMarkdown(body);
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({ lessons: bodies.length, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: wall }));
