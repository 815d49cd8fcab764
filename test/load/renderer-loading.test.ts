/**
 * The built CLI loads the Markdown renderer (compile/render.js, over remark and micromark) only
 * when something must be rendered: a plan whose lessons all come from the memo loads none of it; an edited lesson
 * loads it and is rendered. The modules a run loads are recorded by the loader hook the startup
 * test uses (test/cli/record-loads.mjs). The packages under it are one bundled file in the build.
 * Nor does a plan without a token load the school's client and its wire schemas.
 */
import { spawnSync } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';
import { lesson, MODULE_CLI, removeRepos, runCli, writeRepo, type CliResult } from '../e2e/helpers.js';

const PRELOAD = pathToFileURL(join(import.meta.dirname, '../cli/record-loads.mjs')).href;
const logs = await mkdtemp(join(tmpdir(), 'coursesync-renderer-loads-'));
afterAll(async () => {
  await rm(logs, { recursive: true, force: true });
  await removeRepos();
});

/**
 * The renderer: our module that renders Markdown (the packages under it are one bundled file,
 * dist/vendor/html-stack.js, which the HTML checks load too). A run that renders nothing never
 * loads it.
 */
const RENDERER = ['dist/compile/render.js'];

let runs = 0;
async function plan(dir: string, ...flags: string[]): Promise<CliResult & { renderer: string[]; urls: string[] }> {
  const log = join(logs, `${++runs}.txt`);
  const r = await runCli(['plan', dir, ...flags], { NODE_OPTIONS: `--import=${PRELOAD}`, COURSESYNC_LOAD_LOG: log, COURSESYNC_RENDER_THREADS: '1' }, undefined, MODULE_CLI);
  const urls = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  const renderer = RENDERER.filter((m) => urls.some((u) => u.endsWith(`/${m}`)));
  return { ...r, renderer, urls };
}

const NARROWING = lesson(
  'name: Narrowing\nlesson_type: text',
  [
    '# Narrowing',
    '',
    'A value of type `string | number` is narrowed by a check:',
    '',
    '```ts',
    "const pad = (v: string | number) => (typeof v === 'number' ? ' '.repeat(v) : v);",
    '```',
    '',
    '| check | narrows to |',
    '|---|---|',
    '| `typeof x === "string"` | `string` |',
    '',
    'See the [handbook](https://www.typescriptlang.org/docs/handbook/2/narrowing.html).',
  ].join('\n'),
);
const GENERICS = lesson('name: Generics\nlesson_type: text', '# Generics\n\n> A type parameter is a variable for types.\n\n- `Array<T>`\n- `Map<K, V>`\n');

describe('the renderer is loaded only when something must be rendered', () => {
  it('a warm plan with nothing changed loads no remark or micromark; an edited lesson loads and renders', async () => {
    const dir = await writeRepo({
      'ts/program.yaml': 'id: prog_ts\n',
      'ts/01-basics/section.yaml': 'id: sec_basics\n',
      'ts/01-basics/01-narrowing.md': NARROWING,
      'ts/01-basics/02-generics.md': GENERICS,
    });
    const cold = await plan(dir);
    expect(cold.code, cold.stderr).toBe(ExitCode.Ok);
    // The hook sees the renderer when it is loaded: the cold plan rendered both lessons.
    expect(cold.renderer).toEqual(expect.arrayContaining(RENDERER));
    // No token: the school is never asked, so its client is never loaded.
    expect(cold.urls.filter((u) => /\/dist\/(school\/client|school-api\/wire\/index|state\/state-store)\.js$/.test(u))).toEqual([]);

    const warm = await plan(dir);
    expect(warm.code, warm.stderr).toBe(ExitCode.Ok);
    expect(warm.stdout).toBe(cold.stdout);
    expect(warm.renderer.filter((p) => RENDERER.includes(p))).toEqual([]);

    await appendFile(join(dir, 'ts/01-basics/02-generics.md'), '\nA **new** paragraph.\n');
    const edited = await plan(dir);
    expect(edited.code, edited.stderr).toBe(ExitCode.Ok);
    expect(edited.renderer).toEqual(expect.arrayContaining(RENDERER));
    expect(edited.stdout).not.toBe(cold.stdout);
  });

  it('a lesson the memo holds under other settings is compiled after all: the renderer is loaded then, and the plan is right', async () => {
    const dir = await writeRepo({
      'ts/program.yaml': 'id: prog_ts\n',
      'ts/01-basics/section.yaml': 'id: sec_basics\n',
      'ts/01-basics/01-narrowing.md': NARROWING,
      'ts/01-basics/02-generics.md': GENERICS,
    });
    expect((await plan(dir)).code).toBe(ExitCode.Ok);
    // The files are unchanged, so nothing is rendered ahead; their cache keys (which hold the
    // inherited settings) are not, so compile asks for a rendering on this thread.
    await appendFile(join(dir, 'ts/01-basics/section.yaml'), 'lesson_defaults:\n  is_progression_locked: true\n');
    const resettled = await plan(dir, '--json');
    expect(resettled.code, resettled.stderr).toBe(ExitCode.Ok);
    expect(resettled.renderer).toEqual(expect.arrayContaining(RENDERER));
    const creates = (JSON.parse(resettled.stdout) as { changes: Array<{ action: string; key: string; fields: Array<{ field: string; after?: unknown }> }> }).changes;
    expect(creates.map((c) => [c.action, c.key, c.fields.find((f) => f.field === 'is_progression_locked')?.after])).toEqual([
      ['create', 'narrowing', true],
      ['create', 'generics', true],
    ]);
  });

  it('loads the Markdown and HTML packages as the one file the build bundled: no module of node_modules', async () => {
    const log = join(logs, 'render-module.txt');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(join(MODULE_CLI, '../../compile/render.js')).href)})`], {
      env: { ...process.env, NODE_OPTIONS: `--import=${PRELOAD}`, COURSESYNC_LOAD_LOG: log },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const urls = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    expect(urls.some((u) => u.endsWith('/dist/vendor/html-stack.js'))).toBe(true);
    expect(urls.filter((u) => u.includes('/node_modules/'))).toEqual([]);
  });
});
