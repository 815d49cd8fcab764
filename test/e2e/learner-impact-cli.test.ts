/**
 * Learner impact through the built CLI against the emulator: plan shows it (text, markdown,
 * JSON), `plan --fail-on` fails on it while `--detailed-exitcode` keeps its meaning, and apply
 * refuses an unacknowledged error-level impact before any request, until it is acknowledged in
 * the repo (front-matter or coursesync.yaml) or run with --accept-impact.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { lessonCalls, schoolSections, SECRET, SEED, startTestEmulator, useTestSchool } from '../apply/helpers.js';
import { lesson, runCli, writeRepo } from './helpers.js';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';

let emu: RunningEmulator;
let env: Record<string, string>;
useTestSchool((e, v) => {
  emu = e;
  env = v;
});

const REPO: Record<string, string> = {
  'intro/program.yaml': 'id: prog_intro\n',
  'intro/a/section.yaml': 'id: sec_start\n',
  'intro/a/1-welcome.md': lesson('name: Welcome\nlesson_type: text', 'Hello, **learner**.'),
  'intro/a/2-setup.md': lesson('name: Setup\nlesson_type: text\ndrip_delay: 14', '| tool | version |\n|---|---|\n| node | 20 |'),
  'intro/a/3-quiz.md': lesson('name: Quiz\nlesson_type: text\ndrip_delay: 14', 'Answer [these](https://example.com/q).'),
};

async function appliedRepo(): Promise<string> {
  const dir = await writeRepo(REPO);
  const r = await runCli(['apply', dir, '--yes'], env);
  expect(r.code, r.stderr).toBe(0);
  return dir;
}

async function edit(dir: string, file: string, from: string, to: string) {
  const path = join(dir, file);
  await writeFile(path, (await readFile(path, 'utf8')).replace(from, to));
}

describe('learner impact in plan and apply', () => {
  it('plan shows the impact in text, markdown and JSON; --fail-on fails CI; --detailed-exitcode is unchanged', async () => {
    const dir = await appliedRepo();
    await edit(dir, 'intro/a/2-setup.md', 'drip_delay: 14', 'drip_delay: 21');
    await edit(dir, 'intro/a/1-welcome.md', 'lesson_type: text', 'lesson_type: text\nis_progression_locked: true');

    const text = await runCli(['plan', dir], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('Learner impact: 2 errors\n');
    expect(text.stdout).toContain('error   drip-grows      intro/a/2-setup.md: "Setup" unlocks on day 21 instead of 14');
    expect(text.stdout).toContain('error   lock-added      intro/a/1-welcome.md: a progression lock on "Welcome" now gates 2 published lessons after it until learners complete it: setup, quiz');

    const md = await runCli(['plan', dir, '--format', 'markdown'], env);
    expect(md.stdout).toContain('### Learner impact: 2 errors');
    expect(md.stdout).toContain('| ⛔ error | `drip-grows` | intro/a/2-setup.md |');

    const json = JSON.parse((await runCli(['plan', dir, '--json'], env)).stdout) as { impact: Array<{ level: string; rule: string; key: string; path: string }> };
    expect(json.impact.map((i) => [i.level, i.rule, i.key, i.path])).toEqual([
      ['error', 'lock-added', 'welcome', 'intro/a/1-welcome.md'],
      ['error', 'drip-grows', 'setup', 'intro/a/2-setup.md'],
    ]);

    expect((await runCli(['plan', dir, '--detailed-exitcode'], env)).code).toBe(2);
    const failing = await runCli(['plan', dir, '--fail-on', 'error'], env);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('Learner impact');
    expect(failing.stderr).toContain('the plan has 2 learner impacts of level error or worse not acknowledged in the repo (--fail-on error)');
    const bad = await runCli(['plan', dir, '--fail-on', 'severe'], env);
    expect(bad.code).toBe(ExitCode.Usage);
    expect(bad.stderr).toContain('--fail-on severe is not a learner-impact level');
  });

  it('apply refuses unacknowledged errors before any lesson is sent; an acknowledgement in the repo or --accept-impact lets it through', async () => {
    const dir = await appliedRepo();
    await edit(dir, 'intro/a/2-setup.md', 'drip_delay: 14', 'drip_delay: 21');
    await edit(dir, 'intro/a/3-quiz.md', 'lesson_type: text', 'lesson_type: text\nis_published: false');

    const requests = lessonCalls(emu);
    const refused = await runCli(['apply', dir, '--yes'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the plan has 2 error-level learner impacts not acknowledged in the repo; nothing was applied');
    expect(refused.stderr).toContain('intro/a/2-setup.md (drip-grows): "Setup" unlocks on day 21 instead of 14');
    expect(refused.stderr).toContain('hint: review them with `coursesync plan`');
    expect(lessonCalls(emu)).toBe(requests);

    // A sized rule is acknowledged with the size accepted: a bare drip-grows accepts nothing.
    await edit(dir, 'intro/a/2-setup.md', 'drip_delay: 21', 'drip_delay: 21\nacknowledge: [drip-grows]');
    const bare = await runCli(['plan', dir], env);
    expect(bare.stdout).toContain('"Setup" unlocks on day 21 instead of 14 (content learners could open becomes locked again) (to accept: acknowledge drip-grows=21)');
    // One acknowledged in front-matter, one in coursesync.yaml: apply proceeds.
    await edit(dir, 'intro/a/2-setup.md', 'acknowledge: [drip-grows]', 'acknowledge: [drip-grows=21]');
    expect((await runCli(['apply', dir, '--yes'], env)).code).toBe(1);
    await writeFile(join(dir, 'coursesync.yaml'), 'acknowledge:\n  - rule: unpublished\n    lesson: quiz\n    reason: the quiz is being rewritten\n');
    const planned = await runCli(['plan', dir], env);
    expect(planned.stdout).toContain('(acknowledged)');
    expect((await runCli(['plan', dir, '--fail-on', 'error'], env)).code).toBe(0);
    const applied = await runCli(['apply', dir, '--yes'], env);
    expect(applied.code, applied.stderr).toBe(0);
    const start = (await schoolSections(emu)).get('sec_start')!;
    expect(start.find((l) => l.name === 'Quiz')).toMatchObject({ is_published: false });

    // The old acknowledgement stays in the file; a later, bigger change is not covered by it.
    await edit(dir, 'intro/a/2-setup.md', 'drip_delay: 21', 'drip_delay: 30');
    const bigger = await runCli(['apply', dir, '--yes'], env);
    expect(bigger.code).toBe(1);
    expect(bigger.stderr).toContain('intro/a/2-setup.md (drip-grows): "Setup" unlocks on day 30 instead of 21');
    expect(bigger.stderr).toContain('`acknowledge: [drip-grows=30]`');
    await edit(dir, 'intro/a/2-setup.md', 'drip-grows=21', 'drip-grows=30');
    expect((await runCli(['apply', dir, '--yes'], env)).code).toBe(0);

    // --accept-impact: an explicit override on the command line.
    await edit(dir, 'intro/a/1-welcome.md', 'lesson_type: text', 'lesson_type: text\nis_published: false');
    expect((await runCli(['apply', dir, '--yes'], env)).code).toBe(1);
    expect((await runCli(['apply', dir, '--yes', '--accept-impact'], env)).code).toBe(0);
  });

  it('an acknowledgement naming an unknown rule is a clear error naming the file', async () => {
    const dir = await writeRepo({ ...REPO, 'intro/a/1-welcome.md': lesson('name: Welcome\nacknowledge: [drip-grow]') });
    const r = await runCli(['validate', dir], env);
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toMatch(/intro\/a\/1-welcome\.md:\d+:\d+.*acknowledge/);
  });

  it('with --refresh, section drips from GET /sections count: a move into a later section is an error', async () => {
    const seed = structuredClone(SEED);
    for (const p of seed.programs ?? []) for (const sec of p.sections ?? []) if (sec.id === 'sec_types') Object.assign(sec, { drip_delay: 7 });
    const dripping = await startTestEmulator({ seed });
    try {
      const denv = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: dripping.url };
      const dir = await writeRepo({ ...REPO, 'intro/b/section.yaml': 'id: sec_types\n', 'intro/b/1-types.md': lesson('name: Types\nlesson_type: text', 'Types.') });
      expect((await runCli(['apply', dir, '--yes'], denv)).code).toBe(0);
      await writeFile(join(dir, 'intro/b/2-setup.md'), await readFile(join(dir, 'intro/a/2-setup.md'), 'utf8'));
      const { rm } = await import('node:fs/promises');
      await rm(join(dir, 'intro/a/2-setup.md'));
      const refreshed = JSON.parse((await runCli(['plan', dir, '--json', '--refresh'], denv)).stdout) as { impact: Array<{ rule: string; message: string }> };
      expect(refreshed.impact).toMatchObject([{ rule: 'later-section', message: expect.stringContaining('unlocks on day 21 instead of 14') }]);
      const offline = JSON.parse((await runCli(['plan', dir, '--json'], denv)).stdout) as { impact: unknown[] };
      expect(offline.impact).toEqual([]);
    } finally {
      await dripping.close();
    }
  });
});
