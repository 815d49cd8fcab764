// Build step after tsc: remove what an earlier build wrote for a source that is gone (tsc never
// deletes an output). A module left from a deleted source would stay in the package, in the
// compiler's digest, and make every local test run see dist/ as stale (test/global-build.ts).
// dist/bin/ is the bundle's, rewritten whole by scripts/bundle-cli.mjs.
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const OUTPUT = /\.(d\.ts|js)$/;

/** Remove every file of dist/ that tsc writes (`.js`, `.d.ts`) whose `.ts` source under src/ is gone; then the folders left empty. */
export function pruneDist(base = root) {
  const out = join(base, 'dist');
  if (!existsSync(out)) return [];
  const removed = [];
  for (const rel of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    if (rel === 'bin' || rel.startsWith(`bin/`) || !OUTPUT.test(rel)) continue;
    if (existsSync(join(base, 'src', rel.replace(OUTPUT, '.ts')))) continue;
    rmSync(join(out, rel));
    removed.push(rel);
  }
  for (const rel of new Set(removed.map((r) => dirname(r)))) {
    for (let d = rel; d !== '.'; d = dirname(d)) {
      if (readdirSync(join(out, d)).length > 0) break;
      rmdirSync(join(out, d));
    }
  }
  return removed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const removed = pruneDist();
  if (removed.length > 0) process.stdout.write(`prune-dist: removed ${removed.length} file(s) left from deleted sources under ${dist}\n`);
}
