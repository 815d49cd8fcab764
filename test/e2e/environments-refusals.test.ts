/**
 * Environments end to end (docs/environments.md): a state, an address or a key of the other
 * environment is refused before any request (counted on both schools). The course is applied
 * to staging and production once, before all tests; each test works on its own copy of that
 * repo, and none changes a school (each is refused before a request, or by the school's 401).
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIG, env, lessonsOf, production, PRODUCTION_KEY, refusedBeforeAnyRequest, repoFiles, staging, STAGING_KEY, useTwoSchools } from './environments-fixture.js';
import { lesson, runCli, writeRepo } from './helpers.js';

useTwoSchools({ resetEachTest: false });

describe('environments: what belongs to another environment is refused before any request', () => {
  // The course applied to both schools, once: each test gets a copy of the repo and its states.
  let applied: string;
  beforeAll(async () => {
    applied = await writeRepo(repoFiles());
    expect((await runCli(['apply', applied, '--env', 'staging', '--yes'], env())).code).toBe(0);
    expect((await runCli(['apply', applied, '--env', 'production', '--yes'], env())).code).toBe(0);
  });
  async function appliedRepo(): Promise<string> {
    const dir = await writeRepo({});
    await cp(applied, dir, { recursive: true });
    return dir;
  }

  it('a state copied from one environment\'s file into the other\'s', async () => {
    const dir = await appliedRepo();
    await cp(join(dir, '.coursesync/env/staging/state.json'), join(dir, '.coursesync/env/production/state.json'));
    for (const args of [['plan', dir, '--env', 'production'], ['apply', dir, '--env', 'production', '--yes'], ['state', 'list', '--dir', dir, '--env', 'production']]) {
      const r = await refusedBeforeAnyRequest(args);
      expect(r.stderr, args.join(' ')).toMatch(/the state file .*env\/production\/state\.json belongs to the environment staging, not to production/);
    }
  });

  it('a state of an environment dropped in as the repo\'s only state, or one with no stamp', async () => {
    const dir = await appliedRepo();
    const text = await readFile(join(dir, '.coursesync/env/production/state.json'), 'utf8');
    await writeFile(join(dir, '.coursesync/env/production/state.json'), text.replace(/\n  "environment": "production",/, ''));
    const r = await refusedBeforeAnyRequest(['apply', dir, '--env', 'production', '--yes']);
    expect(r.stderr).toMatch(/has no environment stamp, but it is read for the environment production/);
  });

  it('staging\'s state with production\'s address (from COURSESYNC_BASE_URL, --base-url or an edited coursesync.yaml)', async () => {
    const dir = await appliedRepo();
    const viaVariable = await refusedBeforeAnyRequest(['apply', dir, '--env', 'staging', '--yes'], { COURSESYNC_BASE_URL: production.url });
    expect(viaVariable.stderr).toMatch(/COURSESYNC_BASE_URL gives .* but the environment staging is the school http/);
    const viaFlag = await refusedBeforeAnyRequest(['plan', dir, '--env', 'staging', '--base-url', production.url]);
    expect(viaFlag.stderr).toMatch(/--base-url gives/);
    await writeFile(join(dir, 'coursesync.yaml'), CONFIG().replace(`base_url: ${staging.url}`, `base_url: ${production.url}`).replace('    promote_from: staging\n', ''));
    const edited = await refusedBeforeAnyRequest(['apply', dir, '--env', 'staging', '--yes']);
    expect(edited.stderr).toMatch(/env\/staging\/state\.json belongs to http:\/\/127\.0\.0\.1:\d+\/api\/v1, not to /);
  });

  it('production\'s key given for staging: refused when the other environment\'s variable holds it; else the school tells', async () => {
    const dir = await appliedRepo();
    await writeFile(join(dir, 'intro/a/1-welcome.md'), lesson('name: Welcome\nlesson_type: text', 'Welcome, again.\n'));
    const r = await refusedBeforeAnyRequest(['apply', dir, '--env', 'staging', '--yes'], { COURSESYNC_TOKEN_STAGING: PRODUCTION_KEY });
    expect(r.stderr).toMatch(/the token for the environment staging \(COURSESYNC_TOKEN_STAGING\) is the token of the environment production \(COURSESYNC_TOKEN_PRODUCTION\); no request was made/);
    const plan = await refusedBeforeAnyRequest(['plan', dir, '--env', 'staging'], { COURSESYNC_TOKEN_STAGING: PRODUCTION_KEY });
    expect(plan.stderr).toMatch(/is the token of the environment production/);
    // Only the staging variable set, to production's key: staging's school refuses it, and nothing is written.
    const before = await lessonsOf(staging, STAGING_KEY);
    const told = await runCli(['apply', dir, '--env', 'staging', '--yes'], { COURSESYNC_TOKEN_STAGING: PRODUCTION_KEY });
    expect(told.code).toBe(1);
    expect(told.stderr).toMatch(/401/);
    expect(await lessonsOf(staging, STAGING_KEY)).toEqual(before);
  });

  it('a state that records the other environment\'s program id', async () => {
    const dir = await appliedRepo();
    const file = join(dir, '.coursesync/env/production/state.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"program_ids": ["prd_intro"]', '"program_ids": ["prd_intro","stg_intro"]'));
    const r = await refusedBeforeAnyRequest(['plan', dir, '--env', 'production']);
    expect(r.stderr).toMatch(/records the program stg_intro, which is intro's program in the environment staging/);
  });

  it('a repo without environments refuses a stamped state in its default place', async () => {
    const dir = await appliedRepo();
    await writeFile(join(dir, 'coursesync.yaml'), `school:\n  base_url: ${staging.url}\n  lesson_url: https://staging.academy.example/products/{program_id}/lessons/{lesson_id}\n`);
    await writeFile(join(dir, 'intro/program.yaml'), 'id: stg_intro\n');
    await writeFile(join(dir, 'intro/a/section.yaml'), 'id: stg_start\n');
    await mkdir(join(dir, '.coursesync'), { recursive: true });
    await cp(join(dir, '.coursesync/env/staging/state.json'), join(dir, '.coursesync/state.json'));
    const r = await refusedBeforeAnyRequest(['apply', dir, '--yes'], { COURSESYNC_TOKEN: STAGING_KEY });
    expect(r.stderr).toMatch(/belongs to the environment staging, but this repo declares no environments/);
  });
});
