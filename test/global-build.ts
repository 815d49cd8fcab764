/**
 * Vitest global setup: tests of the CLI run the built `dist/`, so a test run never uses a build
 * older than `src/`. When any source file (or the build configuration) is newer than the oldest
 * file of the last build, or a source file has no output, `tsc` runs once before any test file.
 * A fresh build (as `npm test` makes it) costs one walk of the trees. Like `npm run build`,
 * the build then removes what tsc left of deleted sources (scripts/prune-dist.mjs), writes what the CLI reads instead of loading commander, bundles the HTML stack,
 * then bundles the command (BUILD_STEPS, in order). The command's bundle is written last, so a
 * `tsc` run alone leaves it the oldest output: stale, and built again.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** What `npm run build` runs after tsc, in order, and the file each writes. */
const BUILD_STEPS = [
  { file: 'dist/cli/completion-data.json', script: 'scripts/write-completion-data.mjs' },
  { file: 'dist/cli/root-help.json', script: 'scripts/write-root-help.mjs' },
  { file: 'dist/vendor/html-stack.js', script: 'scripts/bundle-html-stack.mjs' },
  { file: 'dist/bin/coursesync.js', script: 'scripts/bundle-cli.mjs' },
];

function files(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith(suffix) && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));
}

/** Why the build is stale, or null when it is fresh. */
export function staleBecause(root = ROOT): string | null {
  const sources = files(join(root, 'src'), '.ts');
  const outputs = files(join(root, 'dist'), '.js');
  if (outputs.length === 0) return 'there is no build';
  const unwritten = BUILD_STEPS.find((d) => !existsSync(join(root, d.file)));
  if (unwritten) return `${unwritten.file} was never written`;
  const built = new Set(outputs.map((f) => relative(join(root, 'dist'), f).replace(/\.js$/, '')));
  const missing = sources.find((f) => !built.has(relative(join(root, 'src'), f).replace(/\.ts$/, '')));
  if (missing) return `${relative(root, missing)} was never built`;
  // tsc never deletes an output: one of a deleted source would stay the oldest for ever.
  const sourced = new Set(sources.map((f) => relative(join(root, 'src'), f).replace(/\.ts$/, '')));
  const orphan = [...built].find((f) => !f.startsWith('bin/') && !sourced.has(f));
  if (orphan) return `dist/${orphan}.js is left from a deleted source`;
  const oldestOutput = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  const newer = [...sources, join(root, 'tsconfig.json'), join(root, 'package.json')].find((f) => statSync(f).mtimeMs > oldestOutput);
  return newer ? `${relative(root, newer)} changed after the last build` : null;
}

/**
 * Builds what is stale, and gives the run's commands a code cache of their own (src/cli/
 * code-cache.ts): shared by every command the tests run, removed when they end, so a test run
 * leaves nothing in the user's cache folder. The teardown Vitest calls is returned.
 */
export default function setup(): () => void {
  const cache = process.env.COURSESYNC_CODE_CACHE === undefined ? mkdtempSync(join(tmpdir(), 'coursesync-test-code-')) : undefined;
  if (cache !== undefined) process.env.COURSESYNC_CODE_CACHE = cache;
  build();
  return () => {
    if (cache !== undefined) rmSync(cache, { recursive: true, force: true });
  };
}

function build(): void {
  const why = staleBecause();
  if (why === null) return;
  process.stderr.write(`global setup: building dist/ (${why})\n`);
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.json')], { cwd: ROOT, stdio: 'inherit' });
  execFileSync(process.execPath, [join(ROOT, 'scripts/prune-dist.mjs')], { cwd: ROOT, stdio: 'inherit' });
  for (const step of BUILD_STEPS) execFileSync(process.execPath, [join(ROOT, step.script)], { cwd: ROOT, stdio: 'inherit' });
}
