// The baseline of the plan benchmark: walk a course repo the way readSource does (hidden
// folders and node_modules skipped), read every program.yaml, section.yaml, coursesync.yaml
// and *.md, and sha256 each; nothing else. Run as its own process, like `coursesync plan`.
// Usage: node test/bench/read-hash.mjs <dir>
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';

const wanted = (name) => name === 'program.yaml' || name === 'section.yaml' || name === 'coursesync.yaml' || name.endsWith('.md');
const files = [];
const walk = async (dir) => {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    if (e.isDirectory()) await walk(join(dir, e.name));
    else if (e.isFile() && wanted(e.name)) files.push(join(dir, e.name));
  }
};
await walk(process.argv[2]);
const limit = pLimit(32);
const digests = await Promise.all(files.map((f) => limit(async () => createHash('sha256').update(await readFile(f)).digest('hex'))));
console.log(`${digests.length} files`);
