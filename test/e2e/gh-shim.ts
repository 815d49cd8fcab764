/**
 * A `gh` command for workflow tests: `gh api` for the comments of one pull request
 * (repos/acme/course, number 7), kept in the JSON file $GH_SHIM_STORE (created empty when
 * missing), every request logged to $GH_SHIM_STORE.log. Anything else fails loudly.
 */
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * `gh api` for the comments of one pull request, kept in $GH_SHIM_STORE: list (paginated, two
 * per page, printed as gh --paginate prints pages), create and update. Anything else fails.
 */
const GH_SHIM = `
const fs = require('node:fs');
const args = process.argv.slice(2);
const store = process.env.GH_SHIM_STORE;
const fail = (m) => { process.stderr.write('gh shim: ' + m + '\\n'); process.exit(1); };
if (!process.env.GH_TOKEN) fail('no GH_TOKEN');
if (args.shift() !== 'api') fail('only gh api');
let method = 'GET', paginate = false, path, body;
while (args.length) {
  const a = args.shift();
  if (a === '--paginate') paginate = true;
  else if (a === '--method') method = args.shift();
  else if (a === '-F') { const f = args.shift(); if (!f.startsWith('body=@')) fail('field ' + f); body = fs.readFileSync(f.slice(6), 'utf8'); }
  else if (path === undefined) path = a;
  else fail('argument ' + a);
}
const comments = fs.existsSync(store) ? JSON.parse(fs.readFileSync(store, 'utf8')) : [];
fs.appendFileSync(store + '.log', method + ' ' + path + '\\n');
const list = path.match(/^repos\\/acme\\/course\\/issues\\/7\\/comments$/);
const one = path.match(/^repos\\/acme\\/course\\/issues\\/comments\\/(\\d+)$/);
if (method === 'GET' && list) {
  if (!paginate) fail('a list without --paginate misses comments');
  for (let i = 0; i < Math.max(1, comments.length); i += 2) process.stdout.write(JSON.stringify(comments.slice(i, i + 2)));
} else if (method === 'POST' && list && body !== undefined) {
  const c = { id: 1000 + comments.length, body };
  comments.push(c);
  fs.writeFileSync(store, JSON.stringify(comments));
  process.stdout.write(JSON.stringify(c));
} else if (method === 'PATCH' && one && body !== undefined) {
  const c = comments.find((x) => x.id === Number(one[1]));
  if (!c) fail('no comment ' + one[1]);
  c.body = body;
  fs.writeFileSync(store, JSON.stringify(comments));
  process.stdout.write(JSON.stringify(c));
} else fail(method + ' ' + path);
`;

/** The context values the shim answers for (`${{ github.* }}` of a pull-request run). */
export const GH_CONTEXT = {
  'github.repository': 'acme/course',
  'github.event.pull_request.number': '7',
  'github.event.pull_request.head.repo.full_name': 'acme/course',
} as const;

/** Write the shim as `bin/gh` (executable). */
export async function installGhShim(bin: string): Promise<void> {
  await writeFile(join(bin, 'gh'), `#!${process.execPath}\n${GH_SHIM}`);
  await chmod(join(bin, 'gh'), 0o755);
}
