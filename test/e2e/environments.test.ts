/**
 * Environments end to end (docs/environments.md), choosing one and promoting: one course repo,
 * two schools (environments-fixture.ts), the built CLI. Choosing is explicit; staging first,
 * then production: the same lessons, each school's own ids; production refuses content staging
 * has not applied. Per school: environments-per-school.test.ts; what belongs to another
 * environment: environments-refusals.test.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';
import { env, lessonsOf, production, PRODUCTION_KEY, refusedBeforeAnyRequest, repoFiles, requests, staging, STAGING_KEY, useTwoSchools } from './environments-fixture.js';
import { lesson, runCli, writeRepo } from './helpers.js';

useTwoSchools({ resetEachTest: true });

describe('environments: choosing one', () => {
  it('a command that needs a school and names no environment is a usage error listing them, for every such command', async () => {
    const dir = await writeRepo(repoFiles());
    const commands = [
      ['plan', dir],
      ['apply', dir, '--yes'],
      ['state', 'list', '--dir', dir],
      ['state', 'rm', 'welcome', '--dir', dir],
      ['auth', 'status', '--dir', dir],
      ['import', 'les_1', '--key', 'welcome', '--dir', dir],
      ['duplicate', 'lesson', 'intro/a/1-welcome.md', '--to', 'intro/b', '--dir', dir],
      ['preview', dir, '--port', '0'],
      ['members', 'list', '--dir', dir],
    ];
    for (const args of commands) {
      const r = await refusedBeforeAnyRequest(args);
      expect(r.code, args.join(' ')).toBe(ExitCode.Usage);
      expect(r.stderr).toMatch(/this repo has 2 environments \(staging, production\) and none was named/);
      expect(r.stderr).toMatch(/hint: name one with --env \(or COURSESYNC_ENV\), e\.g\. --env staging/);
    }
    const unknown = await refusedBeforeAnyRequest(['plan', dir, '--env', 'prod']);
    expect(unknown.code).toBe(ExitCode.Usage);
    expect(unknown.stderr).toMatch(/--env names the environment "prod", which coursesync.yaml does not declare \(declared: staging, production\)/);
    const fromVariable = await refusedBeforeAnyRequest(['plan', dir], { COURSESYNC_ENV: 'qa' });
    expect(fromVariable.stderr).toMatch(/COURSESYNC_ENV names the environment "qa"/);
    // validate talks to no school: it needs no environment, and checks the ids of all of them.
    const valid = await runCli(['validate', dir], env());
    expect(valid.code, valid.stderr).toBe(0);
    expect(valid.stdout).toBe('1 program, 2 sections, 3 lessons: valid\n');
    expect((await runCli(['validate', dir, '--env', 'prod'], env())).code).toBe(ExitCode.Usage);
  });

  it('the other school commands talk to the named environment\'s school with its token, and sections resolve its program id', async () => {
    const dir = await writeRepo(repoFiles());
    const before = staging.stats().requests;
    const sections = await runCli(['sections', 'list', join(dir, 'intro'), '--dir', dir, '--env', 'production'], env());
    expect(sections.code, sections.stderr).toBe(0);
    expect(sections.stdout).toMatch(/prd_start\s.*Getting started/);
    expect(sections.stdout).not.toContain('stg_');
    expect(staging.stats().requests).toBe(before);
    const status = await runCli(['auth', 'status', '--dir', dir, '--env', 'staging'], env());
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('Environment: staging');
    expect(status.stdout).toContain('Token:  the COURSESYNC_TOKEN_STAGING variable');
  });

  it('--env in a repo without environments is a usage error too', async () => {
    const dir = await writeRepo({ ...repoFiles(), 'coursesync.yaml': `school:\n  base_url: ${staging.url}\n  lesson_url: https://staging.academy.example/products/{program_id}/lessons/{lesson_id}\n`, 'intro/program.yaml': 'id: stg_intro\n', 'intro/a/section.yaml': 'id: stg_start\n' });
    const r = await refusedBeforeAnyRequest(['plan', dir, '--env', 'staging']);
    expect(r.code).toBe(ExitCode.Usage);
    expect(r.stderr).toMatch(/declares no environments/);
  });
});

describe('environments: the token variable', () => {
  it('an environment whose token variable is set but empty is told so, naming the variable, before any request', async () => {
    const dir = await writeRepo(repoFiles());
    const before = requests();
    const r = await runCli(['apply', dir, '--env', 'staging', '--yes'], { ...env(), COURSESYNC_TOKEN_STAGING: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('the environment staging reads its token from COURSESYNC_TOKEN_STAGING, which is set but empty');
    expect(requests()).toBe(before);
  });
});

describe('environments: staging, then production', () => {
  it('creates the same lessons in both schools under each school\'s ids; each plan and apply names its environment and address first', async () => {
    const dir = await writeRepo(repoFiles());
    const plan = await runCli(['plan', dir, '--env', 'staging'], env());
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout.split('\n')[0]).toBe(`Environment staging: ${staging.url}`);

    const first = await runCli(['apply', dir, '--env', 'staging', '--yes'], env());
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.split('\n')[0]).toBe(`Environment staging: ${staging.url}`);
    expect(first.stdout).toMatch(/Apply complete: 3 created/);
    expect((await lessonsOf(production, PRODUCTION_KEY)).size).toBe(0);

    const second = await runCli(['apply', dir, '--env', 'production', '--yes'], env());
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout.split('\n')[0]).toBe(`Environment production: ${production.url}`);
    expect(second.stdout).toMatch(/Apply complete: 3 created/);

    const inStaging = await lessonsOf(staging, STAGING_KEY);
    const inProduction = await lessonsOf(production, PRODUCTION_KEY);
    expect([...inProduction.keys()].sort()).toEqual([...inStaging.keys()].sort());
    expect(inStaging.get('Welcome')!.section_id).toBe('stg_start');
    expect(inProduction.get('Welcome')!.section_id).toBe('prd_start');
    expect(inStaging.get('Narrowing')!.section_id).toBe('stg_types');
    expect(inProduction.get('Narrowing')!.section_id).toBe('prd_types');
    for (const name of ['Welcome', 'Setting up your editor']) expect(inProduction.get(name)!.body, name).toBe(inStaging.get(name)!.body);
    // The same body, its link to another lesson going to each school's own page of it.
    const stagingLink = `https://staging.academy.example/products/stg_intro/lessons/${inStaging.get('Welcome')!.id}`;
    const productionLink = `https://academy.example/products/prd_intro/lessons/${inProduction.get('Welcome')!.id}`;
    expect(inStaging.get('Narrowing')!.body).toContain(`href="${stagingLink}"`);
    expect(inProduction.get('Narrowing')!.body).toBe(inStaging.get('Narrowing')!.body.replace(stagingLink, productionLink));
    expect(inStaging.get('Narrowing')!.body).toContain('<table>');

    // One state per environment, stamped; nothing at the repo's default state path.
    const stagingState = JSON.parse(await readFile(join(dir, '.coursesync/env/staging/state.json'), 'utf8'));
    const productionState = JSON.parse(await readFile(join(dir, '.coursesync/env/production/state.json'), 'utf8'));
    expect(stagingState).toMatchObject({ environment: 'staging', base_url: staging.url, program_ids: ['stg_intro'] });
    expect(productionState).toMatchObject({ environment: 'production', base_url: production.url, program_ids: ['prd_intro'] });
    expect(Object.keys(stagingState.content.lessons).sort()).toEqual(['editor', 'narrowing', 'welcome']);
    await expect(readFile(join(dir, '.coursesync/state.json'))).rejects.toThrow();

    // Each environment's own plan: nothing left to do in either.
    for (const name of ['staging', 'production']) {
      const again = await runCli(['plan', dir, '--env', name], env());
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/No changes\. 3 lessons unchanged\./);
    }
    const list = await runCli(['state', 'list', '--dir', dir, '--env', 'production'], env());
    expect(list.stdout).toMatch(/welcome\s+les_\S+\s+prd_start/);
  });

  it('an edit applied only to staging is refused in production, naming the lesson and what to do; the override is printed', async () => {
    const dir = await writeRepo(repoFiles());
    expect((await runCli(['apply', dir, '--env', 'staging', '--yes'], env())).code).toBe(0);
    expect((await runCli(['apply', dir, '--env', 'production', '--yes'], env())).code).toBe(0);

    await writeFile(join(dir, 'intro/a/2-editor.md'), lesson('name: Setting up your editor\nlesson_type: text', 'Use VS Code, or any editor with a TypeScript language server.\n'));
    const before = requests();
    const refused = await runCli(['plan', dir, '--env', 'production'], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/1 lesson would reach production before staging has it .*intro\/a\/2-editor\.md \(changed since staging applied it\)/);
    expect(refused.stderr).toMatch(/hint: apply to staging first \(`coursesync apply --env staging`\)/);
    const applyRefused = await runCli(['apply', dir, '--env', 'production', '--yes'], env());
    expect(applyRefused.code).toBe(1);
    expect(applyRefused.stderr).toMatch(/would reach production before staging has it/);
    expect(requests()).toBe(before);

    const overridden = await runCli(['plan', dir, '--env', 'production', '--skip-promotion-check', '--format', 'markdown'], env());
    expect(overridden.code, overridden.stderr).toBe(0);
    expect(overridden.stdout).toMatch(/environment \*\*production\*\*/);
    expect(overridden.stdout).toMatch(/Promotion check skipped.*not applied to staging first: `intro\/a\/2-editor\.md` \(changed since staging applied it\)/);

    const text = await runCli(['plan', dir, '--env', 'production', '--skip-promotion-check'], env());
    expect(text.stdout.split('\n').slice(0, 2)).toEqual([
      `Environment production: ${production.url}`,
      'Promotion check skipped (--skip-promotion-check): 1 lesson was not applied to staging first: intro/a/2-editor.md (changed since staging applied it)',
    ]);

    // Applied to staging, the same edit is promoted.
    expect((await runCli(['apply', dir, '--env', 'staging', '--yes'], env())).code).toBe(0);
    const promoted = await runCli(['apply', dir, '--env', 'production', '--yes'], env());
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toMatch(/Apply complete: 1 updated/);
    expect((await lessonsOf(production, PRODUCTION_KEY)).get('Setting up your editor')!.body).toContain('Use VS Code');
  });
});
