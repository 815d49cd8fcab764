/**
 * The id of the code that derives lessons (I/O): one invalidation rule for every stored answer
 * compile gave (the lesson cache, the render cache, the state's `compiler` per lesson). It is
 * the sha256 of
 * - every module under compile/, model/, school-api/, diagnostics/ and vendor/ (compile imports
 *   nothing else of ours; built JavaScript, or the sources under a test runner), and
 * - the exact installed version of every package those modules import and, transitively, of
 *   every package those depend on (read from each one's package.json where Node resolves it),
 *   so an upgrade within a version range (a new micromark under remark-parse) counts too.
 * Computed once per process, when first asked; the bundled command (dist/bin/) reads it instead
 * from beside itself, where the build wrote it (scripts/bundle-cli.mjs): the bundle holds the
 * compiling code and the packages it imports as they were when it was built.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Our folders whose code can change what compiling a lesson gives. */
export const COMPILER_FOLDERS = ['compile', 'model', 'school-api', 'diagnostics', 'vendor'];

/**
 * The packages those folders import (test/load/compiler-id.test.ts checks this list against
 * their imports, so it cannot fall behind).
 */
export const COMPILER_PACKAGES = [
  'fastest-levenshtein',
  'gemoji',
  'github-slugger',
  'hast-util-from-html',
  'hast-util-to-html',
  'ignore',
  'rehype-raw',
  'remark-gfm',
  'remark-parse',
  'remark-rehype',
  'smol-toml',
  'unified',
  'yaml',
  'zod',
];

interface Installed {
  dir: string;
  version: string;
  dependencies: string[];
}

/** Told every path a digest reads or probes (a folder, a file, a path found missing). */
type Touch = (path: string) => void;
const untouched: Touch = () => {};

/** Reads what a package lookup needs, each folder and manifest at most once. */
function packageFinder(touch: Touch): (name: string, fromDir: string) => Installed | undefined {
  const hasModules = new Map<string, boolean>();
  const manifests = new Map<string, Installed | undefined>();
  const manifest = (dir: string): Installed | undefined => {
    if (!manifests.has(dir)) {
      let found: Installed | undefined;
      touch(join(dir, 'package.json'));
      try {
        const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown; dependencies?: Record<string, unknown> };
        found = { dir, version: typeof json.version === 'string' ? json.version : '', dependencies: Object.keys(json.dependencies ?? {}) };
      } catch {
        // not installed here (or unreadable): Node would look further up too
      }
      manifests.set(dir, found);
    }
    return manifests.get(dir);
  };
  // The nearest node_modules up the tree holding `name`, as Node resolves it.
  return (name, fromDir) => {
    for (let dir = fromDir; ; dir = dirname(dir)) {
      const modules = join(dir, 'node_modules');
      if (!hasModules.has(modules)) {
        touch(modules);
        hasModules.set(modules, existsSync(modules));
      }
      const found = hasModules.get(modules) ? manifest(join(modules, name)) : undefined;
      if (found) return found;
      if (dirname(dir) === dir) return undefined;
    }
  };
}

/**
 * `name@version` of `packages` and everything they depend on, as installed and resolved from
 * `fromDir`, sorted (a package not found is listed as `name@missing`: never an error here, the
 * import itself would fail). Synchronous: about 200 small reads, far quicker without a round
 * trip through the thread pool for each.
 */
export function installedVersions(packages: readonly string[], fromDir: string, touch: Touch = untouched): string[] {
  const findPackage = packageFinder(touch);
  const seen = new Set<string>();
  const found = new Set<string>();
  const visit = (name: string, from: string): void => {
    if (seen.has(`${name}\0${from}`)) return;
    seen.add(`${name}\0${from}`);
    const pkg = findPackage(name, from);
    if (!pkg) return void found.add(`${name}@missing`);
    if (seen.has(pkg.dir)) return;
    seen.add(pkg.dir);
    found.add(`${name}@${pkg.version}`);
    for (const dep of pkg.dependencies) visit(dep, pkg.dir);
  };
  for (const name of packages) visit(name, fromDir);
  return [...found].sort();
}

/** Every module file under `dir` (and its subfolders, unless `deep` is false) ending with `ext`. */
function moduleFiles(dir: string, ext: string, deep = true, touch: Touch = untouched): string[] {
  touch(dir);
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(deep ? moduleFiles(path, ext, true, touch) : []));
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
export function computeCompilerDigest(inputs: CompilerIdInputs): string {
  return digestOfCode(inputs, COMPILER_FOLDERS, COMPILER_PACKAGES);
}

/**
 * The full id of every module under `inputs.root` and every package coursesync depends on
 * (its package.json's dependencies, transitively): what an answer depending on more than the
 * compiler (a whole plan) is tagged with.
 */
export function computeCodeDigest(inputs: CompilerIdInputs, touch: Touch = untouched): string {
  const folders = readdirSync(inputs.root, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  touch(join(inputs.packagesFrom, 'package.json'));
  const manifest = JSON.parse(readFileSync(join(inputs.packagesFrom, 'package.json'), 'utf8')) as { dependencies?: Record<string, unknown> };
  return digestOfCode(inputs, folders, Object.keys(manifest.dependencies ?? {}), moduleFiles(inputs.root, inputs.ext, false, touch), touch);
}

/** sha256 of the modules of `folders` (and `extra` files) under the root, and the installed versions of `packages`. */
function digestOfCode(inputs: CompilerIdInputs, folders: readonly string[], packages: readonly string[], extra: string[] = [], touch: Touch = untouched): string {
  const hash = createHash('sha256');
  for (const file of [...extra, ...folders.flatMap((folder) => moduleFiles(join(inputs.root, folder), inputs.ext, true, touch))].sort()) {
    touch(file);
    hash.update(relative(inputs.root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  for (const version of installedVersions(packages, inputs.packagesFrom, touch)) hash.update(version).update('\n');
  return hash.digest('hex');
}

/**
 * The code digest and what it was computed from, as stat data: every module file and folder
 * read, every package.json read and every place a package was looked for and not found. When
 * none of it changed (same size, mtime, ctime and inode, or still missing), the digest still
 * holds, and checking that is a stat per path (~700) instead of reading them all. As in the
 * stat index, a path changed at or after `since` (the computation's start, less a margin for
 * the kernel's coarse file clock) never vouches.
 */
export interface CodeProof {
  digest: string;
  since: string;
  stats: string[];
}

/** A path's stat data as a proof holds it; `path\0-` when it does not exist. */
function statLine(path: string): string {
  const st = statSync(path, { bigint: true, throwIfNoEntry: false });
  return st ? `${path}\0${st.size}\0${st.mtimeNs}\0${st.ctimeNs}\0${st.ino}` : `${path}\0-`;
}

/** Compute the code digest of `inputs` with its proof. */
export function computeCodeProof(inputs: CompilerIdInputs): CodeProof {
  const since = BigInt(Date.now()) * 1_000_000n - 100_000_000n;
  const paths = new Set<string>();
  const digest = computeCodeDigest(inputs, (path) => paths.add(path));
  return { digest, since: String(since), stats: [...paths].sort().map(statLine) };
}

/** The digest `proof` vouches for, when it is a proof and nothing it names changed since; else undefined. */
export function provenCodeDigest(proof: unknown): string | undefined {
  if (typeof proof !== 'object' || proof === null) return undefined;
  const { digest, since, stats } = proof as Partial<CodeProof>;
  if (typeof digest !== 'string' || typeof since !== 'string' || !/^\d+$/.test(since) || !Array.isArray(stats) || stats.length === 0) return undefined;
  const sinceNs = BigInt(since);
  for (const line of stats) {
    if (typeof line !== 'string') return undefined;
    const [path, size, mtime, ctime] = line.split('\0');
    if (path === undefined || statLine(path) !== line) return undefined;
    if (size !== '-' && (mtime === undefined || ctime === undefined || BigInt(mtime) >= sinceNs || BigInt(ctime) >= sinceNs)) return undefined;
  }
  return digest;
}

/** This installed coursesync's inputs. */
function ownInputs(): CompilerIdInputs {
  const root = fileURLToPath(new URL('../', import.meta.url));
  return { root, ext: import.meta.url.endsWith('.ts') ? '.ts' : '.js', packagesFrom: join(root, '..') };
}

let memo: string | undefined;
let codeMemo: CodeProof | undefined;

/** sha256 of all of this coursesync's code and installed dependencies, with its proof (once per process). */
export function codeProof(): CodeProof {
  codeMemo ??= computeCodeProof(ownInputs());
  return codeMemo;
}

/** sha256 of all of this coursesync's code and installed dependencies (once per process). */
export function codeDigest(): string {
  return codeProof().digest;
}

/** The file the build writes beside the bundle: `{ "compiler": <64 hex> }`. */
export const BUILT_ID_FILE = 'compiler-id.json';

/**
 * The id the build wrote beside this module, when it runs bundled (dist/bin/): the bundled
 * code, packages included, is fixed at build time, and reading ~700 modules and manifests to
 * find it again cost every compiling run ~20 ms. Undefined elsewhere (dist/load/, src/).
 */
function builtDigest(): string | undefined {
  try {
    const { compiler } = JSON.parse(readFileSync(new URL(`./${BUILT_ID_FILE}`, import.meta.url), 'utf8')) as { compiler?: unknown };
    return typeof compiler === 'string' && /^[0-9a-f]{64}$/.test(compiler) ? compiler : undefined;
  } catch {
    return undefined;
  }
}

/**
 * sha256 of the code that compiles lessons in this process, installed packages included (once
 * per process; read synchronously, a few ms, so async only for its callers' sake).
 */
export async function compilerDigest(): Promise<string> {
  memo ??= builtDigest() ?? computeCompilerDigest(ownInputs());
  return memo;
}

/** The short id the state records per lesson and the caches are tagged with (12 hex of compilerDigest). */
export async function compilerId(): Promise<string> {
  return (await compilerDigest()).slice(0, 12);
}
