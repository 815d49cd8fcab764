// Writes the list of runtime error codes into docs/cli.md, between the two markers, from the
// catalogue (src/diagnostics/error-codes/). Run after a build: `npm run errors`.
// test/diagnostics/error-codes.test.ts fails when the list in the file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { renderErrorList, spliceErrorList } from '../dist/diagnostics/error-codes/index.js';

const file = new URL('../docs/cli.md', import.meta.url);
const text = readFileSync(file, 'utf8');
const next = spliceErrorList(text, renderErrorList());
if (next !== text) writeFileSync(file, next);
console.log(next === text ? 'docs/cli.md: error list up to date' : 'docs/cli.md: error list written');
