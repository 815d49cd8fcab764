/**
 * The built CLI end to end: import lessons made outside coursesync, then `plan
 * --detailed-exitcode` exits 0 (no changes); clone a section and `apply --yes` creates it.
 */
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createSchoolClient } from '../../src/school/client.js';
import { runCli } from '../cli/plan-helpers.js';
import { runInPty } from '../cli/pty.js';
import { SECRET, SEED } from '../cli/school-helpers.js';
import { lessonMd, makeRepo, removeRepos } from './helpers.js';

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: SEED });
});
afterAll(() => emu.close());
afterEach(removeRepos);

describe('coursesync import and clone (built CLI)', () => {
  it('import, then plan has no changes; clone, then apply creates the copies', async () => {
    const env = { COURSESYNC_BASE_URL: emu.url, COURSESYNC_TOKEN: SECRET };
    const client = createSchoolClient({ baseUrl: emu.url, token: SECRET });
    const a = await client.lessons.create({ section_id: 'sec_start', name: 'From the UI', lesson_type: 'text', body: '<p>Made <em>by hand</em></p>', content_format: 'html' });
    const b = await client.lessons.create({ section_id: 'sec_start', name: 'Styled', lesson_type: 'text', body: '<p><u>kept</u></p>', content_format: 'html' });
    const dir = await makeRepo({ 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n', 'p/t/section.yaml': 'id: sec_types\n', 'p/t/01-one.md': lessonMd('One', 'one\n') });

    const imported = await runCli(['import', a.id, b.id, '--into', join(dir, 'p/s'), '--dir', dir], env);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`${b.id} p/s/02-styled.md: the Markdown conversion renders different HTML`);
    expect(imported.stdout + imported.stderr).not.toContain(SECRET);

    const cloned = await runCli(['clone', join(dir, 'p/t'), join(dir, 'p/u'), '--section', 'sec_tooling', '--dir', dir], env);
    expect(cloned.code).toBe(0);
    const plan = await runCli(['plan', dir, '--json'], env);
    const summary = (JSON.parse(plan.stdout) as { summary: Record<string, number> }).summary;
    // The imported lessons are unchanged; the original and its clone are created.
    expect(summary).toMatchObject({ create: 2, update: 0, move: 0, unchanged: 2 });
    expect((await runCli(['apply', dir, '--yes'], env)).code).toBe(0);
    expect((await runCli(['plan', dir, '--detailed-exitcode'], env)).code).toBe(0);
  });
});

describe('coursesync duplicate asks first (built CLI)', () => {
  it('off a terminal it needs --yes and sends nothing; at a terminal "n" copies nothing (exit 3); --yes copies once', async () => {
    const env = { COURSESYNC_BASE_URL: emu.url, COURSESYNC_TOKEN: SECRET };
    const dir = await makeRepo({ 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n', 'p/t/section.yaml': 'id: sec_types\n', 'p/s/01-one.md': lessonMd('One', '## One\n\n| a | b |\n|---|---|\n| 1 | 2 |\n') });
    expect((await runCli(['apply', dir, '--yes'], env)).code).toBe(0);
    const copies = () => emu.stats().byRoute['POST /lessons/:id/duplicate'] ?? 0;
    const before = copies();
    const refused = await runCli(['duplicate', 'lesson', join(dir, 'p/s/01-one.md'), '--to', join(dir, 'p/t'), '--dir', dir], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`not run in a terminal, so nobody can confirm: Copy the lesson ${join(dir, 'p/s/01-one.md')} into ${join(dir, 'p/t')}\n`);
    expect(refused.stderr).toMatch(/hint: .*--yes/);
    const atTty = runInPty(['duplicate', 'lesson', join(dir, 'p/s/01-one.md'), '--to', join(dir, 'p/t'), '--dir', dir], env);
    await atTty.waitFor(/\[y\/N\] /);
    atTty.type('n\r');
    const cancelled = await atTty.done;
    expect(cancelled.code).toBe(3);
    expect(cancelled.screen).toContain('Duplication cancelled; nothing was copied.');
    expect(copies()).toBe(before);
    const yes = await runCli(['duplicate', 'lesson', join(dir, 'p/s/01-one.md'), '--to', join(dir, 'p/t'), '--dir', dir, '--yes'], env);
    expect(yes.code, yes.stderr).toBe(0);
    expect(copies()).toBeGreaterThan(before);
  });
});
