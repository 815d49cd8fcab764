import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createSchoolClient } from '../../src/school/client.js';
import { buildPlan } from '../../src/sync/build-plan.js';
import { parsePlanText } from '../../src/plan/render-json.js';
import { statePath } from '../../src/state/state-file.js';
import { copyFixture, pushPlan, removeFixtureCopies, runCli } from './plan-helpers.js';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';

const TOKEN = 'demo-token';
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
});
afterAll(async () => {
  await emu?.close();
  await removeFixtureCopies();
});
beforeEach(async () => {
  await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/reset'), { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
});

/** The fixture with every section given by id: plan needs nothing from the school. */
async function repoWithIds(): Promise<string> {
  const dir = await copyFixture('plan-small');
  await writeFile(join(dir, 'prog/02-tooling/section.yaml'), 'id: sec_tooling\n');
  return dir;
}

/** Apply the fixture to the emulator (as apply would) so the next plan starts from a real state. */
async function applied(dir: string) {
  const env = { COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url };
  const built = await buildPlan(dir, { env });
  const pushed = await pushPlan({ dir, plan: built.plan, state: built.state, baseUrl: emu.url, token: TOKEN, sections: built.resolvedSections });
  expect(pushed.mispredicted).toEqual([]);
  return pushed.state;
}

describe('coursesync plan', () => {
  it('first run without a token: every lesson is a create, and no request is sent', async () => {
    const dir = await repoWithIds();
    const before = emu.stats().requests;
    const r = await runCli(['plan', dir, '--detailed-exitcode'], { COURSESYNC_BASE_URL: emu.url });
    expect(r.stderr).toBe(
      'Note: Section ids were not checked against the school (no API token): a wrong or misplaced id shows up when a token is set (COURSESYNC_TOKEN or --token-file); apply always checks before any write.\n',
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/\+ prog\/01-start\/01-welcome\.md will be created in sec_start at 1/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('Plan: 3 to create, 0 unchanged.');
    expect(emu.stats().requests).toBe(before);
    const plain = await runCli(['plan', dir]);
    expect(plain.code).toBe(0);
  });

  it('a name: section not yet resolved needs a token, and says which file and the two ways out', async () => {
    const dir = await copyFixture('plan-small');
    const r = await runCli(['plan', dir], { COURSESYNC_BASE_URL: emu.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/prog\/02-tooling\/section\.yaml is given by name \("Tooling"\)/);
    expect(r.stderr).toMatch(/set COURSESYNC_TOKEN .*or write `id: <section id>` in prog\/02-tooling\/section\.yaml/);
    expect(r.stderr).not.toMatch(/^Error|at .*\.js:/m);
  });

  it('resolves name: through the school, then plans from state with no request: no changes, exit 0', async () => {
    const dir = await copyFixture('plan-small');
    const state = await applied(dir);
    expect(state.sections['prog/02-tooling']).toEqual({ id: 'sec_tooling', name: 'Tooling', program_id: 'prog_intro' });
    const before = emu.stats().requests;
    const r = await runCli(['plan', dir, '--detailed-exitcode']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('No changes. 3 lessons unchanged.\n');
    expect(emu.stats().requests).toBe(before);
  });

  it('a small change set: text, json, saved plan and markdown summary agree', async () => {
    const dir = await repoWithIds();
    await applied(dir);
    const install = join(dir, 'prog/01-start/02-install.md');
    await writeFile(install, (await readFile(install, 'utf8')).replace('Install Node 20', 'Install Node 22').replace('drip_delay: 1', 'drip_delay: 2'));
    await writeFile(join(dir, 'prog/01-start/00-intro.md'), '---\nname: Intro\nlesson_type: text\n---\nHello.\n');
    const summaryFile = join(dir, 'summary.md');
    const text = await runCli(['plan', dir, '--detailed-exitcode', '--out', join(dir, 'plan.json')], { GITHUB_STEP_SUMMARY: summaryFile });
    expect(text.code).toBe(2);
    expect(text.stdout).toMatch(/~ prog\/01-start\/02-install\.md \(les_[^)]+\) will be updated in place/);
    expect(text.stdout).toMatch(/drip_delay: 1 → 2/);
    // Bodies in the author's terms: no HTML (this state records no file versions, and says so).
    // (A v2 state keeps the HTML last sent only as a fingerprint.)
    expect(text.stdout).toMatch(/ {6}body: changed \((\d+ characters|HTML known by fingerprint) → \d+ characters of HTML\)\n {6}no Markdown diff: the state does not record/);
    expect(text.stdout).not.toMatch(/<p>/);
    expect(text.stdout).toMatch(/Plan: 1 to create, 1 to update, 2 unchanged\.\n$/);
    const html = await runCli(['plan', dir, '--html-diff']);
    expect(html.stdout).toMatch(/-<p>Install Node 20|only its fingerprint sha256:[0-9a-f]{24}/);
    expect(html.stdout).toMatch(/\+<p>Install Node 22/);
    const json = await runCli(['plan', dir, '--json']);
    const saved = parsePlanText(await readFile(join(dir, 'plan.json'), 'utf8'), 'plan.json');
    expect(parsePlanText(json.stdout, 'stdout')).toEqual(saved);
    expect(saved.summary).toEqual({ create: 1, update: 1, move: 0, unpublish: 0, orphan: 0, drift: 0, uncertain: 0, unchanged: 2 });
    expect(saved.state.serial).toBe(1);
    expect(saved.base_url).toBe(emu.url);
    const md = await readFile(summaryFile, 'utf8');
    expect(md.startsWith(`### coursesync plan for \`${basename(dir)}\` on ${new URL(emu.url).host}\n\n**Plan: 1 to create, 1 to update, 2 unchanged.**`)).toBe(true);
    const mdOut = await runCli(['plan', dir, '--format', 'markdown']);
    expect(mdOut.stdout.trim()).toBe(md.trim());
  });

  it('differential: chains run in parallel against the school land exactly where the plan predicted', async () => {
    const dir = await repoWithIds();
    const state = await applied(dir);
    // Both sections get calls of their own, and welcome leaves sec_start for sec_tooling.
    await writeFile(join(dir, 'prog/01-start/00-first.md'), '---\nname: First\nlesson_type: text\n---\nx\n');
    await writeFile(join(dir, 'prog/01-start/section.yaml'), 'id: sec_start\nlessons: [first, install]\n');
    const welcome = await readFile(join(dir, 'prog/01-start/01-welcome.md'), 'utf8');
    await rm(join(dir, 'prog/01-start/01-welcome.md'));
    await writeFile(join(dir, 'prog/02-tooling/02-welcome.md'), welcome);
    await writeFile(join(dir, 'prog/02-tooling/00-new.md'), '---\nname: New tool\nlesson_type: text\n---\ny\n');
    const env = { COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url };
    const built = await buildPlan(dir, { env });
    expect(built.plan.summary).toMatchObject({ create: 2, move: 1 });
    expect(built.plan.chains).toHaveLength(1);
    const pushed = await pushPlan({ dir, plan: built.plan, state, baseUrl: emu.url, token: TOKEN, parallel: true });
    expect(pushed.mispredicted).toEqual([]);
    const again = await buildPlan(dir, { env });
    expect(again.plan.summary).toMatchObject({ create: 0, update: 0, move: 0, unchanged: 5 });
  });

  it('--refresh reads each lesson, reports drift per field and plans to send the repo\'s value back (exit 2)', async () => {
    const dir = await repoWithIds();
    const state = await applied(dir);
    const client = createSchoolClient({ baseUrl: emu.url, token: TOKEN });
    await client.lessons.update(state.lessons.welcome!.id!, { name: 'Welcome (edited in the UI)' });
    const r = await runCli(['plan', dir, '--refresh', '--detailed-exitcode'], { COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url });
    expect(r.stderr).toMatch(/^Note: 1 lesson was changed in the school since the last apply: welcome \(les_[^:]+: name\)\. `coursesync apply --refresh` sends/);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/! prog\/01-start\/01-welcome\.md \(les_[^)]+\) was changed in the school since the last apply: name/);
    expect(r.stdout).toMatch(/name: "Welcome" → "Welcome \(edited in the UI\)"/);
    expect(r.stdout).toMatch(/~ prog\/01-start\/01-welcome\.md \(les_[^)]+\) will be updated in place\n {6}name: "Welcome \(edited in the UI\)" → "Welcome"/);
    expect(r.stdout).toMatch(/Plan: 1 to update, 1 drifted, 2 unchanged\./);
    expect(r.stdout).not.toContain(TOKEN);
  });

  it('--refresh without a token says so', async () => {
    const dir = await repoWithIds();
    const r = await runCli(['plan', dir, '--refresh'], { COURSESYNC_BASE_URL: emu.url });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--refresh reads every tracked lesson, which needs the school API, but no API token is set/);
  });

  it('a state of another school is refused', async () => {
    const dir = await repoWithIds();
    await applied(dir);
    const r = await runCli(['plan', dir], { COURSESYNC_BASE_URL: 'https://other.example.com/api/v1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/belongs to http:\/\/127\.0\.0\.1:\d+\/api\/v1, not to https:\/\/other\.example\.com\/api\/v1/);
  });

  it('a corrupted state is an error and is left untouched', async () => {
    const dir = await repoWithIds();
    await mkdir(join(dir, '.coursesync'), { recursive: true });
    await writeFile(statePath(dir), '{"version": 1, "lin');
    const r = await runCli(['plan', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/state\.json is not valid JSON/);
    expect(await readFile(statePath(dir), 'utf8')).toBe('{"version": 1, "lin');
  });

  it('an invalid repo lists its diagnostics (as GitHub annotations in Actions) and exits 1', async () => {
    const dir = await repoWithIds();
    await writeFile(join(dir, 'prog/01-start/03-bad.md'), '---\nnam: Typo\n---\nx\n');
    const r = await runCli(['plan', dir, '--detailed-exitcode'], { GITHUB_ACTIONS: 'true' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/prog\/01-start\/03-bad\.md:\d+:\d+ error/);
    expect(r.stderr).toMatch(/::error file=prog\/01-start\/03-bad\.md/);
    expect(r.stdout).toBe('');
  });

  it('an unknown format is refused', async () => {
    const r = await runCli(['plan', await repoWithIds(), '--format', 'yaml']);
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.stderr).toMatch(/unknown format "yaml"/);
  });
});
