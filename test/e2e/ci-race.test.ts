/**
 * The shipped apply workflow (examples/ci/github/coursesync-apply.yml) against real git: a bare
 * origin, a teammate's clone, and one clone per workflow run. The workflow's own `run:` steps are
 * read from the YAML and run with bash as GitHub runs them (`bash -eo pipefail`), with the built
 * CLI behind `npx --no coursesync` (the copy `npm ci` installs from the course repo's lockfile); actions/checkout is emulated from its `with:` (ref, the branch
 * tip or the triggering commit). The race: main moves while apply runs, and the queued run must
 * start from the state the first run pushed, so nothing is created twice.
 */
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { readStateFile } from '../../src/state/state-file.js';
import { SECRET, resetEmulator, schoolSections, startTestEmulator } from '../apply/helpers.js';
import { BASE_REPO } from '../apply/course-files.js';
import { CLI, EXAMPLES, lesson, writeRepo } from './helpers.js';
import { serveAssets } from './static-server.js';
import { expand, pushedOrigin, runShellStep, teammateGit, TEAMMATE_GIT_ENV, workflowMachine, workflowSteps } from './workflow-steps.js';

let emu: RunningEmulator;
let root: string;
let bin: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  ({ root, bin } = await workflowMachine('coursesync-ci-race-'));
});
afterAll(async () => {
  await emu?.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  await resetEmulator(emu);
});

const git = teammateGit(() => root);

/**
 * One run of the workflow, triggered by a push of `sha`; steps run one at a time.
 * `checkout` overrides what the checkout step checks out (a re-run of an old job); `instead`
 * replaces the script of the named steps.
 */
async function workflowRun(origin: string, sha: string, name: string, options: { checkout?: string; instead?: Record<string, string> } = {}) {
  const steps = await workflowSteps('coursesync-apply.yml', 'apply');
  const context = { 'github.ref_name': 'main', 'github.ref': 'refs/heads/main', 'github.sha': sha, 'secrets.COURSESYNC_TOKEN': SECRET };
  const workspace = join(root, name);
  let failed = false;
  const log: string[] = [];
  let next = 0;
  /** Run the steps up to (and including) the one named `until`, or all. */
  const steps_ = async (until?: string) => {
    for (; next < steps.length; next++) {
      const step = steps[next]!;
      if (failed && step.if !== 'always()') continue;
      if (step.uses?.startsWith('actions/checkout')) {
        // What actions/checkout does: `ref` when given (an expression), else the triggering commit.
        const ref = options.checkout ?? (step.with?.ref === undefined ? sha : expand(String(step.with.ref), context));
        await git(root, 'clone', '--quiet', '--no-checkout', origin, workspace);
        await git(workspace, 'checkout', '--quiet', ref === 'main' ? 'main' : ref);
      } else if (step.run !== undefined) {
        const script = options.instead?.[step.name ?? ''] ?? step.run;
        const env: Record<string, string> = {
          ...(process.env as Record<string, string>),
          ...TEAMMATE_GIT_ENV,
          HOME: root,
          PATH: `${bin}:${process.env.PATH}`,
          GITHUB_ACTIONS: 'true',
          GITHUB_SHA: sha,
          GITHUB_REF_NAME: 'main',
          COURSESYNC_BASE_URL: emu.url,
        };
        const r = await runShellStep({ ...step, run: script }, workspace, env, context);
        log.push(r.output);
        if (!r.ok) failed = true;
      }
      if (until !== undefined && step.name === until) {
        next++;
        return;
      }
    }
  };
  return { runUntil: steps_, result: () => ({ failed, log: log.join('') }) };
}

/** Every lesson name in the school, sorted (duplicates show twice). */
async function schoolNames(): Promise<string[]> {
  return [...(await schoolSections(emu)).values()].flat().map((l) => l.name).sort();
}

/** A bare origin holding BASE_REPO on main, and a teammate's clone of it. */
function origin(): Promise<{ origin: string; team: string }> {
  return pushedOrigin(root, BASE_REPO, git);
}

describe('the shipped apply workflow publishes the referenced files before apply', () => {
  it('the asset folder is built from the repo, published, and apply finds every file; nothing is held back', async () => {
    const { origin: o, team } = await origin();
    // GitHub Pages, as the two `uses:` steps would publish it: the run's _site folder, served.
    const host = await serveAssets(join(root, 'run-assets', '_site'));
    try {
      await writeRepo({ 'coursesync.yaml': `removed_lessons: keep\nassets:\n  base_url: ${host.baseUrl}\n`, 'intro/a/6-picture.md': lesson('name: The logo\nlesson_type: text', '# The logo\n\n![The logo](img/logo.png)\n') }, team);
      await mkdir(join(team, 'intro/a/img'));
      await copyFile(join(EXAMPLES, '../test/fixtures/repos/odin/foundations/01-intro/images/logo.png'), join(team, 'intro/a/img/logo.png'));
      await git(team, 'add', '.');
      await git(team, 'commit', '--quiet', '-m', 'A lesson with an image');
      await git(team, 'push', '--quiet', 'origin', 'main');
      const runAssets = await workflowRun(o, await git(team, 'rev-parse', 'HEAD'), 'run-assets');
      await runAssets.runUntil();
      const { failed, log } = runAssets.result();
      expect(failed, log).toBe(false);
      expect(log).toMatch(/^\+ logo\.[0-9a-f]{16}\.png {2}\(intro\/a\/img\/logo\.png\)$/m);
      expect(host.requests.some((r) => /^(HEAD|GET) logo\.[0-9a-f]{16}\.png$/.test(r))).toBe(true);
      const picture = [...(await schoolSections(emu)).values()].flat().find((l) => l.name === 'The logo');
      // What a learner's page shows (the emulator's lesson page): the image at its published URL.
      const page = await (await fetch(`${emu.url.replace(/\/api\/v1$/, '')}/products/prog_intro/lessons/${picture!.id}`)).text();
      expect(page).toMatch(new RegExp(`<img src="${host.baseUrl}logo\\.[0-9a-f]{16}\\.png"`));
      expect(log).toMatch(/^Apply complete: \d+ created/m);
    } finally {
      await host.close();
    }
  });
});

describe('the shipped apply workflow under a race', () => {
  it('main moves while apply runs: the state is rebased and pushed, the queued run starts from it, nothing is created twice', async () => {
    const { origin: o, team } = await origin();
    const first = await workflowRun(o, await git(team, 'rev-parse', 'HEAD'), 'run-1');
    await first.runUntil('Apply');
    // While run 1 applies, a pull request is merged: a new lesson.
    await writeRepo({ 'intro/a/5-epsilon-b.md': lesson('name: Review\nlesson_type: text', 'A [summary](https://example.com/summary) of the section.') }, team);
    await git(team, 'add', '.');
    await git(team, 'commit', '--quiet', '-m', 'A review lesson');
    await git(team, 'push', '--quiet', 'origin', 'main');
    const merged = await git(team, 'rev-parse', 'HEAD');
    await first.runUntil();
    expect(first.result().failed, first.result().log).toBe(false);
    expect(first.result().log).toContain('Pushing the state was rejected (main moved); integrating the new commits (try 1 of 5).');

    // The run queued behind it, triggered by the merge (which lacks run 1's state).
    const second = await workflowRun(o, merged, 'run-2');
    await second.runUntil();
    expect(second.result().failed, second.result().log).toBe(false);
    expect(second.result().log).toMatch(/^\+ create epsilon-b → sec_start #5/m);
    expect(second.result().log).toMatch(/^Apply complete: 1 created/m);

    const names = await schoolNames();
    expect(names).toEqual(['Alpha', 'Beta', 'Delta', 'Epsilon', 'Eta', 'Gamma', 'Review', 'Zeta']);
    await git(team, 'pull', '--quiet', '--rebase', 'origin', 'main');
    const state = JSON.parse(await readFile(join(team, '.coursesync/state.json'), 'utf8')) as { lessons: Record<string, unknown> };
    expect(Object.keys(state.lessons).sort()).toEqual(['alpha', 'beta', 'delta', 'epsilon', 'epsilon-b', 'eta', 'gamma', 'zeta']);
    expect(await git(team, 'log', '--format=%s')).toMatch(/^coursesync: state after apply of \w+\ncoursesync: state after apply of \w+\nA review lesson\nThe course$/);
  });

  it('a checkout older than the newest state is refused before apply, with what to do', async () => {
    const { origin: o, team } = await origin();
    const start = await git(team, 'rev-parse', 'HEAD');
    const first = await workflowRun(o, start, 'run-old-1');
    await first.runUntil();
    expect(first.result().failed, first.result().log).toBe(false);
    const before = await schoolNames();
    // A checkout of the triggering commit (a re-run of an old job, or a workflow edited back to
    // the default checkout) would start without the state: the check step stops it.
    const stale = await workflowRun(o, start, 'run-old-2', { checkout: start });
    await stale.runUntil();
    expect(stale.result().failed).toBe(true);
    expect(stale.result().log).toContain('::error file=.coursesync/state.json::The checked-out state is not the newest on main');
    expect(await schoolNames()).toEqual(before);
  });

  it('a state that cannot be rebased fails the run loudly, printing the state and what to do', async () => {
    const { origin: o, team } = await origin();
    const first = await workflowRun(o, await git(team, 'rev-parse', 'HEAD'), 'run-conflict-1');
    await first.runUntil();
    await git(team, 'pull', '--quiet', '--rebase', 'origin', 'main');
    await writeRepo({ 'intro/a/5-epsilon-b.md': lesson('name: Review\nlesson_type: text') }, team);
    await git(team, 'add', '.');
    await git(team, 'commit', '--quiet', '-m', 'A review lesson');
    await git(team, 'push', '--quiet', 'origin', 'main');
    const second = await workflowRun(o, await git(team, 'rev-parse', 'HEAD'), 'run-conflict-2');
    await second.runUntil('Apply');
    // Meanwhile someone commits a hand-edited state (what the README forbids).
    const statePath = join(team, '.coursesync/state.json');
    await writeFile(statePath, (await readFile(statePath, 'utf8')).replace('"serial": ', '"serial": 1'));
    await git(team, 'commit', '--quiet', '-am', 'Edit the state by hand');
    await git(team, 'push', '--quiet', 'origin', 'main');
    await second.runUntil();
    const { failed, log } = second.result();
    expect(failed).toBe(true);
    expect(log).toContain('::error file=.coursesync/state.json::The state could not be rebased onto main: a commit there changed .coursesync/state.json too.');
    expect(log).toContain('take this run\'s state into main');
    expect(log).toMatch(/"epsilon-b": \{"applied"/);
  });
});

describe('the shipped apply workflow after a killed apply', () => {
  it('the journal a SIGKILLed apply left is folded into the committed state: the next run creates only the rest, nothing twice', async () => {
    const { origin: o, team } = await origin();
    // The real apply, killed (as a cancelled or timed-out job) once three calls are recorded and
    // every request sent is recorded (so what the school has is exactly what the state says).
    const killed = [
      `cat > kill-apply.mjs <<'EOF'`,
      `import { applyCourse } from ${JSON.stringify(join(CLI, '../../apply/apply-course.js'))};`,
      `let started = 0, ended = 0;`,
      `await applyCourse(process.cwd(), { concurrency: 1, onEvent: (e) => {`,
      `  if (e.type === 'call-start') started++;`,
      `  else if (++ended >= 3 && ended === started) process.kill(process.pid, 'SIGKILL');`,
      `} });`,
      `EOF`,
      `node kill-apply.mjs; rm kill-apply.mjs`,
    ].join('\n');
    const first = await workflowRun(o, await git(team, 'rev-parse', 'HEAD'), 'run-killed', { instead: { Apply: killed } });
    await first.runUntil('Apply');
    expect(first.result().failed).toBe(true);
    // The calls are in the journal, not in state.json.
    const workspace = join(root, 'run-killed');
    const durable = (await readStateFile(workspace)).state;
    const made = Object.keys(durable.lessons).sort();
    expect(made.length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(JSON.parse(await readFile(join(workspace, '.coursesync/state.json'), 'utf8')).lessons)).toEqual([]);
    await first.runUntil();
    expect(first.result().log).toMatch(/^Folded the journal into .*state\.json \(serial \d+\)\.$/m);
    await git(team, 'pull', '--quiet', '--rebase', 'origin', 'main');
    expect(await git(team, 'ls-files', '.coursesync')).toBe('.coursesync/state.json');
    const committed = JSON.parse(await readFile(join(team, '.coursesync/state.json'), 'utf8')) as { lessons: object; pending: Record<string, { action: string; key: string }>; serial: number };
    expect(Object.keys(committed.lessons).sort()).toEqual(made);
    expect(committed.serial).toBe(durable.serial);
    expect(await schoolNames()).toHaveLength(made.length);

    // The next run continues: the creates the kill left unsent (their records were written
    // ahead) are recreated, the others are not sent again.
    const unsent = Object.values(committed.pending).filter((p) => p.action === 'create').flatMap((p) => ['--recreate', p.key]);
    const apply = unsent.length === 0 ? undefined : { Apply: `npx --no coursesync apply --yes ${unsent.join(' ')} || npx --no coursesync apply --yes` };
    const second = await workflowRun(o, await git(team, 'rev-parse', 'HEAD'), 'run-after-kill', { instead: apply });
    await second.runUntil();
    expect(second.result().failed, second.result().log).toBe(false);
    expect(second.result().log).toMatch(new RegExp(`^Apply complete: ${7 - made.length} created`, 'm'));
    expect(await schoolNames()).toEqual(['Alpha', 'Beta', 'Delta', 'Epsilon', 'Eta', 'Gamma', 'Zeta']);
  });
});
