/**
 * Ordinary workflow accidents of a course team, end to end through the built CLI and the
 * emulator: each ends with no duplicate in the school and a clear message. (The CI race with
 * real git repos is in ci-race.test.ts.)
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SECRET, resetEmulator, schoolSections, startTestEmulator } from '../apply/helpers.js';
import { BASE_REPO } from '../apply/course-files.js';
import { copyExamples, lesson, removeRepos, runCli, writeRepo } from './helpers.js';

let emu: RunningEmulator;
let env: Record<string, string>;
beforeAll(async () => {
  emu = await startTestEmulator();
  env = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url };
});
afterAll(async () => {
  await emu?.close();
  await removeRepos();
});
beforeEach(async () => {
  await resetEmulator(emu);
});

/** Every lesson in the school, as `section/name`, sorted. */
async function schoolLessons(): Promise<string[]> {
  const out: string[] = [];
  for (const [section, lessons] of await schoolSections(emu)) for (const l of lessons) out.push(`${section}/${l.name}`);
  return out.sort();
}

/** examples/ applied once, and the school's lessons after it. */
async function appliedExamples(): Promise<{ dir: string; lessons: string[] }> {
  const dir = await copyExamples();
  const r = await runCli(['apply', '--yes'], env, dir);
  expect(r.code, r.stderr).toBe(0);
  return { dir, lessons: await schoolLessons() };
}

describe('a subfolder is not a second course', () => {
  it('plan and apply run in a program folder work on the whole repo: no changes, no second state, nothing created twice', async () => {
    const { dir, lessons } = await appliedExamples();
    const sub = join(dir, 'intro-to-typescript', '02-types');
    const plan = await runCli(['plan', '--detailed-exitcode'], env, sub);
    expect(plan.stdout).toBe('No changes. 22 lessons unchanged.\n');
    expect(plan.code).toBe(0);
    const apply = await runCli(['apply', '--yes'], env, join(dir, 'intro-to-typescript'));
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toBe('No changes. 22 lessons unchanged.\n');
    const validate = await runCli(['validate'], env, sub);
    expect(validate.stdout).toMatch(/^2 programs, 5 sections, 22 lessons: valid/m);
    expect(existsSync(join(dir, 'intro-to-typescript', '.coursesync'))).toBe(false);
    expect(await schoolLessons()).toEqual(lessons);
  });

  it('a subfolder named explicitly is refused with both folders named; nothing is sent or written', async () => {
    const { dir, lessons } = await appliedExamples();
    const before = emu.stats().requests;
    for (const args of [['plan', 'intro-to-typescript'], ['apply', 'intro-to-typescript', '--yes'], ['validate', 'intro-to-typescript']]) {
      const r = await runCli(args, env, dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('coursesync: intro-to-typescript lies inside the course repo . (which holds coursesync.yaml)');
      expect(r.stderr).toMatch(/hint: run the command without a folder argument/);
    }
    expect(emu.stats().requests).toBe(before);
    expect(existsSync(join(dir, 'intro-to-typescript', '.coursesync'))).toBe(false);
    expect(await schoolLessons()).toEqual(lessons);
  });

  it('a second state left inside the repo by an older version is refused, naming both; nothing is created', async () => {
    const { dir, lessons } = await appliedExamples();
    const inner = join(dir, 'advanced-typescript');
    await mkdir(join(inner, '.coursesync'));
    await cp(join(dir, '.coursesync/state.json'), join(inner, '.coursesync/state.json'));
    const before = emu.stats().requests;
    const r = await runCli(['apply', '--yes'], env, join(inner, '01-generics'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`coursesync: ${inner} holds .coursesync/state.json but lies inside the course repo ${dir} (which holds coursesync.yaml)`);
    expect(r.stderr).toContain(`hint: keep one course repo: remove ${inner}/.coursesync/state.json`);
    expect(emu.stats().requests).toBe(before);
    expect(await schoolLessons()).toEqual(lessons);
    expect(JSON.parse(await readFile(join(dir, '.coursesync/state.json'), 'utf8')).serial).toBeGreaterThan(0);
  });
});

describe('plans never hide trouble', () => {
  it('in an empty or wrong folder plan is an error (exit 1), never "No changes"', async () => {
    const empty = await writeRepo({ 'notes.txt': 'not a course\n' });
    for (const args of [['plan', '--detailed-exitcode'], ['plan', '--format', 'markdown'], ['validate']]) {
      const r = await runCli(args, env, empty);
      expect(r.code).toBe(1);
      expect(r.stdout).not.toContain('No changes');
      expect(r.stderr + r.stdout).toContain('. error no program folder found (a folder holding program.yaml) [repo/no-programs]');
    }
  });

  it('warnings (javascript: URLs, onclick) appear in the text, markdown and JSON plans and as annotations', async () => {
    const dir = await writeRepo({
      ...BASE_REPO,
      'intro/a/5-links.md': lesson(
        'name: Links\nlesson_type: text',
        '| Tool | Where |\n| --- | --- |\n| Docs | [the handbook](javascript:alert(1)) |\n\n<button onclick="steal()">Start</button>\n\n![diagram](https://example.com/flow.png)',
      ),
    });
    const where = 'intro/a/5-links.md';
    const text = await runCli(['plan'], env, dir);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^${where}:\\d+:\\d+ warning .*\\[lesson/javascript-url\\]$`, 'm'));
    expect(text.stdout).toMatch(new RegExp(`^${where}:\\d+:\\d+ warning event attribute onclick .*\\[lesson/event-handler\\]$`, 'm'));
    const md = await runCli(['plan', '--format', 'markdown'], { ...env, GITHUB_ACTIONS: 'true' }, dir);
    expect(md.stdout).toContain('<details open><summary>⚠ 2 warnings</summary>');
    expect(md.stdout).toMatch(/\[lesson\/event-handler\]/);
    expect(md.stderr).toMatch(new RegExp(`^::warning file=${where},line=\\d+,col=\\d+,title=lesson/javascript-url::`, 'm'));
    expect(md.stderr).toMatch(new RegExp(`^::warning file=${where},line=\\d+,col=\\d+,title=lesson/event-handler::`, 'm'));
    const json = JSON.parse((await runCli(['plan', '--json'], env, dir)).stdout) as { warnings: Array<{ code: string; file: string }> };
    expect(json.warnings.map((w) => `${w.file} ${w.code}`).sort()).toEqual([`${where} lesson/event-handler`, `${where} lesson/javascript-url`]);
  });
});
