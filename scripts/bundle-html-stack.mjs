// Bundles dist/vendor/html-stack.js (the Markdown and HTML packages coursesync renders and checks with) with those
// packages into that one file: Node loads it in about a third of the time of its ~300 modules.
// Run by `npm run build` after tsc (and by test/global-build.ts). Without it the build works
// the same, only slower to start rendering.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const file = fileURLToPath(new URL('../dist/vendor/html-stack.js', import.meta.url));
await build({ entryPoints: [file], outfile: file, allowOverwrite: true, bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning', legalComments: 'inline' });
