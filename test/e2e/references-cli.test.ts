/**
 * Images, files and links with the built CLI against the emulator and a local static host:
 * an edited image changes exactly the lessons that show it (and the plan says why), apply
 * refuses to send a lesson whose asset is not published (naming it, nothing sent), a broken
 * reference fails before any request, and a renamed lesson keeps its id so links stay the same.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { lessonCalls, resetEmulator, SECRET, startTestEmulator } from '../apply/helpers.js';
import { runCli } from './helpers.js';
import { odinWorkspace, type OdinWorkspace } from './odin-workspace.js';
import type { StaticHost } from './static-server.js';



let emu: RunningEmulator;
let workspace: OdinWorkspace;
let host: StaticHost;
let work: string;
let repo: string;
let published: string;
const env = () => ({ COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url });

beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu?.close();
});
beforeEach(async () => {
  await resetEmulator(emu);
  workspace = await odinWorkspace(emu, 'coursesync-refs-e2e-');
  ({ work, repo, published, host } = workspace);
});
afterEach(async () => {
  await workspace.close();
});

async function publishAndApply(): Promise<void> {
  expect((await runCli(['assets', repo, '--out', published])).code).toBe(0);
  const applied = await runCli(['apply', repo, '--yes'], env());
  expect(applied.stderr).toBe('');
  expect(applied.code).toBe(0);
}

async function touchImage(file: string): Promise<void> {
  const full = path.join(repo, file);
  await writeFile(full, Buffer.concat([await readFile(full), Buffer.from([0])]));
}

describe('images, files and links through plan and apply', () => {
  it('apply --refresh reads the school once: the link-only pass does not read every lesson again', async () => {
    expect((await runCli(['assets', repo, '--out', published])).code).toBe(0);
    const patches = () => emu.stats().byRoute['PATCH /lessons/:id'] ?? 0;
    const before = patches();
    const applied = await runCli(['apply', repo, '--yes', '--refresh'], env());
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/^Apply complete: 3 created, 2 updated/m);
    // Nothing was tracked before, so --refresh read nothing; the two PATCHes are the link updates.
    expect(patches() - before).toBe(2);
  });

  it('assets run from a subfolder writes the files of the whole repo', async () => {
    const fromInside = await runCli(['assets', '--out', published], {}, path.join(repo, 'foundations/02-project'));
    expect(fromInside.stderr).toBe('');
    expect(fromInside.code).toBe(0);
    expect(fromInside.stdout).toContain('5 new asset files, 0 already in');
  });

  it('an edited image changes exactly the lessons that show it; apply waits for it to be published', async () => {
    await publishAndApply();
    await touchImage('foundations/02-project/img/diagram.png');

    const plan = await runCli(['plan', repo, '--format', 'json'], env());
    const changes = (JSON.parse(plan.stdout) as { changes: Array<{ action: string; key: string; fields: Array<{ field: string }>; cause?: string }> }).changes;
    // The state keeps a fingerprint of the HTML sent, so the plan names the cause from the digests.
    expect(changes.map((c) => [c.action, c.key, c.fields.map((f) => f.field), c.cause])).toEqual([['update', 'recipes', ['body'], 'references']]);

    // Not published yet: apply names the asset and how to publish it, and sends nothing.
    const before = lessonCalls(emu);
    const refused = await runCli(['apply', repo, '--yes'], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /coursesync: the lesson to send references files that are not published; nothing was sent: foundations\/02-project\/01-recipes\.md: a file it references is not published \(foundations\/02-project\/img\/diagram\.png at http:\/\/127\.0\.0\.1:\d+\/assets\/diagram\.[0-9a-f]{16}\.png: HTTP 404\)/,
    );
    expect(refused.stderr).toContain('hint: run `coursesync assets --out <folder>` and upload the folder to');
    expect(lessonCalls(emu)).toBe(before);

    const again = await runCli(['assets', repo, '--out', published]);
    expect(again.stdout).toContain('1 new asset file, 4 already in');
    const applied = await runCli(['apply', repo, '--yes'], env());
    expect(applied.code).toBe(0);
    expect(lessonCalls(emu) - before).toBe(1);
  });

  it('a lesson whose image is not published is held back; the other lessons are sent', async () => {
    await publishAndApply();
    await touchImage('foundations/02-project/img/diagram.png');
    const setup = path.join(repo, 'foundations/01-intro/02-setup.md');
    await writeFile(setup, (await readFile(setup, 'utf8')).replace('Install Git from your package manager.', 'Install Git with your package manager.'));
    const before = lessonCalls(emu);
    const applied = await runCli(['apply', repo, '--yes'], env());
    expect(applied.code).toBe(1);
    expect(applied.stdout).toMatch(/✗ foundations\/02-project\/01-recipes\.md: update recipes \(les_\d+\): not sent: a file it references is not published \(foundations\/02-project\/img\/diagram\.png at http:\/\/127\.0\.0\.1:\d+\/assets\/diagram\.[0-9a-f]{16}\.png: HTTP 404\)/);
    // Only the setup lesson's update reached the school.
    expect(lessonCalls(emu) - before).toBe(1);
    const plan = await runCli(['plan', repo, '--format', 'json'], env());
    expect((JSON.parse(plan.stdout) as { changes: Array<{ key: string }> }).changes.map((c) => c.key)).toEqual(['recipes']);
  });

  it('a broken reference fails validate and apply at path:line:col before any request', async () => {
    const welcome = path.join(repo, 'foundations/01-intro/01-welcome.md');
    await writeFile(welcome, (await readFile(welcome, 'utf8')).replace('(images/clone_repo.png)', '(img/missing.png)'));
    const validate = await runCli(['validate', repo]);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('foundations/01-intro/01-welcome.md:9:1 error "img/missing.png": no file foundations/01-intro/img/missing.png in the repo [lesson/missing-file]');
    const before = lessonCalls(emu);
    const applied = await runCli(['apply', repo, '--yes'], env());
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('foundations/01-intro/01-welcome.md:9:1');
    expect(lessonCalls(emu)).toBe(before);
  });

  it('a renamed and moved lesson keeps its id, so the links to it do not change', async () => {
    await publishAndApply();
    const state = () => readFile(path.join(repo, '.coursesync/state.json'), 'utf8').then((t) => JSON.parse(t) as { lessons: Record<string, { id: string }> });
    const id = (await state()).lessons.setup!.id;
    // Moved to the project section under a new file name (the key follows: aliases keep the lesson).
    const from = path.join(repo, 'foundations/01-intro/02-setup.md');
    const to = path.join(repo, 'foundations/02-project/00-git-setup.md');
    await rename(from, to);
    await writeFile(to, (await readFile(to, 'utf8')).replace('name: Setting up Git', 'name: Setting up Git\naliases: [setup]').replace('(01-welcome.md#welcome)', '(../01-intro/01-welcome.md#welcome)').replace('"01-welcome.md#welcome"', '"../01-intro/01-welcome.md#welcome"'));
    const welcome = path.join(repo, 'foundations/01-intro/01-welcome.md');
    await writeFile(welcome, (await readFile(welcome, 'utf8')).replaceAll('02-setup.md', '../02-project/00-git-setup.md'));
    const plan = await runCli(['plan', repo, '--format', 'json', '--detailed-exitcode'], env());
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(2);
    const changes = (JSON.parse(plan.stdout) as { changes: Array<{ action: string; key: string; lesson_id: string }> }).changes;
    // Only the moved lesson has a call; the welcome page's links already name its id.
    expect(changes.map((c) => [c.action, c.key, c.lesson_id])).toEqual([['move', 'git-setup', id]]);
  });
});
