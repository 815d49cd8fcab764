/**
 * A fresh checkout (CI: no cache, only the committed state) of a course where a published
 * lesson links to a draft, through the built CLI against the emulator: the link-to-draft warning
 * is checked over the link graph, so the linking lesson's build is recorded by apply and the
 * plan takes both lessons from the state unread, yet warns at the same file:line:col as a cold
 * run; an edit compiles the edited lesson only (COURSESYNC_DEBUG=compile counts them); a
 * lesson turned draft by its section's defaults is still warned about where it is linked.
 */
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { useTestSchool } from '../apply/helpers.js';
import { runCli } from './helpers.js';
import { ciCheckout, fixtureWorkspace, schoolRun, type OdinWorkspace } from './odin-workspace.js';

const BOOK = path.resolve(import.meta.dirname, '../fixtures/repos/includes');
const HELLO = 'book/01-getting-started/01-hello-world.md';
const GAME = 'book/02-guessing-game/01-guessing-game.md';
/** A published lesson no other lesson links to, linking to the draft and to COMPARE. */
const CARGO = 'book/01-getting-started/02-hello-cargo.md';
const CARGO_TEXT = `---
name: Hello, Cargo!
---
Cargo is Rust's build system and package manager. Create a project with it:

\`\`\`console
$ cargo new hello_cargo
$ cd hello_cargo
\`\`\`

- \`cargo build\` builds the project
- \`cargo run\` builds and runs it
- \`cargo check\` checks that it compiles, faster than a build

We will use it for [the guessing game](../02-guessing-game/01-guessing-game.md) and for
[comparing guesses](../02-guessing-game/02-comparing.md).
`;
/** A published lesson only CARGO links to, linking to the draft. */
const COMPARE = 'book/02-guessing-game/02-comparing.md';
const COMPARE_TEXT = `---
name: Comparing the Guess to the Secret Number
---
Now that we have user input and a random number, we can compare them. Start from the
program of [the guessing game](01-guessing-game.md) and add:

\`\`\`rust
use std::cmp::Ordering;

match guess.cmp(&secret_number) {
    Ordering::Less => println!("Too small!"),
    Ordering::Greater => println!("Too big!"),
    Ordering::Equal => println!("You win!"),
}
\`\`\`

| variant | meaning |
|---|---|
| \`Less\` | the guess is below the secret |
| \`Greater\` | the guess is above it |
| \`Equal\` | you win |
`;

let emu: RunningEmulator;
let school: Record<string, string>;
let workspace: OdinWorkspace;
let repo: string;
const env = (debug = false) => schoolRun(school, debug);
const drafts = (text: string) => text.split('\n').filter((l) => l.includes('[lesson/link-to-draft]'));

useTestSchool((e, vars) => {
  emu = e;
  school = vars;
});
beforeEach(async () => {
  workspace = await fixtureWorkspace(emu, 'coursesync-fresh-draft-', BOOK, 'http://assets.test/book/');
  repo = workspace.repo;
  const game = path.join(repo, GAME);
  await writeFile(game, (await readFile(game, 'utf8')).replace('---\nname:', '---\nis_published: false\nname:'));
  await appendFile(path.join(repo, HELLO), '\nNext, [the guessing game](../02-guessing-game/01-guessing-game.md), once it is out.\n');
  await writeFile(path.join(repo, CARGO), CARGO_TEXT);
  await writeFile(path.join(repo, COMPARE), COMPARE_TEXT);
  expect((await runCli(['assets', repo, '--out', workspace.published])).code).toBe(0);
  const applied = await runCli(['apply', repo, '--yes'], env());
  expect(applied.code).toBe(0);
});
afterEach(async () => {
  await workspace.close();
});

/** A copy of the repo: as CI checks it out (committed state, no cache), or with no state at all (cold). */
const copy = (state: boolean) => ciCheckout(workspace, { state });

describe('a fresh checkout with a published lesson linking to a draft', () => {
  it('plans no change, compiles nothing, and warns where a cold run does', async () => {
    const cold = await runCli(['validate', await copy(false)], env());
    const coldWarnings = drafts(cold.stdout + cold.stderr);
    expect(coldWarnings).toHaveLength(3);
    expect(coldWarnings[0]).toMatch(new RegExp(`^${HELLO}:\\d+:\\d+ warning the link goes to ${GAME}, a draft`));
    expect(coldWarnings[1]).toMatch(new RegExp(`^${CARGO}:15:20 warning the link goes to ${GAME}, a draft`));
    expect(coldWarnings[2]).toMatch(new RegExp(`^${COMPARE}:5:12 warning the link goes to ${GAME}, a draft`));

    const clone = await copy(true);
    const r = await runCli(['plan', clone, '--detailed-exitcode'], env(true));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('No changes.');
    expect(drafts(r.stdout + r.stderr)).toEqual(coldWarnings);
    expect(r.stderr).toContain('debug: 0 lesson files compiled, 4 known unchanged from the state (0 of them compiled all the same)');
  }, 60_000);

  it('an edit of a lesson linking to the draft compiles that lesson only, with the same warnings', async () => {
    const edit = (dir: string) => appendFile(path.join(dir, CARGO), '\nOne more paragraph, with **emphasis**.\n');
    const coldCopy = await copy(false);
    await edit(coldCopy);
    const cold = await runCli(['validate', coldCopy], env());
    const clone = await copy(true);
    await edit(clone);
    const r = await runCli(['plan', clone, '--detailed-exitcode'], env(true));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('debug: 1 lesson files compiled, 3 known unchanged from the state (0 of them compiled all the same)');
    expect(drafts(r.stdout + r.stderr)).toEqual(drafts(cold.stdout + cold.stderr));
    expect(drafts(r.stdout + r.stderr)).toHaveLength(3);
  }, 60_000);

  it('a lesson turned draft by its section\'s defaults is warned about at every link to it, as a cold run does', async () => {
    const unpublish = (dir: string) => writeFile(path.join(dir, 'book/02-guessing-game/section.yaml'), 'id: sec_types\nlesson_defaults:\n  is_published: false\n');
    const coldCopy = await copy(false);
    await unpublish(coldCopy);
    const cold = drafts((await runCli(['validate', coldCopy], env())).stderr);
    expect(cold).toHaveLength(3);
    expect(cold[2]).toMatch(new RegExp(`^${CARGO}:16:1 warning the link goes to ${COMPARE}, a draft`));
    const clone = await copy(true);
    await unpublish(clone);
    const r = await runCli(['plan', clone, '--detailed-exitcode'], env(true));
    expect(r.code).toBe(2);
    // The section's two lessons compile (their settings changed); CARGO is known, and compiled again
    // only for where its links are; HELLO is known, and compiled for its anchors (the guessing game links to one).
    expect(r.stderr).toContain('debug: 2 lesson files compiled, 2 known unchanged from the state (2 of them compiled all the same)');
    expect(drafts(r.stdout + r.stderr)).toEqual(cold);
  }, 60_000);
});
