/**
 * Ordinary workflow accidents of a course team, end to end through the built CLI and the
 * emulator: each ends with no duplicate in the school and a clear message. (The CI race with
 * real git repos is in ci-race.test.ts.)
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SECRET, clientOf, resetEmulator, schoolSections, startTestEmulator } from '../apply/helpers.js';
import { BASE_REPO } from '../apply/course-files.js';
import { acquireStateLock } from '../../src/state/lock-state.js';
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

/** BASE_REPO applied, and the ids of its beta and gamma lessons. */
async function appliedBase(): Promise<{ dir: string; beta: string; gamma: string }> {
  const dir = await writeRepo(BASE_REPO);
  const r = await runCli(['apply', '--yes'], env, dir);
  expect(r.code, r.stderr).toBe(0);
  const state = JSON.parse(await readFile(join(dir, '.coursesync/state.json'), 'utf8')) as { lessons: Record<string, { id: string }> };
  return { dir, beta: state.lessons.beta!.id, gamma: state.lessons.gamma!.id };
}

/** Delete a lesson as a person does in the school's admin. */
async function deleteInSchool(id: string): Promise<void> {
  const res = await fetch(emu.url.replace(/\/api\/v1$/, `/__emulator/lessons/${id}`), { method: 'DELETE', headers: { authorization: `Bearer ${SECRET}` } });
  expect(res.status).toBe(200);
}

describe('a lesson deleted in the school can be recovered', () => {
  it('a 404 names the lesson and the exact commands; state list/show; apply --replace creates it once, and everything converges', async () => {
    const { dir, beta } = await appliedBase();
    await deleteInSchool(beta);
    const refresh = await runCli(['plan', '--refresh'], env, dir);
    expect(refresh.code).toBe(1);
    expect(refresh.stderr).toContain(`coursesync: the school has no lesson ${beta} (key beta, intro/a/2-beta.md): deleted in the school, or the state points elsewhere; nothing was changed`);
    expect(refresh.stderr).toContain(
      'hint: to create it anew from the repo: `coursesync apply --replace beta`; to stop managing it: delete the file and run `coursesync state rm beta`; `coursesync state show beta` shows what the state holds',
    );
    // An edit of the deleted lesson fails on the 404 with the same advice.
    await writeFile(join(dir, 'intro/a/2-beta.md'), lesson('name: Beta, second edition\nlesson_type: text', 'See the [changelog](https://example.com/changes).'));
    const failed = await runCli(['apply', '--yes'], env, dir);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('`coursesync apply --replace beta`');

    const list = await runCli(['state', 'list'], env, join(dir, 'intro'));
    expect(list.stdout).toContain(`beta\t${beta}\tsec_start\t2\tintro/a/2-beta.md\n`);
    const show = await runCli(['state', 'show', 'beta'], env, dir);
    expect(show.stdout).toContain(`id\t${beta}\n`);
    expect(show.stdout).toContain('applied.name\tBeta\n');
    const typo = await runCli(['state', 'show', 'bta'], env, dir);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('hint: did you mean beta?');

    const replaced = await runCli(['apply', '--replace', 'beta', '--yes'], env, dir);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stderr).toContain(`coursesync: forgot beta (${beta}): created anew by this apply`);
    expect(replaced.stdout).toMatch(/^\+ create beta → sec_start #2 \(lesson les_\d+\)/m);
    const names = (await schoolSections(emu)).get('sec_start')!.map((l) => l.name);
    expect(names.filter((n) => n.startsWith('Beta'))).toEqual(['Beta, second edition']);
    const again = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(again.stdout).toBe('No changes. 7 lessons unchanged.\n');
    expect(again.code).toBe(0);
  });

  it('state rm forgets a lesson under the lock (the school is untouched); with its file deleted the plan is empty', async () => {
    const { dir, gamma } = await appliedBase();
    await deleteInSchool(gamma);
    const held = await acquireStateLock(dir);
    const locked = await runCli(['state', 'rm', 'gamma'], env, dir);
    await held.release();
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(/^coursesync: the state is locked by pid \d+/m);
    expect(await readFile(join(dir, '.coursesync/state.json'), 'utf8')).toContain(gamma);
    const before = emu.stats().requests;
    const r = await runCli(['state', 'rm', 'gamma'], env, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Removed gamma from the state (lesson ${gamma} in sec_start, intro/a/3-gamma.md).`);
    expect(emu.stats().requests).toBe(before);
    const state = await readFile(join(dir, '.coursesync/state.json'), 'utf8');
    expect(state).not.toContain(gamma);
    expect(existsSync(join(dir, '.coursesync/state.lock'))).toBe(false);
    const withFile = await runCli(['plan'], env, dir);
    expect(withFile.stdout).toContain('Plan: 1 to create, 6 unchanged.');
    await rm(join(dir, 'intro/a/3-gamma.md'));
    const plan = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(plan.stdout).toBe('No changes. 6 lessons unchanged.\n');
    expect(plan.code).toBe(0);
  });
});

describe('drift settles', () => {
  it('plan --refresh shows the repo winning; apply --refresh sends it back; the next plan is "No changes" with exit 0', async () => {
    const { dir, beta } = await appliedBase();
    await clientOf(emu).lessons.update(beta, { name: 'Beta (fixed in the school)', body: '<p>Edited <strong>online</strong>.</p>', content_format: 'html' });
    const plan = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain(`~ intro/a/2-beta.md (${beta}) will be updated in place\n      name: "Beta (fixed in the school)" → "Beta"`);
    expect(plan.stdout).toContain(`! intro/a/2-beta.md (${beta}) was changed in the school since the last apply: body, name`);
    expect(plan.stdout).toContain('Plan: 1 to update, 1 drifted, 6 unchanged.');
    expect(plan.stderr).toContain(`Note: 1 lesson was changed in the school since the last apply: beta (${beta}: body, name). \`coursesync apply --refresh\` sends the repo's values back (the repo wins); to keep the school's version of a lesson instead, write it into its file with \`coursesync import ${beta} --key beta --write-file\`.`);
    expect(plan.stdout).not.toMatch(/No changes/);
    const apply = await runCli(['apply', '--refresh', '--yes'], env, dir);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/^~ update beta/m);
    const live = await clientOf(emu).lessons.update(beta, {});
    expect(live.name).toBe('Beta');
    expect(live.body).toBe('<p>Some text.</p>\n');
    const again = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(again.stdout).toBe('No changes. 7 lessons unchanged.\n');
    expect(again.code).toBe(0);
  });

  it('a lesson added in the school shifts tracked ones: drift with no call to make, which apply --refresh records, so CI turns green', async () => {
    const { dir } = await appliedBase();
    await clientOf(emu).lessons.create({ section_id: 'sec_start', name: 'Added in the UI', position: 1 });
    const plan = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('Plan: 4 drifted, 7 unchanged.');
    expect(plan.stdout).not.toMatch(/No changes/);
    const before = emu.stats().byRoute['PATCH /lessons/:id'] ?? 0;
    const apply = await runCli(['apply', '--refresh', '--yes'], env, dir);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toBe('Plan: 4 drifted, 7 unchanged. Nothing to send: recorded 4 drifted lessons as the school has them (alpha, beta, delta, gamma).\n');
    // Only the refresh's reads (PATCH {} per tracked lesson): nothing is moved back.
    expect((emu.stats().byRoute['PATCH /lessons/:id'] ?? 0) - before).toBe(7);
    const again = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(again.stdout).toBe('No changes. 7 lessons unchanged.\n');
    expect(again.code).toBe(0);
    expect((await schoolSections(emu)).get('sec_start')!.map((l) => l.name)).toEqual(['Added in the UI', 'Alpha', 'Beta', 'Gamma', 'Delta']);
  });

  it("import --key KEY --write-file takes the school's version into the file; the next plan --refresh is empty and nothing is sent", async () => {
    const { dir, beta } = await appliedBase();
    await clientOf(emu).lessons.update(beta, { name: 'Beta, improved', body: '<h2>Why</h2>\n<p>A <a href="https://example.com/why">reason</a>.</p>', content_format: 'html' });
    const r = await runCli(['import', beta, '--key', 'beta', '--write-file'], env, join(dir, 'intro'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Wrote the school's version of lesson ${beta} "Beta, improved" into intro/a/2-beta.md (Markdown) and recorded it as beta.`);
    const file = await readFile(join(dir, 'intro/a/2-beta.md'), 'utf8');
    expect(file).toContain('name: Beta, improved');
    expect(file).toContain('[reason](https://example.com/why)');
    const before = emu.stats().requests;
    const plan = await runCli(['plan', '--refresh', '--detailed-exitcode'], env, dir);
    expect(plan.stdout).toBe('No changes. 7 lessons unchanged.\n');
    expect(plan.code).toBe(0);
    const apply = await runCli(['apply', '--yes'], env, dir);
    expect(apply.stdout).toBe('No changes. 7 lessons unchanged.\n');
    // Only reads: the refresh's 7, and one section listing per program (2) for plan and for apply.
    expect(emu.stats().requests - before).toBe(7 + 2 + 2);
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
