/**
 * Ordinary workflow accidents of a course team, end to end through the built CLI and the
 * emulator: each ends with no duplicate in the school and a clear message. (A lesson deleted in
 * the school and drift: recovery-drift.test.ts; the CI race with real git repos: ci-race.test.ts.)
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { schoolSections, useTestSchool } from '../apply/helpers.js';
import { BASE_REPO } from '../apply/course-files.js';
import { lesson, runCli, writeRepo } from './helpers.js';

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

/** Every lesson in the school, as `section/name`, sorted. */
async function schoolLessons(): Promise<string[]> {
  const out: string[] = [];
  for (const [section, lessons] of await schoolSections(emu)) for (const l of lessons) out.push(`${section}/${l.name}`);
  return out.sort();
}

/** A small course repo applied once, and the school's lessons after it. */
async function appliedExamples(): Promise<{ dir: string; lessons: string[] }> {
  const dir = await writeRepo(BASE_REPO);
  const r = await runCli(['apply', '--yes'], env, dir);
  expect(r.code, r.stderr).toBe(0);
  return { dir, lessons: await schoolLessons() };
}

describe('a subfolder is not a second course', () => {
  it('plan and apply run in a program folder work on the whole repo: no changes, no second state, nothing created twice', async () => {
    const { dir, lessons } = await appliedExamples();
    const sub = join(dir, 'intro', 'b');
    const plan = await runCli(['plan', '--detailed-exitcode'], env, sub);
    expect(plan.stdout).toBe('No changes. 7 lessons unchanged.\n');
    expect(plan.code).toBe(0);
    const apply = await runCli(['apply', '--yes'], env, join(dir, 'intro'));
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toBe('No changes. 7 lessons unchanged.\n');
    const validate = await runCli(['validate'], env, sub);
    expect(validate.stdout).toMatch(/^2 programs, 3 sections, 7 lessons: valid/m);
    expect(existsSync(join(dir, 'intro', '.coursesync'))).toBe(false);
    expect(await schoolLessons()).toEqual(lessons);
  });

  it('a subfolder named explicitly is refused with both folders named; nothing is sent or written', async () => {
    const { dir, lessons } = await appliedExamples();
    const before = emu.stats().requests;
    for (const args of [['plan', 'intro'], ['apply', 'intro', '--yes'], ['validate', 'intro']]) {
      const r = await runCli(args, env, dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('coursesync: intro lies inside the course repo . (which holds coursesync.yaml)');
      expect(r.stderr).toMatch(/hint: run the command without a folder argument/);
    }
    expect(emu.stats().requests).toBe(before);
    expect(existsSync(join(dir, 'intro', '.coursesync'))).toBe(false);
    expect(await schoolLessons()).toEqual(lessons);
  });

  it('a second state left inside the repo by an older version is refused, naming both; nothing is created', async () => {
    const { dir, lessons } = await appliedExamples();
    const inner = join(dir, 'adv');
    await mkdir(join(inner, '.coursesync'));
    await cp(join(dir, '.coursesync/state.json'), join(inner, '.coursesync/state.json'));
    const before = emu.stats().requests;
    const r = await runCli(['apply', '--yes'], env, join(inner, 'g'));
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

describe('section ids are checked before any write', () => {
  it('a typo in a section id: plan (with a token) and apply stop at section.yaml:line:col with the nearest section; nothing is created', async () => {
    const dir = await writeRepo({ ...BASE_REPO, 'intro/b/section.yaml': '# The second section of the intro.\nid: sec_tpyes\n' });
    const school = await schoolLessons();
    expect((await runCli(['validate'], env, dir)).code).toBe(0);
    const plan = await runCli(['plan'], env, dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('intro/b/section.yaml:2:5 error program prog_intro has no section sec_tpyes [section/not-found]\n  hint: did you mean sec_types ("Types")?');
    expect(plan.stderr).toContain('coursesync: 1 section of the repo is not in the school as written; nothing was planned or sent');
    const apply = await runCli(['apply', '--yes'], env, dir);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('intro/b/section.yaml:2:5 error program prog_intro has no section sec_tpyes [section/not-found]');
    expect(emu.stats().byRoute['POST /lessons'] ?? 0).toBe(0);
    expect(await schoolLessons()).toEqual(school);
    expect(existsSync(join(dir, '.coursesync/state.json'))).toBe(false);
  });

  it("a section of another program is refused (the lesson would land in the wrong program); tokenless plans say the check was skipped", async () => {
    const dir = await writeRepo({ ...BASE_REPO, 'intro/b/section.yaml': 'id: sec_patterns\n' });
    const apply = await runCli(['apply', '--yes'], { ...env, GITHUB_ACTIONS: 'true' }, dir);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('intro/b/section.yaml:1:5 error section sec_patterns belongs to program prog_advanced, not to prog_intro (the program of intro) [section/other-program]');
    expect(apply.stderr).toMatch(/^::error file=intro\/b\/section\.yaml,line=1,col=5,title=section\/other-program::/m);
    expect(emu.stats().byRoute['POST /lessons'] ?? 0).toBe(0);
    const tokenless = await runCli(['plan', '--format', 'markdown'], { COURSESYNC_BASE_URL: emu.url }, dir);
    expect(tokenless.code).toBe(0);
    expect(tokenless.stdout).toContain('> Section ids were not checked against the school (no API token)');
  });
});
