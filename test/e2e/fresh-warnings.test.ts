/**
 * A lesson whose text gives warnings of its own (mdBook's `<Listing>` tags, as in the Rust
 * book; a GitBook template tag coursesync does not run, as in the Django Girls tutorial),
 * through the built CLI against the emulator: apply records the warnings with the lesson's
 * build; a fresh checkout (the committed state, no cache) plans with no lesson compiled
 * and prints the same warnings, at the same places, as a cold validate; the tag removed, the
 * lesson compiles again and the warnings are gone.
 */
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { useTestSchool } from '../apply/helpers.js';
import { runCli } from './helpers.js';
import { ciCheckout, fixtureWorkspace, schoolRun, type OdinWorkspace } from './odin-workspace.js';

const BOOK = path.resolve(import.meta.dirname, '../fixtures/repos/includes');
const GAME = 'book/02-guessing-game/01-guessing-game.md';
const LISTING = '\n<Listing number="2-1" file-name="src/main.rs" caption="Getting a guess from the user">\n\nA guess, read from standard input.\n\n</Listing>\n\n{% filename %}command-line{% endfilename %}\n';

let emu: RunningEmulator;
let school: Record<string, string>;
let workspace: OdinWorkspace;
const env = (debug = false) => schoolRun(school, debug);
const warnings = (text: string) => text.split('\n').filter((l) => l.includes('[lesson/unknown-element]') || l.includes('[include/unsupported]'));

useTestSchool((e, vars) => {
  emu = e;
  school = vars;
});
beforeEach(async () => {
  workspace = await fixtureWorkspace(emu, 'coursesync-fresh-warnings-', BOOK, 'http://assets.test/book/');
  await appendFile(path.join(workspace.repo, GAME), LISTING);
  expect((await runCli(['assets', workspace.repo, '--out', workspace.published])).code).toBe(0);
  const applied = await runCli(['apply', workspace.repo, '--yes'], env());
  expect(applied.code).toBe(0);
});
afterEach(async () => {
  await workspace.close();
});

const checkout = () => ciCheckout(workspace);

describe('a fresh checkout of a course whose lesson warns about its own HTML', () => {
  it('takes every lesson from the state and warns where a cold validate does', async () => {
    const state = await readFile(path.join(workspace.repo, '.coursesync/state.json'), 'utf8');
    const line = state.split('\n').find((l) => l.includes('"path":"01-guessing-game.md"'));
    expect(line).toContain('{"code":"lesson/unknown-element"');
    expect(line).toContain('{"code":"include/unsupported"');
    const clone = await checkout();
    const cold = await ciCheckout(workspace, { state: false });
    const expected = warnings((await runCli(['validate', cold], env())).stderr);
    expect(expected).toHaveLength(2);
    expect(expected[0]).toMatch(new RegExp(`^${GAME}:\\d+:1 warning <Listing number="2-1"`));
    expect(expected[1]).toMatch(new RegExp(`^${GAME}:\\d+:1 warning \\{% filename %\\} is a template tag`));

    const plan = await runCli(['plan', clone, '--detailed-exitcode'], env(true));
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain('debug: 0 lesson files compiled, 2 known unchanged from the state');
    expect(warnings(plan.stdout + plan.stderr)).toEqual(expected);
    const validate = await runCli(['validate', await checkout()], env(true));
    expect(warnings(validate.stderr)).toEqual(expected);
  }, 60_000);

  it('compiles the lesson again once the tag is gone, and the warning with it', async () => {
    const clone = await checkout();
    const file = path.join(clone, GAME);
    await writeFile(file, (await readFile(file, 'utf8')).replace(LISTING, '\n'));
    const plan = await runCli(['plan', clone, '--detailed-exitcode'], env(true));
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain('debug: 1 lesson files compiled, 1 known unchanged from the state');
    expect(warnings(plan.stdout + plan.stderr)).toEqual([]);
  }, 60_000);
});
