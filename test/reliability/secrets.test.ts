/**
 * Secrets (docs/cli.md): every command of the built CLI — found by walking the
 * commander tree, so new commands are covered too — is run with a recognisable token, on
 * success paths, error paths (404, a wrong token, missing arguments) and with --json; stdout,
 * stderr, the state, saved plans, the step summary, everything under .coursesync/ (the
 * cache included) and the command's code cache must never hold the token. Also: no option
 * takes the token (only --token-file), http:// is refused unless loopback, the Authorization
 * header never follows a redirect to another host, and GitHub workflow commands cannot be
 * injected through file or lesson names.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { CLI, copyExamples, lesson, removeRepos, runCli, writeRepo, type CliResult } from '../e2e/helpers.js';
import { allCommands, buildProgram, hasOption, leafCommands } from './commands.js';

const TOKEN = 'tok_RELIABILITY_5ecret_7f3a9d';
/** SECRETS_FULL=1 (npm run test:reliability:full): every command with both tokens and without arguments, and every command against each refused URL. */
const FULL = process.env.SECRETS_FULL === '1';
const WRONG = 'tok_WRONG_5ecret_c0ffee';
const SEED = { ...DEFAULT_SEED, api_keys: [{ token: TOKEN, programs: 'all' as const }] };

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: SEED, operationDelayMs: 10 });
});
afterAll(async () => {
  await emu?.close();
  await removeRepos();
});

/** Every file under `dir` (following nothing), as text. */
async function filesUnder(dir: string): Promise<Array<{ path: string; text: string }>> {
  const out: Array<{ path: string; text: string }> = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.push({ path: p, text: await readFile(p, 'latin1') });
    }
  };
  await walk(dir);
  return out;
}

const WEBHOOKS_YAML = `- webhook_url: https://hooks.example.com/coursesync
  event_type: new_payment
  provider: ci
`;

/** Run `jobs` at most `n` at a time. */
async function pool<T>(jobs: Array<() => Promise<T>>, n: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      for (let i = next++; i < jobs.length; i = next++) results[i] = await jobs[i]!();
    }),
  );
  return results;
}

describe('the token never appears', () => {
  it('in the output of every command (success, error paths, --json), the state, plans, the step summary or .coursesync/', async () => {
    const dir = await copyExamples();
    await writeFile(join(dir, 'webhooks.yaml'), WEBHOOKS_YAML);
    const tokenFile = join(dir, '..', `token-${Date.now()}.txt`);
    await writeFile(tokenFile, TOKEN + '\n');
    const summary = join(dir, 'step-summary.md');
    // The built command's code cache of these runs alone, to read through below.
    const codeCache = join(dir, '..', `code-cache-${Date.now()}`);
    const env = { COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, COURSESYNC_CODE_CACHE: codeCache };
    const results: Array<{ args: string[]; r: CliResult }> = [];
    const run = async (args: string[], extra: Record<string, string> = {}) => {
      const r = await runCli(args, { ...env, ...extra }, dir);
      results.push({ args, r });
      return r;
    };

    // Success paths, in an order that makes each meaningful (apply before refresh, …).
    expect((await run(['validate', '.'])).code).toBe(0);
    if (FULL) expect((await run(['validate', '.', '--format', 'json'])).code).toBe(0);
    expect((await run(['plan', '.', '--out', 'plan.json', '--format', 'markdown'])).code).toBe(0);
    expect((await run(['apply', 'plan.json', '--yes'])).code).toBe(0);
    expect((await run(['plan', '.', '--refresh', '--json'])).code).toBe(0);
    expect((await run(['plan', '.', '--refresh', '--token-file', tokenFile], { COURSESYNC_TOKEN: '' })).code).toBe(0);
    expect((await run(['webhooks', 'plan', '.', '--json'])).code).toBe(0);
    expect((await run(['webhooks', 'apply', '.', '--yes'])).code).toBe(0);
    expect((await run(['webhooks', 'list', '--json'])).code).toBe(0);
    expect((await run(['members', 'list', '--json'])).code).toBe(0);
    if (FULL) {
      expect((await run(['members', 'get', '--id', 'mem_1'])).code).toBe(0);
      expect((await run(['members', 'accesses', '--json'])).code).toBe(0);
      expect((await run(['offers', 'get', 'off_pro', '--json'])).code).toBe(0);
      expect((await run(['custom-code', 'pull', '--json'])).code).toBe(0);
      expect((await run(['sections', 'list', 'prog_intro', '--json'])).code).toBeLessThanOrEqual(1);
    }

    // Every command, generically: required arguments filled with names that do not exist,
    // with the right token and a wrong one, plain and with --json / --yes where it has them.
    const program = await buildProgram();
    const jobs: Array<() => Promise<unknown>> = [];
    for (const leaf of leafCommands(program)) {
      if (leaf.path[0] === 'emulator' || leaf.path[0] === 'preview') continue; // servers: the emulator is run below, preview in test/preview/
      const args = leaf.command.registeredArguments.filter((a) => a.required).map((a) => (/dir/.test(a.name()) ? 'intro-to-typescript/01-getting-started' : 'nope_404'));
      const flags = [...(hasOption(leaf.command, '--json') ? ['--json'] : []), ...(hasOption(leaf.command, '--yes') ? ['--yes'] : [])];
      // The wrong token: the 401 path, where a careless message would quote the header.
      jobs.push(() => run([...leaf.path, ...args, ...flags], { COURSESYNC_TOKEN: WRONG }));
      if (FULL) {
        jobs.push(() => run([...leaf.path, ...args, ...flags]));
        if (args.length > 0) jobs.push(() => run([...leaf.path])); // missing arguments
      }
    }
    await pool(jobs, 4);

    // Error paths of the token itself: a wrong token through --token-file, and a refused refresh.
    const wrongFile = join(dir, '..', `wrong-${Date.now()}.txt`);
    await writeFile(wrongFile, WRONG);
    const refused = await run(['plan', '.', '--refresh', '--token-file', wrongFile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the API token/);

    const texts = results.flatMap(({ args, r }) => [
      { where: `stdout of ${args.join(' ')}`, text: r.stdout },
      { where: `stderr of ${args.join(' ')}`, text: r.stderr },
    ]);
    for (const f of await filesUnder(join(dir, '.coursesync'))) texts.push({ where: f.path, text: f.text });
    const cached = await filesUnder(codeCache);
    expect(cached.length, 'the runs kept their compiled code').toBeGreaterThan(5);
    for (const f of cached) texts.push({ where: f.path, text: f.text });
    texts.push({ where: 'plan.json', text: await readFile(join(dir, 'plan.json'), 'utf8') });
    texts.push({ where: 'GITHUB_STEP_SUMMARY', text: await readFile(summary, 'utf8') });
    for (const f of await filesUnder(dir)) if (f.path.endsWith('.md') || f.path.endsWith('.yaml')) texts.push({ where: f.path, text: f.text });
    const leaks = texts.filter((t) => t.text.includes(TOKEN) || t.text.includes(WRONG)).map((t) => t.where);
    expect(leaks).toEqual([]);
    expect(results.length).toBeGreaterThan(FULL ? 50 : 30);
    // Nothing crashed on the way.
    const crashes = results.filter(({ r }) => /internal error|^\s+at .+:\d+:\d+\)?$/m.test(r.stderr)).map(({ args, r }) => `${args.join(' ')}: ${r.stderr.slice(0, 400)}`);
    expect(crashes).toEqual([]);
    await rm(codeCache, { recursive: true, force: true });
  }, 240_000);

  it('in the emulator command: its output, and a seed error that quotes the file', async () => {
    const dir = await writeRepo({
      'seed.yaml': `api_keys:\n  - token: ${TOKEN}\n    programs: all\nprograms: []\n`,
      'bad-seed.yaml': `api_keys:\n  - token: ${TOKEN}\n    programs: [\n`,
      'wrong-seed.yaml': `api_keys:\n  - token: ${TOKEN}\n    programs: 7\n`,
    });
    for (const seed of ['bad-seed.yaml', 'wrong-seed.yaml']) {
      const r = await runCli(['emulator', '--port', '0', '--seed', join(dir, seed)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(seed));
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
    }
    // A running emulator, asked with the token and with a wrong one, then stopped.
    const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0', '--seed', join(dir, 'seed.yaml')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const url = await new Promise<string>((resolve) => {
      const check = () => {
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
        else child.stdout.once('data', check);
      };
      check();
    });
    for (const t of [TOKEN, WRONG]) {
      const res = await fetch(`${url}/custom_code`, { headers: { authorization: `Bearer ${t}` } });
      expect(await res.text()).not.toContain(t);
    }
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(WRONG);
  });
});

describe('the token is never a flag', () => {
  it('no option of any command mentions a token, except --token-file (shell history, process lists)', async () => {
    const program = await buildProgram();
    const commands = allCommands(program);
    expect(commands.length).toBeGreaterThan(15);
    const offenders: string[] = [];
    for (const { path, command } of commands) {
      for (const o of command.options) if (/token|secret|password|api[-_]?key/i.test(o.flags) && o.long !== '--token-file') offenders.push(`${path.join(' ')} ${o.flags}`);
      for (const a of command.registeredArguments) if (/token|secret/i.test(a.name())) offenders.push(`${path.join(' ')} <${a.name()}>`);
    }
    expect(offenders).toEqual([]);
    // and every command that talks to the school offers --token-file
    const talkers = commands.filter((c) => hasOption(c.command, '--base-url'));
    expect(talkers.length).toBeGreaterThan(10);
    expect(talkers.filter((c) => !hasOption(c.command, '--token-file')).map((c) => c.path.join(' '))).toEqual([]);
  });
});

/** Options that get each command past its own argument checks, to the connection. */
const GOOD_ARGS: Record<string, string[]> = {
  'badges award': ['--badge-id', 'bdg_finisher', '--member-id', 'mem_1'],
  'duplicate lesson': ['--to', 'sec_types'],
  'duplicate section': ['--to', 'sec_types'],
  clone: ['--section', 'sec_types'],
  import: ['--key', 'welcome'],
  'members get': ['--id', 'mem_1'],
};

describe('plain http:// only to loopback', () => {
  it.each([
    ['http://school.example.com/api/v1', `every command that talks to the school${FULL ? '' : ' (CI: plan, apply, members list, webhooks list)'}`],
    ['http://127.0.0.1.nip.io/api/v1', 'members list and plan --refresh'],
    ['http://10.0.0.7/api/v1', 'members list and plan --refresh'],
    ['http://[::ffff:10.0.0.1]/api/v1', 'members list and plan --refresh'],
  ])('%s is refused by %s, before any request', async (url, which) => {
    const dir = await copyExamples();
    await writeFile(join(dir, 'webhooks.yaml'), WEBHOOKS_YAML);
    const program = await buildProgram();
    const talkers = leafCommands(program).filter(
      (c) => hasOption(c.command, '--base-url') && ((FULL && which.startsWith('every')) || ['members list', 'plan', 'apply', 'webhooks list'].includes(c.path.join(' '))),
    );
    const results = await pool(
      talkers.map((leaf) => () => {
        // A folder argument names the example section; one that must be new (clone's <new-dir>), a folder beside it.
        const args = leaf.command.registeredArguments.filter((a) => a.required).map((a) => (/new-dir/.test(a.name()) ? 'intro-to-typescript/09-copy' : /dir/.test(a.name()) ? 'intro-to-typescript/01-getting-started' : 'x_1'));
        const extra = hasOption(leaf.command, '--yes') ? ['--yes'] : [];
        const refresh = leaf.path[0] === 'plan' ? ['--refresh'] : [];
        const good = GOOD_ARGS[leaf.path.join(' ')] ?? [];
        return runCli([...leaf.path, ...args, ...good, ...extra, ...refresh, '--base-url', url], { COURSESYNC_TOKEN: TOKEN }, dir).then((r) => ({ leaf, r }));
      }),
      4,
    );
    const wrong = results.filter(({ r }) => r.code !== 1 || !/plain http:\/\/|https:\/\//.test(r.stderr)).map(({ leaf, r }) => `${leaf.path.join(' ')}: exit ${r.code} ${r.stderr.slice(0, 200)}`);
    expect(wrong).toEqual([]);
    for (const { r } of results) expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });
});

describe('redirects', () => {
  let redirector: Server;
  let elsewhere: Server;
  const seen: IncomingHttpHeaders[] = [];
  let redirectUrl = '';
  beforeAll(async () => {
    elsewhere = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"members":[],"pagination":{"total_count":0,"total_pages":0,"current_page":1}}');
    });
    // Another host: 127.0.0.2 is loopback on Linux, but not the host the token was meant for.
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.2', r));
    const target = `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}`;
    redirector = createServer((req, res) => {
      res.writeHead(307, { location: `${target}${req.url}` }).end();
    });
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    redirectUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}/api/v1`;
  });
  afterAll(async () => {
    await new Promise((r) => redirector?.close(r));
    await new Promise((r) => elsewhere?.close(r));
  });

  it('the Authorization header is never sent across a redirect to another host (the redirect is refused)', async () => {
    const dir = await copyExamples();
    const runs = await Promise.all([
      runCli(['members', 'list', '--base-url', redirectUrl], { COURSESYNC_TOKEN: TOKEN }, dir),
      runCli(['plan', '.', '--refresh', '--base-url', redirectUrl], { COURSESYNC_TOKEN: TOKEN }, dir),
      runCli(['webhooks', 'list', '--base-url', redirectUrl], { COURSESYNC_TOKEN: TOKEN }, dir),
    ]);
    // plan --refresh has no tracked lesson to read here, so it makes no request at all
    for (const r of [runs[0]!, runs[2]!]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/redirect/);
      expect(r.stdout + r.stderr).not.toContain(TOKEN);
    }
    expect(seen.filter((h) => h.authorization !== undefined)).toEqual([]);
    expect(seen).toEqual([]);
  });
});

describe('GitHub workflow commands cannot be injected', () => {
  /** Lines that GitHub Actions would read as workflow commands, other than our own annotations. */
  function injected(text: string): string[] {
    return text.split(/\r?\n/).filter((l) => /^\s*::/.test(l) && !/^::(error|warning) file=[^:\n]*(,line=\d+)?(,col=\d+)?,title=[^:\n]*::/.test(l));
  }

  it('through file names, lesson names, keys and messages, in validate, plan (text, markdown, json) and apply', async () => {
    const evilName = '::error::injected by a name';
    const dir = await writeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\n',
      'p/s/01-fine.md': lesson(`name: "${evilName}\\n::warning::second line\\r::error::after a CR"`),
      'p/s/02-also.md': lesson('name: "::set-output name=x::y"\ndescription: "::add-mask::z"'),
    });
    const env = { COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
    const outputs: CliResult[] = [];
    outputs.push(await runCli(['validate', dir], env));
    for (const format of ['text', 'markdown', 'json']) outputs.push(await runCli(['plan', dir, '--format', format], env));
    outputs.push(await runCli(['apply', dir, '--yes'], env));
    outputs.push(await runCli(['plan', dir, '--refresh'], env));
    // A file whose name holds a newline and a workflow command, and an invalid field value.
    const bad = await writeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\n',
      'p/s/01-x\n::error::from a file name.md': lesson('name: X'),
      'p/s/02-y.md': lesson('name: Y\nlesson_type: "\\n::error::from a value"'),
      'p/s/03-z\r::warning::cr.md': lesson('name: Z'),
    });
    // A file name that would otherwise be valid (its key is in the front-matter).
    const keyed = await writeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\n',
      'p/s/01-x\n::error::from a keyed file.md': lesson('name: X\nkey: keyed'),
      'p/s\n::error::folder/section.yaml': 'id: sec_types\n',
      'p/s\n::error::folder/01-y.md': lesson('name: Y'),
    });
    for (const args of [['validate', keyed], ['plan', keyed], ['apply', keyed, '--yes']]) {
      const r = await runCli(args, env);
      expect(r.code).toBe(1);
      outputs.push(r);
    }
    for (const args of [['validate', bad], ['plan', bad], ['apply', bad, '--yes'], ['validate', bad, '--format', 'json']]) outputs.push(await runCli(args, env));
    const found = outputs.flatMap((r) => [...injected(r.stdout), ...injected(r.stderr)]);
    expect(found).toEqual([]);
    expect((await stat(join(dir, 'summary.md'))).size).toBeGreaterThan(0);
    expect(injected(await readFile(join(dir, 'summary.md'), 'utf8'))).toEqual([]);
  });
});
