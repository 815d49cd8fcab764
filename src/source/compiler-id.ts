/**
 * The id of the code that derives lessons (I/O): one invalidation rule for every stored answer
 * compile gave (the lesson cache, the render cache, the state's `compiler` per lesson). It is
 * the sha256 of
 * - every module under compile/, model/, school-api/ and diagnostics/ (compile imports nothing
 *   else of ours; built JavaScript, or the sources under a test runner), and
 * - the exact installed version of every package those modules import and, transitively, of
 *   every package those depend on (read from each one's package.json where Node resolves it),
 *   so an upgrade within a version range (a new micromark under remark-parse) counts too.
 * Computed once per process, when first asked.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Our folders whose code can change what compiling a lesson gives. */
export const COMPILER_FOLDERS = ['compile', 'model', 'school-api', 'diagnostics'];

/**
 * The packages those folders import (test/source/compiler-id.test.ts checks this list against
 * their imports, so it cannot fall behind).
 */
export const COMPILER_PACKAGES = [
  'fastest-levenshtein',
  'github-slugger',
  'hast-util-from-html',
  'hast-util-to-html',
  'ignore',
  'rehype-raw',
  'remark-gfm',
  'remark-parse',
  'remark-rehype',
  'unified',
  'yaml',
  'zod',
];

interface Installed {
  name: string;
  version: string;
  dependencies: string[];
}

/** The package `name` as Node resolves it from `fromDir` (the nearest node_modules up the tree). */
async function findPackage(name: string, fromDir: string): Promise<{ dir: string; manifest: Installed } | undefined> {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    const text = await readFile(join(candidate, 'package.json'), 'utf8').catch(() => undefined);
    if (text !== undefined) {
      const json = JSON.parse(text) as { version?: unknown; dependencies?: Record<string, unknown> };
      const version = typeof json.version === 'string' ? json.version : '';
      return { dir: candidate, manifest: { name, version, dependencies: Object.keys(json.dependencies ?? {}) } };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * `name@version` of `packages` and everything they depend on, as installed and resolved from
 * `fromDir`, sorted (a package not found is listed as `name@missing`: never an error here, the
 * import itself would fail).
 */
export async function installedVersions(packages: readonly string[], fromDir: string): Promise<string[]> {
  const seen = new Set<string>();
  const found: string[] = [];
  let wave = packages.map((name) => ({ name, fromDir }));
  while (wave.length > 0) {
    const next: { name: string; fromDir: string }[] = [];
    const results = await Promise.all(
      wave.map(async (want) => {
        const key = `${want.name}\0${want.fromDir}`;
        if (seen.has(key)) return undefined;
        seen.add(key);
        return { want, pkg: await findPackage(want.name, want.fromDir) };
      }),
    );
    for (const result of results) {
      if (!result) continue;
      const { want, pkg } = result;
      if (!pkg) {
        found.push(`${want.name}@missing`);
        continue;
      }
      found.push(`${pkg.manifest.name}@${pkg.manifest.version}`);
      for (const dep of pkg.manifest.dependencies) next.push({ name: dep, fromDir: pkg.dir });
    }
    wave = next;
  }
  return [...new Set(found)].sort();
}

/** Every module file under `dir` (and its subfolders) ending with `ext`. */
async function moduleFiles(dir: string, ext: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await moduleFiles(path, ext)));
    else if (entry.isFile() && entry.name.endsWith(ext)) files.push(path);
  }
  return files;
}

export interface CompilerIdInputs {
  /** The built root holding compile/, model/, … (dist/, or src/ under a test runner). */
  root: string;
  /** Module extension: `.js` built, `.ts` under a test runner. */
  ext: string;
  /** Where packages are resolved from (the installed coursesync's folder). */
  packagesFrom: string;
}

/** The full (64 hex) id of the code found at `inputs`; see the module comment. */
export async function computeCompilerDigest(inputs: CompilerIdInputs): Promise<string> {
  const [found, versions] = await Promise.all([
    Promise.all(COMPILER_FOLDERS.map((folder) => moduleFiles(join(inputs.root, folder), inputs.ext))),
    installedVersions(COMPILER_PACKAGES, inputs.packagesFrom),
  ]);
  const files = found.flat().sort();
  const hash = createHash('sha256');
  const contents = await Promise.all(files.map((f) => readFile(f)));
  files.forEach((file, i) => hash.update(relative(inputs.root, file)).update('\0').update(contents[i]!).update('\0'));
  for (const version of versions) hash.update(version).update('\n');
  return hash.digest('hex');
}

/** This installed coursesync's inputs. */
function ownInputs(): CompilerIdInputs {
  const root = fileURLToPath(new URL('../', import.meta.url));
  return { root, ext: import.meta.url.endsWith('.ts') ? '.ts' : '.js', packagesFrom: join(root, '..') };
}

let memo: Promise<string> | undefined;

/** sha256 of the code that compiles lessons in this process, installed packages included (once per process). */
export function compilerDigest(): Promise<string> {
  memo ??= computeCompilerDigest(ownInputs());
  return memo;
}

/** The short id the state records per lesson and the caches are tagged with (12 hex of compilerDigest). */
export async function compilerId(): Promise<string> {
  return (await compilerDigest()).slice(0, 12);
}
