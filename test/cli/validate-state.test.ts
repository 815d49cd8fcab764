/**
 * validate and plan (the built CLI) use the digests the state recorded at apply: a lesson whose
 * digest and compiler match is not parsed or rendered, with no `.coursesync/cache`. Proven with
 * a lesson file that could not compile at all (nesting too deep) whose digest the state is made
 * to hold: it is not looked at while the digest matches, and reported as soon as it does not.
 */
import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonDigest, lessonSettings } from '../../src/compile/lesson-digest.js';
import { DEFAULT_CONFIG } from '../../src/model/config.js';
import { lesson, runCli, writeRepo } from '../e2e/helpers.js';
import { useTestSchool } from '../apply/helpers.js';

let env: Record<string, string>;
useTestSchool((_emu, v) => {
  env = v;
});

const DEEP = `${'>'.repeat(40)} far too deep to render\n`;

const REPO = {
  'coursesync.yaml': 'lesson_defaults:\n  lesson_type: text\n',
  'intro/program.yaml': 'id: prog_intro\n',
  'intro/start/section.yaml': 'id: sec_start\n',
  'intro/start/1-loops.md': lesson('name: Loops', '## For loops\n\n```js\nfor (const x of xs) console.log(x);\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n'),
  'intro/start/2-lists.md': lesson('name: Lists', '- one\n- two\n  - nested\n\n> A quote with a [link](https://example.com).\n'),
};

describe('validate and plan with the state digests', () => {
  it('a lesson whose digest matches is not parsed or rendered, cache or no cache; a mismatch checks it again', async () => {
    const dir = await writeRepo(REPO);
    const applied = await runCli(['apply', dir, '--yes'], env);
    expect(applied.code, applied.stderr).toBe(0);
    await rm(join(dir, '.coursesync/cache'), { recursive: true, force: true });

    // The lists lesson now holds Markdown that cannot compile; the state is made to hold the
    // digest of exactly these bytes, as if this compiler had found them clean.
    const file = join(dir, 'intro/start/2-lists.md');
    const poisoned = lesson('name: Lists', DEEP);
    await writeFile(file, poisoned);
    const statePath = join(dir, '.coursesync/state.json');
    const stateText = await readFile(statePath, 'utf8');
    const state = JSON.parse(stateText) as { lessons: Record<string, { digest: string }> };
    const build = { file: createHash('sha256').update(poisoned).digest('hex'), settings: lessonSettings({ lesson_type: 'text' }, DEFAULT_CONFIG, false), deps: [] };
    const forged = lessonDigest('intro/start/2-lists.md', build, () => undefined);
    await writeFile(statePath, stateText.replace(state.lessons.lists!.digest, forged));

    const valid = await runCli(['validate', dir]);
    expect(valid.stdout).toContain('1 program, 1 section, 2 lessons: valid');
    expect(valid.code).toBe(0);
    const plan = await runCli(['plan', dir, '--format', 'json'], env);
    expect(plan.code, plan.stderr).toBe(0);
    expect(JSON.parse(plan.stdout).summary).toMatchObject({ create: 0, update: 0, unchanged: 2 });

    // Without the matching digest, the file is compiled and its problem reported.
    await writeFile(statePath, stateText);
    const invalid = await runCli(['validate', dir]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('intro/start/2-lists.md:');
    expect(invalid.stderr).toContain('[lesson/nested-too-deep]');
  });

  it('validate with no state or an unreadable one checks every lesson', async () => {
    const dir = await writeRepo({ ...REPO, 'intro/start/2-lists.md': lesson('name: Lists', DEEP) });
    expect((await runCli(["validate", dir])).stderr).toContain('[lesson/nested-too-deep]');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, '.coursesync'), { recursive: true });
    await writeFile(join(dir, '.coursesync/state.json'), '{"version": 2, "lin');
    const run = await runCli(['validate', dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('[lesson/nested-too-deep]');
  });
});
