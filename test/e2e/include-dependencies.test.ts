/**
 * Dependencies in the plan, through the built CLI against the emulator and a static host for the
 * images: a Rust-book-like course (code listings included by anchor and line range, a partial
 * with an image and a link, variables) applied, then planned from a fresh checkout (no cache):
 * nothing changes; editing a listing, the partial, a variable or the image changes exactly the
 * lessons that use it, and the plan names what changed, in text, Markdown and JSON.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import type { Plan } from '../../src/plan/plan-schema.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { lessonCalls, useTestSchool } from '../apply/helpers.js';
import { runCli } from './helpers.js';
import { appliedWorkspace, type OdinWorkspace } from './odin-workspace.js';

const BOOK = path.resolve(import.meta.dirname, '../fixtures/repos/includes');
const HELLO = 'book/01-getting-started/01-hello-world.md';
const GAME = 'book/02-guessing-game/01-guessing-game.md';

let emu: RunningEmulator;
let school: Record<string, string>;
let workspace: OdinWorkspace;
let repo: string;
const env = () => ({ ...school, COURSESYNC_RENDER_THREADS: '1' });

useTestSchool((e, vars) => {
  emu = e;
  school = vars;
});
beforeEach(async () => {
  workspace = await appliedWorkspace(emu, 'coursesync-include-deps-', BOOK, 'http://assets.test/book/', env());
  repo = workspace.repo;
});
afterEach(async () => {
  await workspace.close();
});

/** A checkout of `dir` as CI has it: the files and the committed state, no cache. */
async function freshCheckout(dir = repo): Promise<string> {
  const clone = path.join(workspace.work, `clone-${Math.random().toString(36).slice(2, 8)}`);
  await cp(dir, clone, { recursive: true, filter: (src) => path.basename(src) !== 'cache' && !src.endsWith('.lock') });
  return clone;
}

/** Replace `from` (which the file must hold) by `to` in `file` of `dir`. */
async function change(dir: string, file: string, from: string, to: string): Promise<void> {
  const text = await readFile(path.join(dir, file), 'utf8');
  expect(text, file).toContain(from);
  await writeFile(path.join(dir, file), text.replace(from, to));
}

/** The plan of `dir` as JSON: each call's path and reasons. */
async function planOf(dir: string): Promise<Array<[string, string[]]>> {
  const r = await runCli(['plan', dir, '--json'], env());
  expect(r.stderr).toBe('');
  const plan = JSON.parse(r.stdout) as Plan;
  return plan.changes.filter(isCall).map((s) => [s.path, s.why ?? []]);
}

describe('includes and variables as dependencies of the plan', () => {
  it('a fresh checkout of an unchanged book plans no change and sends nothing', async () => {
    const clone = await freshCheckout();
    const before = lessonCalls(emu);
    const r = await runCli(['plan', clone, '--detailed-exitcode'], env());
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No changes. 2 lessons unchanged.');
    expect(await planOf(clone)).toEqual([]);
    expect(lessonCalls(emu)).toBe(before);
  });

  it('an edited code listing changes only the lesson including it, and the plan says which file, in every format', async () => {
    const clone = await freshCheckout();
    await change(clone, 'listings/ch01-hello/src/main.rs', 'println!("Hello, world!");', 'println!("Hello, Ferris!");');
    expect(await planOf(clone)).toEqual([[HELLO, ['listings/ch01-hello/src/main.rs changed']]]);
    const text = await runCli(['plan', clone], env());
    expect(text.stdout).toContain(`~ ${HELLO} (`);
    expect(text.stdout).toContain('listings/ch01-hello/src/main.rs changed');
    expect(text.stdout).not.toContain(GAME);
    const markdown = await runCli(['plan', clone, '--format', 'markdown'], env());
    expect(markdown.stdout).toContain('listings/ch01-hello/src/main.rs changed');
    // Where the last apply ran (stat index, lesson and render caches warm), the same.
    await change(repo, 'listings/ch01-hello/src/main.rs', 'println!("Hello, world!");', 'println!("Hello, Ferris!");');
    expect(await planOf(repo)).toEqual([[HELLO, ['listings/ch01-hello/src/main.rs changed']]]);
    // Applied, the next plan from another fresh checkout is empty again.
    expect((await runCli(['apply', clone, '--yes'], env())).code).toBe(0);
    expect(await planOf(await freshCheckout(clone))).toEqual([]);
  });

  it('an edited partial, variable or image changes exactly the lessons using it, each named', async () => {
    let clone = await freshCheckout();
    await change(clone, 'book/_partials/install-note.md', 'keep Ferris close by', 'keep Ferris, the crab, close by');
    expect(await planOf(clone)).toEqual([
      [HELLO, ['book/_partials/install-note.md changed']],
      [GAME, ['book/_partials/install-note.md changed']],
    ]);

    // `edition` is used by one lesson; `rust_version` (the program's value wins) by both, through the partial.
    clone = await freshCheckout();
    await change(clone, 'coursesync.yaml', 'edition: 2021', 'edition: 2024');
    expect(await planOf(clone)).toEqual([[HELLO, ['variable vars.edition changed']]]);
    await change(clone, 'coursesync.yaml', 'rust_version: "1.78"', 'rust_version: "1.79"');
    expect(await planOf(clone)).toEqual([[HELLO, ['variable vars.edition changed']]]);
    await change(clone, 'book/program.yaml', 'rust_version: "1.80"', 'rust_version: "1.81"');
    expect(await planOf(clone)).toEqual([
      [HELLO, ['variable vars.edition changed', 'variable vars.rust_version changed']],
      [GAME, ['variable vars.rust_version changed']],
    ]);

    clone = await freshCheckout();
    const png = path.join(clone, 'book/img/ferris.png');
    await writeFile(png, Buffer.concat([await readFile(png), Buffer.from('edited')]));
    expect(await planOf(clone)).toEqual([
      [HELLO, ['image book/img/ferris.png changed']],
      [GAME, ['image book/img/ferris.png changed']],
    ]);
  });
});
