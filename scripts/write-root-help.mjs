// Writes dist/cli/root-help.json: the root's --help as the real commander program prints it,
// its width-dependent pieces kept apart (src/cli/root-help.ts), so that `coursesync --help`
// loads neither commander nor any command module. Run by `npm run build` after tsc (and by
// test/global-build.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { programFor } from '../dist/cli/program.js';
import { helpPieces } from '../dist/cli/root-help.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const program = await programFor(version, ['--help']);
writeFileSync(new URL('../dist/cli/root-help.json', import.meta.url), `${JSON.stringify(helpPieces(program))}\n`);
