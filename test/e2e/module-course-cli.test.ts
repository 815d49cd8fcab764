/**
 * A module-per-folder course (test/fixtures/repos/modules: README.md and homework.md in every
 * module, the course README at the root) through the built CLI and the emulator: no `key:`
 * lines, each module's README first in its section, a link to the course README named as
 * outside every program (never a published .md), adding a second homework.md keeps the key of
 * the first, and moving a homework.md to another module keeps its lesson.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { readStateFile } from '../../src/state/state-file.js';
import { SECRET, schoolSections, startTestEmulator } from '../apply/helpers.js';
import { runCli } from './helpers.js';
import { odinWorkspace, type OdinWorkspace } from './odin-workspace.js';

const MODULES = path.resolve(import.meta.dirname, '../fixtures/repos/modules');

let emu: RunningEmulator;
let workspace: OdinWorkspace;
const env = () => ({ COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url });

beforeAll(async () => {
  emu = await startTestEmulator();
  workspace = await odinWorkspace(emu, 'coursesync-modules-e2e-', MODULES);
});
afterAll(async () => {
  await workspace?.close();
  await emu?.close();
});

async function keysByPath(repo: string): Promise<Record<string, string>> {
  const { state } = await readStateFile(repo);
  return Object.fromEntries(Object.entries(state.lessons).map(([key, l]) => [l.path, key]));
}

describe('a course whose modules reuse file names', () => {
  it('needs no key: lines, keeps keys when a file is added and the lesson when one moves', async () => {
    const { repo, published } = workspace;
    const course = (p: string) => path.join(repo, 'course', p);

    // The course README is outside every program: a link to it is an error saying so.
    const invalid = await runCli(['validate', repo]);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout + invalid.stderr).toContain(
      'course/02-functions/README.md:12:45 error "../../README.md": README.md is outside every program folder (no program.yaml above it), so it is not a lesson [lesson/link-not-lesson]',
    );
    // Start with one homework.md (02-functions then has none to link): its key is its file name's.
    const functions = await readFile(course('02-functions/README.md'), 'utf8');
    await writeFile(course('02-functions/README.md'), functions.replace('../../README.md', 'https://github.com/example/js-course#readme').replace('Do the [homework](homework.md). ', ''));
    const second = await readFile(course('03-objects/homework.md'), 'utf8');
    await rm(course('02-functions/homework.md'));
    await rm(course('03-objects/homework.md'));
    expect((await runCli(['assets', repo, '--out', published])).code).toBe(0);
    const first = await runCli(['apply', repo, '--yes'], env());
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect((await keysByPath(repo))['course/01-basics/homework.md']).toBe('homework');
    // README first in its section, then natural file order.
    const school = await schoolSections(emu);
    expect((school.get('sec_start') ?? []).map((l) => l.name)).toEqual(['Basics', 'Operators cheatsheet', 'Homework: Basics']);
    expect(JSON.stringify([...school.values()])).not.toMatch(/README\.[0-9a-f]+\.md/);

    // A second homework.md: the new one is qualified by its module, the first keeps its key,
    // even edited in the same commit (then the state's record at its path keeps it).
    await writeFile(course('03-objects/homework.md'), second);
    await writeFile(course('01-basics/homework.md'), (await readFile(course('01-basics/homework.md'), 'utf8')) + '\n4. Bonus: swap two variables without a third.\n');
    const added = await runCli(['apply', repo, '--yes'], env());
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^\+ create objects\.homework → sec_tooling #2/m);
    expect(added.stdout).toMatch(/^~ update homework → sec_start #3/m);
    expect(added.stdout).toMatch(/Apply complete: 1 created, 1 updated \(2 calls/);
    const keys = await keysByPath(repo);
    expect(keys['course/01-basics/homework.md']).toBe('homework');
    expect(keys['course/03-objects/homework.md']).toBe('objects.homework');
    const movedId = (await readStateFile(repo)).state.lessons['objects.homework']!.id;

    // Moved to another module: the same lesson (matched by its unchanged content), moved, not re-created.
    await rename(course('03-objects/homework.md'), course('02-functions/homework.md'));
    const plan = await runCli(['plan', repo], env());
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain('renamed: objects.homework → functions.homework (moved: matched by its unchanged content; state only)');
    expect(plan.stdout).not.toMatch(/will be created|unpublish/);
    const moved = await runCli(['apply', repo, '--yes'], env());
    expect(moved.code, moved.stderr).toBe(0);
    const after = (await readStateFile(repo)).state.lessons['functions.homework']!;
    expect(after.id).toBe(movedId);
    expect(after.section_id).toBe('sec_types');
    expect((await runCli(['plan', repo], env())).stdout).toMatch(/^No changes\./m);
  });
});
