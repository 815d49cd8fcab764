/**
 * `coursesync init` in a repo whose coursesync.yaml declares environments writes the
 * environment workflows (docs/environments.md#workflows): one plan per environment, one apply job
 * per environment in promotion order, each behind its GitHub environment with its own secret.
 * examples/ci/github-environments/ is exactly what it writes for staging and production.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyWorkflow, planWorkflow } from '../../src/source/environment-workflows.js';
import { EXAMPLES, runCli } from '../e2e/helpers.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const CONFIG = `environments:
  production:
    school: { base_url: https://school.example/api/v1 }
    token_env: COURSESYNC_TOKEN_PRODUCTION
    promote_from: staging
  staging:
    school: { base_url: https://staging.example/api/v1 }
    token_env: COURSESYNC_TOKEN_STAGING
`;

const read = (dir: string, path: string) => readFile(join(dir, path), 'utf8');

describe('coursesync init with environments', () => {
  it('writes the environment workflows: staging, then production behind its environment, each with its own secret and state', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coursesync-init-env-'));
    dirs.push(dir);
    execFileSync('git', ['init', '--quiet', dir]);
    await writeFile(join(dir, 'coursesync.yaml'), CONFIG);
    const r = await runCli(['init', dir]);
    expect(r.code, r.stderr).toBe(0);
    const apply = await read(dir, '.github/workflows/coursesync-apply.yml');
    const plan = await read(dir, '.github/workflows/coursesync-plan.yml');
    // Declared production first: the jobs still run in promotion order.
    expect(apply).toBe(await readFile(join(EXAMPLES, 'ci/github-environments/coursesync-apply.yml'), 'utf8'));
    expect(plan).toBe(await readFile(join(EXAMPLES, 'ci/github-environments/coursesync-plan.yml'), 'utf8'));

    const doc = parse(apply) as { jobs: Record<string, { needs?: string; environment: string; steps: Array<{ name?: string; run?: string; env?: Record<string, string> }> }> };
    expect(Object.keys(doc.jobs)).toEqual(['assets', 'staging', 'production']);
    expect(doc.jobs.staging).toMatchObject({ needs: 'assets', environment: 'staging' });
    expect(doc.jobs.production).toMatchObject({ needs: 'staging', environment: 'production' });
    const applyStep = (job: string) => doc.jobs[job]!.steps.find((s) => s.name === 'Apply')!;
    expect(applyStep('staging')).toEqual({ name: 'Apply', env: { COURSESYNC_TOKEN_STAGING: '${{ secrets.COURSESYNC_TOKEN_STAGING }}' }, run: 'npx --no coursesync apply --yes --env staging' });
    expect(applyStep('production').env).toEqual({ COURSESYNC_TOKEN_PRODUCTION: '${{ secrets.COURSESYNC_TOKEN_PRODUCTION }}' });
    const commit = doc.jobs.production!.steps.find((s) => s.name === 'Commit the state file')!.run!;
    expect(commit).toContain('git add .coursesync/env/production/state.json');
    expect(commit).not.toMatch(/\.coursesync\/state\.json|staging/);
    expect(doc.jobs.assets!.steps.map((s) => s.name ?? '')).toContain('Publish the asset folder');
    expect(doc.jobs.staging!.steps.map((s) => s.name ?? '')).not.toContain('Publish the asset folder');

    expect(plan).toMatch(/plan --env staging --format markdown/);
    expect(plan).toMatch(/plan --env production --skip-promotion-check --format markdown/);
  });

  it('the generator is what the examples show, for the same environments', async () => {
    const envs = [
      { name: 'staging', token_env: 'COURSESYNC_TOKEN_STAGING' },
      { name: 'production', token_env: 'COURSESYNC_TOKEN_PRODUCTION', promote_from: 'staging' },
    ];
    const template = (f: string) => readFile(join(EXAMPLES, 'ci/github', f), 'utf8');
    expect(applyWorkflow(await template('coursesync-apply.yml'), envs)).toBe(await readFile(join(EXAMPLES, 'ci/github-environments/coursesync-apply.yml'), 'utf8'));
    expect(planWorkflow(await template('coursesync-plan.yml'), envs)).toBe(await readFile(join(EXAMPLES, 'ci/github-environments/coursesync-plan.yml'), 'utf8'));
  });
});
