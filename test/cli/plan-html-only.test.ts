/**
 * The built CLI with HTML-only updates against the emulator: a course whose lessons link to each
 * other is applied, then one lesson file is edited and `school.lesson_url` changes (every linking
 * lesson's HTML changes, its file does not). The saved plan's steps get the `cause` the planner
 * gives them; `apply --skip-html-only` sends the edit alone, `apply --html-only` the rest, and
 * the school ends with both. Also: the two flags together are refused, a plan without recorded
 * file versions says so in one line, and a failed markdown plan is a comment naming folder and school.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { parsePlanText, renderJson } from '../../src/plan/render-json.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { SECRET, clientOf, lessonCalls, useTestSchool } from '../apply/helpers.js';
import { lesson, runCli, writeRepo } from '../e2e/helpers.js';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, environment) => {
  emu = e;
  env = environment;
});

const URL_1 = 'https://academy.example.com/products/{program_id}/lessons/{lesson_id}';
const URL_2 = 'https://learn.example.com/p/{program_id}/l/{lesson_id}';
const config = (url: string) => `removed_lessons: keep\nschool:\n  lesson_url: ${url}\n`;

const FILES: Record<string, string> = {
  'coursesync.yaml': config(URL_1),
  'intro/program.yaml': 'id: prog_intro\n',
  'intro/a/section.yaml': 'id: sec_start\n',
  'intro/a/1-welcome.md': lesson('name: Welcome\nlesson_type: text', '# Welcome\n\n- read [the setup](2-setup.md)\n- then [the tables](3-tables.md)\n'),
  'intro/a/2-setup.md': lesson('name: Setup\nlesson_type: text', '# Setup\n\n```sh\ngit clone https://example.com/course.git\n```\n\nBack to [the welcome](1-welcome.md).\n'),
  'intro/a/3-tables.md': lesson('name: Tables\nlesson_type: text', '# Tables\n\n| key | meaning |\n|---|---|\n| `name` | shown |\n'),
};

/** `plan --out` of the repo, with each call step's cause as the planner gives it, saved back. */
async function savedPlan(dir: string, file: string, edited: string[]): Promise<void> {
  const r = await runCli(['plan', dir, '--out', file], env);
  expect(r.code, r.stderr).toBe(0);
  const plan = parsePlanText(await readFile(file, 'utf8'), file);
  const changes = plan.changes.map((c) => (isCall(c) && c.action === 'update' ? { ...c, cause: edited.includes(c.path) ? ('file' as const) : ('settings' as const) } : c));
  await writeFile(file, renderJson({ ...plan, changes }));
}

async function bodyOf(name: string): Promise<string> {
  const client = clientOf(emu);
  const state = JSON.parse(await readFile(join(dir, '.coursesync/state.json'), 'utf8')) as { lessons: Record<string, { id: string }> };
  return (await client.lessons.update(state.lessons[name]!.id, {})).body ?? '';
}
let dir: string;
const GIT_ENV = { GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com', GIT_CONFIG_NOSYSTEM: '1' };
const git = async (cwd: string, ...args: string[]) => (await promisify(execFile)('git', args, { cwd, env: { ...process.env, ...GIT_ENV } })).stdout;

describe('coursesync apply --skip-html-only / --html-only', () => {
  it('sends the edited lesson first, then the lessons whose HTML alone changed; the school ends with both', async () => {
    dir = await writeRepo(FILES);
    const first = await runCli(['apply', dir, '-y'], env);
    expect(first.code, first.stderr).toBe(0);
    // The applied files in git, where a plan finds them again.
    await git(dir, 'init', '--quiet', '--initial-branch=main');
    await git(dir, 'add', '.');
    await git(dir, 'commit', '--quiet', '-m', 'Applied');
    await writeFile(join(dir, 'coursesync.yaml'), config(URL_2));
    await writeFile(join(dir, 'intro/a/3-tables.md'), FILES['intro/a/3-tables.md']!.replace('| `name` | shown |\n', '| `name` | shown |\n| `video` | a host |\n'));

    const planFile = join(dir, 'plan.json');
    await savedPlan(dir, planFile, ['intro/a/3-tables.md']);
    const shown = await runCli(['plan', dir], env);
    // The Markdown of the edited lesson when the state records the file as applied (blob);
    // otherwise the plan says why it shows no Markdown diff. Never the HTML.
    const recorded = (await readFile(join(dir, '.coursesync/state.json'), 'utf8')).includes('"blob"');
    expect(shown.stdout).toContain(recorded ? '      +| `video` | a host |\n' : 'no Markdown diff: the state does not record which version of the file was last applied');
    expect(shown.stdout).not.toMatch(/<td>|<a href/);

    const rest = await runCli(['apply', planFile, '--dir', dir, '--skip-html-only', '-y'], env);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toContain('coursesync: 2 HTML-only updates held back (--skip-html-only): the next plan still shows them');
    expect(rest.stdout).toMatch(/^Apply complete: .*1 updated/m);
    expect(await bodyOf('tables')).toContain('<td><code>video</code></td>');
    expect(await bodyOf('welcome')).toContain('https://academy.example.com/products/prog_intro/lessons/');

    await savedPlan(dir, planFile, []);
    const only = await runCli(['apply', planFile, '--dir', dir, '--html-only', '-y'], env);
    expect(only.code, only.stderr).toBe(0);
    expect(only.stdout).toMatch(/^Apply complete: .*2 updated/m);
    expect(await bodyOf('welcome')).toContain('https://learn.example.com/p/prog_intro/l/');
    expect(await bodyOf('setup')).toContain('https://learn.example.com/p/prog_intro/l/');
    const after = await runCli(['plan', dir, '--detailed-exitcode'], env);
    expect(after.code, after.stdout).toBe(0);
  });

  it('--skip-html-only with --html-only is refused before any request', async () => {
    const repo = await writeRepo(FILES);
    const before = lessonCalls(emu);
    for (const cmd of [['plan', repo], ['apply', repo, '-y']]) {
      const r = await runCli([...cmd, '--skip-html-only', '--html-only'], env);
      expect(r.code).toBe(ExitCode.Usage);
      expect(r.stderr).toContain('coursesync: --skip-html-only and --html-only cannot be combined\n');
    }
    expect(lessonCalls(emu)).toBe(before);
  });
});

describe('coursesync plan --format markdown', () => {
  it('a failed plan is a comment naming the folder and the school, with the errors; never the token', async () => {
    const repo = await writeRepo({ ...FILES, 'intro/a/2-setup.md': '---\nname: Quiz: part 1\n---\nBody\n' });
    const summary = join(repo, 'summary.md');
    const r = await runCli(['plan', '--format', 'markdown'], { ...env, GITHUB_STEP_SUMMARY: summary }, repo);
    expect(r.code).toBe(1);
    expect(r.stdout.startsWith(`### coursesync plan for \`${basename(repo)}\` on ${new URL(emu.url).host}\n\n**✖ The plan failed:** the course repo`)).toBe(true);
    expect(r.stdout).toMatch(/<details open><summary>✖ 2 errors<\/summary>\n\n(- .*\n)?- intro\/a\/2-setup\.md:2:\d+: the value of "name" contains ": "/);
    expect(r.stdout).toContain('Nothing was planned: fix the above and push again.');
    expect(r.stderr).toMatch(/intro\/a\/2-setup\.md:2:\d+ error/);
    expect(await readFile(summary, 'utf8')).toBe(r.stdout);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('a plan comment names the folder and the school', async () => {
    const repo = await writeRepo(FILES);
    const r = await runCli(['plan', repo, '--format', 'markdown'], { COURSESYNC_BASE_URL: emu.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`### coursesync plan for \`${basename(repo)}\` on ${new URL(emu.url).host}`);
    expect(r.stdout).toContain('<details><summary>+ 3 to create</summary>');
  });
});
