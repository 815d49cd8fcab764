// Bundles the command line into dist/bin/, two ways (docs/development.md, "The command is a bundle"):
// - the entry (dist/cli/index.js, its fast paths: --version, --help, completion) and the two
//   workers it starts, with what they import, as ES modules split in chunks: `--version` loads
//   its entry and a few small chunks;
// - every command (dist/cli/run-command.js and all it imports, ours and the packages') as one
//   CommonJS file, commands.cjs, which the entry compiles through V8's code cache
//   (src/cli/code-cache.ts): Node 20 caches no compiled ES module. Its first line names its
//   build (a digest of the rest), so a cache is never taken for another build's code; the
//   rest is the module wrapped in its function, as Node wraps one.
// Run by `npm run build` last (after the HTML stack is bundled, which both take whole) and by
// test/global-build.ts.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const out = `${dist}bin`;
rmSync(out, { recursive: true, force: true }); // chunk names carry content hashes: no stale one may stay
const common = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning', legalComments: 'inline' };

await build({
  ...common,
  // Entry names are the names the code starts them by: `new URL('./read-worker.js', import.meta.url)`.
  entryPoints: {
    coursesync: `${dist}cli/index.js`,
    'render-worker': `${dist}load/render-worker.js`,
    'read-worker': `${dist}load/read-worker.js`,
  },
  outdir: out,
  splitting: true,
  format: 'esm',
  // A CommonJS package bundled into ESM (yaml) requires Node's own modules: give it a require.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
  // The commands are commands.cjs: the entry imports run-command.js only where that file is absent
  // (dist/cli/), and completion.js (every command's tree) only where completion-data.json is.
  plugins: [{ name: 'commands-apart', setup: (b) => b.onResolve({ filter: /^\.\/(run-command|completion)\.js$/ }, (a) => ({ path: a.path, external: true })) }],
});

const commands = `${out}/commands.cjs`;
await build({
  ...common,
  entryPoints: [`${dist}cli/run-command.js`],
  outfile: commands,
  format: 'cjs',
  // One file, so every module's `import.meta.url` is the file's, as it is a chunk's in dist/bin/.
  define: { 'import.meta.url': '__fileUrl' },
  banner: { js: "const __fileUrl = require('node:url').pathToFileURL(__filename).href;" },
});
const code = readFileSync(commands, 'utf8');
// vm.Script, which compiles it, has no loader for `import()`: a dynamic import left in would fail at run time.
const left = /\bimport\(\s*["'`]/.exec(code);
if (left) throw new Error(`commands.cjs keeps a dynamic import (${code.slice(left.index, left.index + 60)}): import it statically`);
// Written as Node wraps a CommonJS module, so the loader compiles the file's text as it is (no
// second 4 MB string made by joining a wrapper to it).
const wrapped = `(function (exports, require, module, __filename, __dirname) {\n${code}\n})`;
writeFileSync(commands, `// coursesync build ${createHash('sha256').update(wrapped).digest('hex').slice(0, 16)}\n${wrapped}`);

// What the fast paths read beside the entry (`new URL('./root-help.json', import.meta.url)`):
// written by the steps before this one, and needed (the bundle has no commander to fall back on).
for (const data of ['completion-data.json', 'root-help.json']) {
  if (!existsSync(`${dist}cli/${data}`)) throw new Error(`dist/cli/${data} is missing: run \`npm run build\``);
  copyFileSync(`${dist}cli/${data}`, `${out}/${data}`);
}

// The compiler id of what was just bundled (src/load/compiler-id.ts): the compiling modules and
// the installed packages they import are in the bundle as they are now, so the id computed now
// is the bundle's for as long as it exists; the bundle reads it instead of computing it again.
const { BUILT_ID_FILE, computeCompilerDigest } = await import(`${dist}load/compiler-id.js`);
writeFileSync(`${out}/${BUILT_ID_FILE}`, `${JSON.stringify({ compiler: computeCompilerDigest({ root: dist, ext: '.js', packagesFrom: join(dist, '..') }) })}\n`);
