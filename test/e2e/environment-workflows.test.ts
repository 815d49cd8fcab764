/**
 * The workflows `coursesync init` writes for a repo with environments
 * (examples/ci/github-environments/, equal to init's output: test/cli/init-environments.test.ts)
 * run step by step against real git and two schools: a bare origin, a teammate's clone, one
 * clone per job; the `run:` steps read from the YAML and run with bash, the built CLI behind
 * `npx --no coursesync`, `gh` a shim keeping the pull request's comments. Staging is applied,
 * then production, each with only its own secret and its own state commit; production alone
 * first is refused as not promoted; a pull request gets one comment, a section per environment.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startEmulator, type RunningEmulator, type SeedInput } from '../../src/emulator/index.js';
import { GH_CONTEXT } from './gh-shim.js';
import { EXAMPLES, lesson, writeRepo } from './helpers.js';
import { pushedOrigin, runShellStep, teammateGit, TEAMMATE_GIT_ENV, workflowMachine, type WorkflowStep } from './workflow-steps.js';

const STAGING_KEY = 'tok_STAGING_wf_4d2e';
const PRODUCTION_KEY = 'tok_PRODUCTION_wf_8a1c';
const GH_TOKEN = 'ghs_jobTokenNeverPrinted';

function seed(token: string, p: string): SeedInput {
  return {
    api_keys: [{ token, programs: 'all' }],
    programs: [{ id: `${p}_intro`, name: 'Intro', section_groups: [{ id: `${p}_grp`, name: 'Basics', position: 1 }], sections: [{ id: `${p}_start`, name: 'Getting started', section_group_id: `${p}_grp`, position: 1 }], member_ids: [] }],
  };
}

let staging: RunningEmulator;
let production: RunningEmulator;
let root: string;
let bin: string;
beforeAll(async () => {
  [staging, production] = await Promise.all([startEmulator({ port: 0, seed: seed(STAGING_KEY, 'stg') }), startEmulator({ port: 0, seed: seed(PRODUCTION_KEY, 'prd') })]);
  ({ root, bin } = await workflowMachine('coursesync-env-wf-', { gh: true }));
});
afterAll(async () => {
  await Promise.all([staging?.close(), production?.close()]);
  await rm(root, { recursive: true, force: true });
});

const git = teammateGit(() => root);

const files = (): Record<string, string> => ({
  'coursesync.yaml': `environments:
  staging:
    school: { base_url: ${staging.url} }
    token_env: COURSESYNC_TOKEN_STAGING
  production:
    school: { base_url: ${production.url} }
    token_env: COURSESYNC_TOKEN_PRODUCTION
    promote_from: staging
`,
  'intro/program.yaml': 'id: { staging: stg_intro, production: prd_intro }\n',
  'intro/a/section.yaml': 'id: { staging: stg_start, production: prd_start }\n',
  'intro/a/1-welcome.md': lesson('name: Welcome\nlesson_type: text', '# Welcome\n\n- install Node.js 20\n- run `npm ci`\n'),
  'intro/a/2-tables.md': lesson('name: Tables\nlesson_type: text', '| key | meaning |\n|---|---|\n| `name` | shown |\n\n```yaml\nname: Intro\n```\n'),
});

function origin(): Promise<{ origin: string; team: string }> {
  return pushedOrigin(root, files(), git);
}

type Job = { needs?: string; environment?: string; steps: WorkflowStep[] };
const workflow = async (file: string) => parse(await readFile(join(EXAMPLES, 'ci/github-environments', file), 'utf8')) as { jobs: Record<string, Job> };

/** `${{ … }}` values a run knows: both secrets exist in the repo; each job's steps pick theirs. */
const CONTEXT: Record<string, string> = {
  'github.ref_name': 'main',
  'github.token': GH_TOKEN,
  'secrets.COURSESYNC_TOKEN_STAGING': STAGING_KEY,
  'secrets.COURSESYNC_TOKEN_PRODUCTION': PRODUCTION_KEY,
  ...GH_CONTEXT,
};

/** One job of the apply workflow: checkout of the branch tip, then its `run:` steps. */
async function applyJob(originDir: string, name: string): Promise<{ failed: boolean; log: string }> {
  const job = (await workflow('coursesync-apply.yml')).jobs[name]!;
  const workspace = join(root, `job-${name}-${Math.random().toString(36).slice(2)}`);
  let failed = false;
  const log: string[] = [];
  for (const step of job.steps) {
    if (failed && step.if !== 'always()') continue;
    if (step.uses?.startsWith('actions/checkout@')) {
      await git(root, 'clone', '--quiet', '--branch', 'main', originDir, workspace);
    } else if (step.run !== undefined) {
      // Only what the step's own env gives: no secret reaches a step from outside it.
      const env: Record<string, string> = { ...(process.env as Record<string, string>), ...TEAMMATE_GIT_ENV, HOME: root, PATH: `${bin}:${process.env.PATH}`, GITHUB_ACTIONS: 'true', GITHUB_REF_NAME: 'main' };
      for (const k of Object.keys(env)) if (k.startsWith('COURSESYNC_')) delete env[k];
      const r = await runShellStep(step as WorkflowStep & { run: string }, workspace, env, CONTEXT);
      log.push(r.output);
      if (!r.ok) failed = true;
    }
  }
  return { failed, log: log.join('') };
}

async function lessonsOf(emu: RunningEmulator, token: string): Promise<Map<string, { id: string; body: string; section_id: string }>> {
  const res = await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/state'), { headers: { authorization: `Bearer ${token}` } });
  const state = (await res.json()) as { programs: Array<{ sections: Array<{ lessons: Array<{ id: string; name: string; body: string; section_id: string }> }> }> };
  return new Map(state.programs.flatMap((p) => p.sections.flatMap((s) => s.lessons.map((l) => [l.name, l] as const))));
}

describe('the apply workflow of a repo with environments', () => {
  it('applies staging, then production, each with its own secret and its own state commit; production first is refused', async () => {
    const { origin: o, team } = await origin();
    const doc = await workflow('coursesync-apply.yml');
    expect(doc.jobs.production).toMatchObject({ needs: 'staging', environment: 'production' });

    // Production alone (its job re-run before staging ever applied): refused, nothing written anywhere.
    const early = await applyJob(o, 'production');
    expect(early.failed).toBe(true);
    expect(early.log).toMatch(/2 lessons would reach production before staging has it/);
    expect((await lessonsOf(production, PRODUCTION_KEY)).size).toBe(0);

    const first = await applyJob(o, 'staging');
    expect(first.failed, first.log).toBe(false);
    expect(first.log).toMatch(/^Environment staging: http:\/\/127\.0\.0\.1:\d+\/api\/v1$/m);
    expect((await lessonsOf(staging, STAGING_KEY)).size).toBe(2);
    expect((await lessonsOf(production, PRODUCTION_KEY)).size).toBe(0);

    const second = await applyJob(o, 'production');
    expect(second.failed, second.log).toBe(false);
    expect(second.log).toMatch(/^Environment production: /m);
    expect(second.log).toMatch(/Apply complete: 2 created/);
    const inStaging = await lessonsOf(staging, STAGING_KEY);
    const inProduction = await lessonsOf(production, PRODUCTION_KEY);
    expect(inProduction.get('Tables')!.body).toBe(inStaging.get('Tables')!.body);
    expect(inProduction.get('Tables')!.section_id).toBe('prd_start');

    // Two state commits on main, each of its own environment's file; no token anywhere in them.
    await git(team, 'pull', '--quiet', 'origin', 'main');
    const commits = (await git(team, 'log', '--format=%s', '-3')).split('\n');
    expect(commits.slice(0, 2)).toEqual([expect.stringMatching(/^coursesync: production state after apply of /), expect.stringMatching(/^coursesync: staging state after apply of /)]);
    expect(await git(team, 'show', '--name-only', '--format=', 'HEAD')).toBe('.coursesync/env/production/state.json');
    expect(await git(team, 'show', '--name-only', '--format=', 'HEAD~1')).toBe('.coursesync/env/staging/state.json');
    for (const secret of [STAGING_KEY, PRODUCTION_KEY, GH_TOKEN]) {
      expect(first.log + second.log).not.toContain(secret);
      expect(await git(team, 'log', '-p', '--format=%B')).not.toContain(secret);
    }
    // The checkouts kept no credentials: nothing was written to their git config.
    expect(await readFile(join(team, '.git/config'), 'utf8')).not.toMatch(/extraheader|x-access-token/);
  });
});

describe('the plan workflow of a repo with environments', () => {
  it('posts one comment with a plan per environment; the promoted one says its check was skipped', async () => {
    const { origin: o, team } = await origin();
    expect((await applyJob(o, 'staging')).failed).toBe(false);
    expect((await applyJob(o, 'production')).failed).toBe(false);
    await git(team, 'pull', '--quiet', 'origin', 'main');
    await git(team, 'checkout', '--quiet', '-b', 'quiz');
    await writeRepo({ 'intro/a/1-welcome.md': lesson('name: Welcome\nlesson_type: text', '# Welcome\n\n- install Node.js 20\n- run `npm ci`\n- take the quiz\n') }, team);
    await git(team, 'commit', '--quiet', '-am', 'A quiz');

    const steps = (await workflow('coursesync-plan.yml')).jobs.plan!.steps;
    const store = join(root, `comments-${Math.random().toString(36).slice(2)}.json`);
    const outputs = join(root, `outputs-${Math.random().toString(36).slice(2)}`);
    await writeFile(outputs, '');
    const env: Record<string, string> = { ...(process.env as Record<string, string>), ...TEAMMATE_GIT_ENV, HOME: root, PATH: `${bin}:${process.env.PATH}`, GITHUB_OUTPUT: outputs, GH_SHIM_STORE: store };
    for (const k of Object.keys(env)) if (k.startsWith('COURSESYNC_')) delete env[k];
    for (const name of ['Plan', 'Post the plan as one sticky comment']) {
      const r = await runShellStep(steps.find((s) => s.name === name) as WorkflowStep & { run: string }, team, env, { ...CONTEXT, 'steps.plan.outputs.exitcode': '2' });
      expect(r.ok, r.output).toBe(true);
    }
    const [comment] = JSON.parse(await readFile(store, 'utf8')) as Array<{ body: string }>;
    const sections = comment!.body.split('\n').filter((l) => l.startsWith('### coursesync plan for'));
    expect(sections).toEqual([expect.stringMatching(/environment \*\*staging\*\* on 127\.0\.0\.1:\d+$/), expect.stringMatching(/environment \*\*production\*\* on 127\.0\.0\.1:\d+$/)]);
    expect(comment!.body.match(/\*\*Plan: 1 to update, 1 unchanged\.\*\*/g)).toHaveLength(2);
    expect(comment!.body).toMatch(/Promotion check skipped.*not applied to staging first: `intro\/a\/1-welcome\.md` \(changed since staging applied it\)/);
    expect(comment!.body).not.toContain(GH_TOKEN);

    // A pull request that breaks a lesson: the Plan step fails, and the comment says why for each environment.
    await writeRepo({ 'intro/a/2-tables.md': '---\nname: Tables\nlesson_type: txt\n---\nBody.\n' }, team);
    const broken = await runShellStep(steps.find((s) => s.name === 'Plan') as WorkflowStep & { run: string }, team, env, CONTEXT);
    expect(broken.ok).toBe(false);
    const plan = await readFile(join(team, 'plan.md'), 'utf8');
    expect(plan.match(/\*\*✖ The plan failed:\*\*/g)).toHaveLength(2);
    expect(plan).toMatch(/environment \*\*production\*\* on 127\.0\.0\.1:\d+\n\n\*\*✖ The plan failed:\*\*/);
    expect(await readFile(outputs, 'utf8')).toMatch(/exitcode=1\n$/);
  });
});
