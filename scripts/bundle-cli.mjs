// Bundles the command line (dist/cli/index.js and the two workers it starts) with every module
// it imports, ours and the packages', into dist/bin/: a plan of a fresh checkout then loads ~95
// files instead of ~290, each read, compiled and linked by Node's loader (docs/development.md).
// Code splitting keeps each dynamic import a file of its own, so `--version` loads its entry and
// a few small chunks, and a plan none of another command's code. Run by `npm run build` last
// (after the HTML stack is bundled, which this bundle takes whole) and by test/global-build.ts.
import { build } from 'esbuild';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const out = `${dist}bin`;
rmSync(out, { recursive: true, force: true }); // chunk names carry content hashes: no stale one may stay
await build({
  // Entry names are the names the code starts them by: `new URL('./read-worker.js', import.meta.url)`.
  entryPoints: {
    coursesync: `${dist}cli/index.js`,
    'render-worker': `${dist}load/render-worker.js`,
    'read-worker': `${dist}load/read-worker.js`,
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'inline',
  // A CommonJS package bundled into ESM (yaml) requires Node's own modules: give it a require.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
});
// What the fast paths read beside the entry (`new URL('./root-help.json', import.meta.url)`).
for (const data of ['completion-data.json', 'root-help.json']) {
  if (existsSync(`${dist}cli/${data}`)) copyFileSync(`${dist}cli/${data}`, `${out}/${data}`);
}
