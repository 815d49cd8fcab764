// Writes dist/cli/completion-data.json: the command tree (every command and option, with its
// description) that `coursesync completion` turns into a shell script, so that completion loads
// no command module at run time. Run by `npm run build` after tsc (and by test/global-build.ts).
import { writeFileSync } from 'node:fs';
import { everyCommandTree } from '../dist/cli/completion.js';

writeFileSync(new URL('../dist/cli/completion-data.json', import.meta.url), `${JSON.stringify(await everyCommandTree())}\n`);
