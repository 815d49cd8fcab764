// The baselines of the plan benchmarks: walk a course repo the way readSource does (hidden
// folders and node_modules skipped), read every program.yaml, section.yaml, coursesync.yaml
// and *.md, and sha256 each; nothing else. Run as its own process, like `coursesync plan`.
// Usage: node test/bench/read-hash.mjs <dir> [sync|async]
//   sync (the default, the reference for every plan figure): readdirSync, readFileSync and
//        createHash, one file after the other: the simplest program doing the unavoidable work.
//   async: readdir/readFile from node:fs/promises, 32 reads in flight through p-limit (the
//        baseline the benchmarks used before; about twice the sync walk's time for 10k files,
//        which made every ratio look twice as good as it is).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const [dir, mode = 'sync'] = process.argv.slice(2);
const wanted = (name) => name === 'program.yaml' || name === 'section.yaml' || name === 'coursesync.yaml' || name.endsWith('.md');
const skip = (name) => name.startsWith('.') || name === 'node_modules';

function syncWalk(root) {
  const digests = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (skip(e.name)) continue;
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile() && wanted(e.name)) digests.push(createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(root);
  return digests;
}

async function asyncWalk(root) {
  const { default: pLimit } = await import('p-limit');
  const files = [];
  const walk = async (d) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (skip(e.name)) continue;
      if (e.isDirectory()) await walk(join(d, e.name));
      else if (e.isFile() && wanted(e.name)) files.push(join(d, e.name));
    }
  };
  await walk(root);
  const limit = pLimit(32);
  return Promise.all(files.map((f) => limit(async () => createHash('sha256').update(await readFile(f)).digest('hex'))));
}

if (mode !== 'sync' && mode !== 'async') throw new Error(`mode must be sync or async, not ${mode}`);
const digests = mode === 'sync' ? syncWalk(dir) : await asyncWalk(dir);
console.log(`${digests.length} files`);
