/**
 * The plan memo, through the built CLI: a Rust-book-like course (listings included from outside
 * the book, a partial with an image, variables) applied to the emulator, then planned without a
 * token, as an author does. A plan of unchanged inputs answers from the memo (no compiler, no
 * planner loaded: the loads are recorded by test/cli/record-loads.mjs) with exactly what
 * compiling gives; any changed input (a listing, the image, a section, the config, the state,
 * an environment variable, a flag) gives the answer compiling gives, and undoing it answers
 * from the memo again. The control for each case is the same command with the memo removed.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';
import { provenCodeDigest } from '../../src/load/compiler-id.js';
import { SECRET, useTestSchool } from '../apply/helpers.js';
import { CLI, MODULE_CLI, runCli } from './helpers.js';
import { appliedWorkspace, type OdinWorkspace } from './odin-workspace.js';

const BOOK = path.resolve(import.meta.dirname, '../fixtures/repos/includes');
const PRELOAD = pathToFileURL(path.join(import.meta.dirname, '../cli/record-loads.mjs')).href;
const MEMO = '.coursesync/cache/plan.json';
const LISTING = 'listings/ch01-hello/src/main.rs';
const IMAGE = 'book/img/ferris.png';

let emu: RunningEmulator;
let school: Record<string, string>;
let workspace: OdinWorkspace;
let repo: string;
const logs = await mkdtemp(path.join(tmpdir(), 'coursesync-plan-memo-loads-'));
afterAll(() => rm(logs, { recursive: true, force: true }));

useTestSchool((e, vars) => {
  emu = e;
  school = vars;
});
beforeEach(async () => {
  workspace = await appliedWorkspace(emu, 'coursesync-plan-memo-', BOOK, 'http://assets.test/book/', { ...school, COURSESYNC_RENDER_THREADS: '1' });
  repo = workspace.repo;
});
afterEach(() => workspace.close());

interface Answer {
  code: number;
  stdout: string;
  stderr: string;
  /** Whether the run compiled and planned (false: answered from the memo). */
  compiled: boolean;
}

let runs = 0;
/**
 * `coursesync plan <repo> …args` without a token (unless `env` gives one), and whether it
 * compiled: by the module build, its loads recorded (a module a file: build-plan.js loaded or
 * not); by the bundle, whose commands are one file, its COURSESYNC_DEBUG=timing marks (the
 * frame marked or not; the marks, which leave the memo on, are not part of the answer).
 */
async function plan(args: string[] = [], env: Record<string, string> = {}, cli = MODULE_CLI): Promise<Answer> {
  if (cli === CLI) {
    const r = await runCli(['plan', repo, ...args], { COURSESYNC_RENDER_THREADS: '1', COURSESYNC_DEBUG: 'timing', ...env }, undefined, cli);
    return { ...r, stderr: r.stderr.replace(/^debug: \d+ ms .*\n/gm, ''), compiled: /^debug: \d+ ms compile: framed/m.test(r.stderr) };
  }
  const log = path.join(logs, `${++runs}.txt`);
  await writeFile(log, '');
  const r = await runCli(['plan', repo, ...args], { COURSESYNC_RENDER_THREADS: '1', NODE_OPTIONS: `--import=${PRELOAD}`, COURSESYNC_LOAD_LOG: log, ...env }, undefined, cli);
  const loads = await readFile(log, 'utf8');
  return { ...r, compiled: /\/dist\/sync\/build-plan\.js$/m.test(loads) };
}

/** What compiling gives for the same command: the memo removed first. */
async function compiled(args: string[] = [], env: Record<string, string> = {}): Promise<Answer> {
  await rm(path.join(repo, MEMO), { force: true });
  const r = await plan(args, env);
  expect(r.compiled).toBe(true);
  return r;
}

const shown = (a: Answer) => ({ code: a.code, stdout: a.stdout, stderr: a.stderr });

/** Replace `from` (which the file must hold) by `to` in `file` of the repo. */
async function change(file: string, from: string | Buffer, to: string | Buffer): Promise<() => Promise<void>> {
  const abs = path.join(repo, file);
  const before = await readFile(abs);
  const after = typeof from === 'string' ? Buffer.from(before.toString('utf8').replace(from, to as string)) : Buffer.concat([before, to as Buffer]);
  expect(after.equals(before), `${file} changed`).toBe(false);
  await writeFile(abs, after);
  return () => writeFile(abs, before);
}

describe('a plan of inputs unchanged since a plan that found nothing to do', () => {
  it('answers from the memo, loading no compiler, with what compiling gives in every format', async () => {
    for (const args of [[], ['--json'], ['--format', 'markdown'], ['--detailed-exitcode']]) {
      const truth = await compiled(args);
      expect(truth.code, truth.stderr).toBe(ExitCode.Ok);
      const again = await plan(args);
      expect(again.compiled, args.join(' ')).toBe(false);
      expect(shown(again)).toEqual(shown(truth));
    }
    expect((await plan()).stdout).toContain('No changes.');
    // The bundle, as the package installs it: the same answer from the memo, no compiler loaded.
    const truth = await compiled(['--detailed-exitcode']);
    await rm(path.join(repo, MEMO), { force: true });
    expect((await plan(['--detailed-exitcode'], {}, CLI)).compiled).toBe(true);
    const bundled = await plan(['--detailed-exitcode'], {}, CLI);
    expect(bundled.compiled).toBe(false);
    expect(shown(bundled)).toEqual(shown(truth));
  });

  it('any changed input gives what compiling gives; undone, the memo answers again', async () => {
    const first = await compiled(['--detailed-exitcode']);
    expect(first.code).toBe(ExitCode.Ok);
    const cases: Array<{ name: string; make: () => Promise<() => Promise<void>>; args?: string[]; env?: Record<string, string>; expect: (a: Answer) => void }> = [
      { name: 'an included listing', make: () => change(LISTING, 'println!', 'print!'), expect: (a) => expect(a.code).toBe(ExitCode.Changes) },
      { name: 'the image a partial shows', make: () => change(IMAGE, Buffer.alloc(0), Buffer.from('more bytes')), expect: (a) => expect(a.code).toBe(ExitCode.Changes) },
      { name: 'a section file', make: () => change('book/01-getting-started/section.yaml', 'id: sec_start\n', 'id: sec_start\nlesson_defaults:\n  drip_delay: 3\n'), expect: (a) => expect(a.code).toBe(ExitCode.Changes) },
      { name: 'a variable in coursesync.yaml', make: () => change('coursesync.yaml', 'edition: 2021', 'edition: 2024'), expect: (a) => expect(a.code).toBe(ExitCode.Changes) },
      {
        name: 'the state (a lesson no longer tracked)',
        make: async () => {
          const state = path.join(repo, '.coursesync/state.json');
          const before = await readFile(state);
          const rm = await runCli(['state', 'rm', 'hello-world', '--dir', repo]);
          expect(rm.code, rm.stderr).toBe(0);
          return () => writeFile(state, before);
        },
        expect: (a) => expect(a.code).toBe(ExitCode.Changes),
      },
      { name: 'COURSESYNC_BASE_URL naming another school', make: async () => async () => {}, env: { COURSESYNC_BASE_URL: 'http://127.0.0.1:9/api/v1' }, expect: (a) => expect(a.code).not.toBe(ExitCode.Ok) },
      { name: '--env in a repo without environments', make: async () => async () => {}, args: ['--env', 'staging'], expect: (a) => expect(a.code).toBe(ExitCode.Usage) },
      { name: 'a token (section ids are then checked: no note)', make: async () => async () => {}, env: { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: school.COURSESYNC_BASE_URL! }, expect: (a) => expect(a.stderr).not.toContain('not checked') },
      { name: 'a damaged memo', make: async () => (await writeFile(path.join(repo, MEMO), '{"memo":"coursesync-plan-memo/1 0 COURSESYNC_TOKEN","entries":{\n"plan":{"changes":[]}\n}}\n'), async () => {}), expect: (a) => expect(a.code).toBe(ExitCode.Ok) },
    ];
    for (const c of cases) {
      // The memo holds the unchanged repo's answer before each case.
      expect((await plan(['--detailed-exitcode'])).compiled, c.name).toBe(false);
      const undo = await c.make();
      const args = ['--detailed-exitcode', ...(c.args ?? [])];
      const got = await plan(args, c.env);
      expect(got.compiled, c.name).toBe(true);
      c.expect(got);
      if (c.name !== 'a damaged memo') expect(shown(got), c.name).toEqual(shown(await compiled(args, c.env)));
      await undo();
      const undone = await plan(['--detailed-exitcode']);
      expect(shown(undone), c.name).toEqual(shown(first));
      // Undone, the inputs are the memo's again (a change that kept nothing), or the plan kept them anew.
      expect((await plan(['--detailed-exitcode'])).compiled, `${c.name}, undone`).toBe(false);
    }
  });

  it('a hit whose proof of the code went stale (a rebuild, the same code) renews the proof', async () => {
    expect((await compiled(['--detailed-exitcode'])).code).toBe(ExitCode.Ok);
    expect((await plan(['--detailed-exitcode'])).compiled).toBe(false);
    const memoFile = path.join(repo, MEMO);
    const codeOf = async () => {
      const line = (await readFile(memoFile, 'utf8')).split('\n').find((l) => l.startsWith('"code":'))!;
      return JSON.parse(line.slice('"code":'.length).replace(/,$/, '')) as { digest: string; since: string; stats: string[] };
    };
    // As a rebuild leaves it: one module's stat data no longer the proof's.
    const fresh = await codeOf();
    const [first, ...rest] = fresh.stats;
    const stale = { ...fresh, stats: [first!.replace(/\0(\d+)\0/, (_, size: string) => `\0${Number(size) + 1}\0`), ...rest] };
    expect(provenCodeDigest(stale)).toBeUndefined();
    const text = await readFile(memoFile, 'utf8');
    await writeFile(memoFile, text.replace(JSON.stringify(fresh), JSON.stringify(stale)));
    expect((await codeOf()).stats[0]).toBe(stale.stats[0]);
    const hit = await plan(['--detailed-exitcode']);
    expect(hit.compiled).toBe(false);
    expect(hit.code).toBe(ExitCode.Ok);
    const renewed = await codeOf();
    expect(provenCodeDigest(renewed)).toBe(fresh.digest);
  });

  it('a plan that talks to the school, or finds a change, keeps nothing; no token is ever written', async () => {
    await rm(path.join(repo, MEMO), { force: true });
    const checked = await plan([], { ...school });
    expect(checked.code, checked.stderr).toBe(ExitCode.Ok);
    expect(checked.compiled).toBe(true);
    await expect(readFile(path.join(repo, MEMO))).rejects.toThrow(/ENOENT/);
    const undo = await change(LISTING, 'println!', 'print!');
    expect((await plan(['--detailed-exitcode'])).code).toBe(ExitCode.Changes);
    await expect(readFile(path.join(repo, MEMO))).rejects.toThrow(/ENOENT/);
    await undo();
    // A token given but no request made (a --token-file is never memoized; an empty token is no token).
    const tokenFile = path.join(workspace.work, 'token');
    await writeFile(tokenFile, `${SECRET}\n`);
    expect((await plan(['--token-file', tokenFile, '--base-url', 'http://127.0.0.1:9/api/v1'])).compiled).toBe(true);
    expect((await plan([], { COURSESYNC_TOKEN: '' })).compiled).toBe(true);
    expect((await plan([], { COURSESYNC_TOKEN: '' })).compiled).toBe(false);
    expect((await plan()).compiled).toBe(true); // unset is not empty: another note
    const memo = await readFile(path.join(repo, MEMO), 'utf8');
    expect(memo).toContain('"changes":[]');
    expect(memo).not.toContain(SECRET);
  });
});
