/**
 * Environments end to end (docs/environments.md): one course repo, two schools (two emulators on
 * two free ports, each with its own ids and its own key), the built CLI. Staging first, then
 * production: the same lessons, each school's own ids; choosing is explicit; a state, an
 * address or a key of the other environment is refused before any request (counted on both
 * emulators); production refuses content staging has not applied.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';
import { startEmulator, type RunningEmulator, type SeedInput } from '../../src/emulator/index.js';
import { encodeRecord } from '../../src/state/journal.js';
import { lesson, removeRepos, runCli, writeRepo } from './helpers.js';

const STAGING_KEY = 'tok_STAGING_7f3a';
const PRODUCTION_KEY = 'tok_PRODUCTION_91bc';

/** A school: one program with a section by id and one found by name, under ids of its own. */
function seed(token: string, p: string): SeedInput {
  return {
    api_keys: [{ token, programs: 'all' }],
    programs: [
      {
        id: `${p}_intro`,
        name: 'Intro to TypeScript',
        section_groups: [{ id: `${p}_grp`, name: 'Basics', position: 1 }],
        sections: [
          { id: `${p}_start`, name: 'Getting started', section_group_id: `${p}_grp`, position: 1 },
          { id: `${p}_types`, name: 'Types', section_group_id: `${p}_grp`, position: 2 },
        ],
        member_ids: [],
      },
    ],
  };
}

let staging: RunningEmulator;
let production: RunningEmulator;
const env = () => ({ COURSESYNC_TOKEN_STAGING: STAGING_KEY, COURSESYNC_TOKEN_PRODUCTION: PRODUCTION_KEY });

beforeAll(async () => {
  [staging, production] = await Promise.all([startEmulator({ port: 0, seed: seed(STAGING_KEY, 'stg') }), startEmulator({ port: 0, seed: seed(PRODUCTION_KEY, 'prd') })]);
});
afterAll(async () => {
  await Promise.all([staging?.close(), production?.close()]);
  await removeRepos();
});
beforeEach(async () => {
  for (const [emu, token] of [[staging, STAGING_KEY], [production, PRODUCTION_KEY]] as const) {
    await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/reset'), { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  }
});

const CONFIG = () => `# Two schools: try in staging, then promote to production.
removed_lessons: keep
environments:
  staging:
    school:
      base_url: ${staging.url}
      lesson_url: https://staging.academy.example/products/{program_id}/lessons/{lesson_id}
    token_env: COURSESYNC_TOKEN_STAGING
  production:
    school:
      base_url: ${production.url}
      lesson_url: https://academy.example/products/{program_id}/lessons/{lesson_id}
    token_env: COURSESYNC_TOKEN_PRODUCTION
    promote_from: staging
`;

const NARROWING = lesson(
  'name: Narrowing\nlesson_type: text\ndescription: How `typeof` and `in` narrow a union.',
  `TypeScript narrows a union when a check rules members out.

| check | narrows to |
|---|---|
| \`typeof x === "string"\` | \`string\` |
| \`"kind" in x\` | members with \`kind\` |

\`\`\`ts
function len(x: string | string[]): number {
  return typeof x === 'string' ? x.length : x.length;
}
\`\`\`

See [the first lesson](../a/1-welcome.md) for the setup.
`,
);

function repoFiles(): Record<string, string> {
  return {
    'coursesync.yaml': CONFIG(),
    'intro/program.yaml': 'name: Intro to TypeScript\nid:\n  staging: stg_intro\n  production: prd_intro\n',
    'intro/a/section.yaml': 'id: {staging: stg_start, production: prd_start}\n',
    'intro/a/1-welcome.md': lesson('name: Welcome\nlesson_type: text', 'Welcome to the course.\n\n- install Node.js 20\n- run `npm install`\n'),
    'intro/a/2-editor.md': lesson('name: Setting up your editor\nlesson_type: text', 'Use any editor with a TypeScript language server.\n'),
    'intro/b/section.yaml': 'name: Types\n',
    'intro/b/1-narrowing.md': NARROWING,
  };
}

interface SchoolLesson {
  id: string;
  name: string;
  body: string;
  section_id: string;
  position: number;
}

/** Every lesson of a school, by name. */
async function lessonsOf(emu: RunningEmulator, token: string): Promise<Map<string, SchoolLesson>> {
  const res = await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/state'), { headers: { authorization: `Bearer ${token}` } });
  const state = (await res.json()) as { programs: Array<{ sections: Array<{ lessons: SchoolLesson[] }> }> };
  return new Map(state.programs.flatMap((p) => p.sections.flatMap((s) => s.lessons.map((l) => [l.name, l] as const))));
}

const requests = () => staging.stats().requests + production.stats().requests;

/** Run a command and check it sent no request to either school. */
async function refusedBeforeAnyRequest(args: string[], extra: Record<string, string> = {}) {
  const before = requests();
  const r = await runCli(args, { ...env(), ...extra });
  expect(requests(), r.stderr).toBe(before);
  expect(r.code).not.toBe(0);
  expect(r.stderr).not.toContain(STAGING_KEY);
  expect(r.stderr).not.toContain(PRODUCTION_KEY);
  return r;
}

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

describe('environments: each school on its own', () => {
  it('staging\'s learner page shows the lesson; drift in production is production\'s alone', async () => {
    const dir = await writeRepo(repoFiles());
    expect((await runCli(['apply', dir, '--env', 'staging', '--yes'], env())).code).toBe(0);
    expect((await runCli(['apply', dir, '--env', 'production', '--yes'], env())).code).toBe(0);
    const narrowing = (await lessonsOf(staging, STAGING_KEY)).get('Narrowing')!;
    const page = await (await fetch(`${staging.url.replace(/\/api\/v1$/, '')}/products/stg_intro/lessons/${narrowing.id}`)).text();
    expect(page).toContain('<table>');
    expect(page).toContain('narrows a union');

    // Someone edits the lesson in production's school.
    const live = (await lessonsOf(production, PRODUCTION_KEY)).get('Narrowing')!;
    const edit = await fetch(`${production.url}/lessons/${live.id}`, { method: 'PATCH', headers: { authorization: `Bearer ${PRODUCTION_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Narrowing (edited in the school)' }) });
    expect(edit.status).toBe(200);
    const drifted = JSON.parse((await runCli(['plan', dir, '--env', 'production', '--refresh', '--json'], env())).stdout) as { changes: Array<{ action: string; key: string }> };
    expect(drifted.changes.filter((c) => c.action === 'drift').map((c) => c.key)).toEqual(['narrowing']);
    const clean = JSON.parse((await runCli(['plan', dir, '--env', 'staging', '--refresh', '--json'], env())).stdout) as { changes: unknown[]; environment: string };
    expect(clean).toMatchObject({ changes: [], environment: 'staging' });
  });
});

describe('environments: state commands and import work per environment', () => {
  it('state rm and import --key in production touch production\'s state only; plan there has nothing left to do', async () => {
    const dir = await writeRepo(repoFiles());
    expect((await runCli(['apply', dir, '--env', 'staging', '--yes'], env())).code).toBe(0);
    expect((await runCli(['apply', dir, '--env', 'production', '--yes'], env())).code).toBe(0);
    const stagingBefore = await readFile(join(dir, '.coursesync/env/staging/state.json'), 'utf8');
    const id = (await lessonsOf(production, PRODUCTION_KEY)).get('Welcome')!.id;
    const rm = await runCli(['state', 'rm', 'welcome', '--dir', dir, '--env', 'production'], env());
    expect(rm.code, rm.stderr).toBe(0);
    expect(rm.stdout).toContain(`Removed welcome from the state (lesson ${id} in prd_start`);
    const adopted = await runCli(['import', id, '--key', 'welcome', '--dir', dir, '--env', 'production'], env());
    expect(adopted.code, adopted.stderr).toBe(0);
    expect(adopted.stdout).toContain(`Adopted lesson ${id} "Welcome" as welcome`);
    const plan = await runCli(['plan', dir, '--env', 'production'], env());
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/No changes\. 3 lessons unchanged\./);
    expect(await readFile(join(dir, '.coursesync/env/staging/state.json'), 'utf8')).toBe(stagingBefore);
    expect(JSON.parse(await readFile(join(dir, '.coursesync/env/production/state.json'), 'utf8'))).toMatchObject({ environment: 'production' });
  });
});

describe('environments: a damaged journal is salvaged per environment', () => {
  it('state compact --salvage --env staging salvages staging\'s journal only, and refuses staging\'s state in production\'s folder', async () => {
    const dir = await writeRepo(repoFiles());
    expect((await runCli(['apply', dir, '--env', 'staging', '--yes'], env())).code).toBe(0);
    expect((await runCli(['apply', dir, '--env', 'production', '--yes'], env())).code).toBe(0);
    const folder = join(dir, '.coursesync/env/staging');
    const state = JSON.parse(await readFile(join(folder, 'state.json'), 'utf8')) as { lineage: string; serial: number };
    // A create recorded as pending (then killed), its record damaged on disk after its newline.
    const pending = { action: 'create', key: 'extra', lesson_id: null, request: 'POST /lessons', fields: ['section_id', 'name'], started_at: new Date().toISOString(), name: 'Extra', section_id: 'stg_start' };
    const journal = encodeRecord({ journal: 1, lineage: state.lineage, base: state.serial }) + encodeRecord({ serial: state.serial + 1, pending: { call_1: pending } });
    await writeFile(join(folder, 'state.journal'), journal.replace('"name":"Extra"', '"name":"Extrb"'));
    const productionBefore = await readFile(join(dir, '.coursesync/env/production/state.json'), 'utf8');

    const before = requests();
    const salvaged = await runCli(['state', 'compact', '--salvage', '--dir', dir, '--env', 'staging'], env());
    expect(salvaged.code, salvaged.stderr).toBe(0);
    expect(salvaged.stdout).toContain('now recorded as uncertain: extra.');
    expect((await readdir(folder)).filter((n) => n.startsWith('state.journal.damaged-'))).toHaveLength(1);
    expect(await readFile(join(dir, '.coursesync/env/production/state.json'), 'utf8')).toBe(productionBefore);
    expect(requests()).toBe(before);

    // Staging's state dropped into production's folder is refused before anything is folded.
    await cp(join(folder, 'state.json'), join(dir, '.coursesync/env/production/state.json'));
    const copied = await runCli(['state', 'compact', '--salvage', '--dir', dir, '--env', 'production'], env());
    expect(copied.code).toBe(1);
    expect(copied.stderr).toMatch(/env\/production\/state.json belongs to the environment staging, not to production/);
    expect(requests()).toBe(before);
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

describe('environments: one lock per environment', () => {
  it('an apply holding staging\'s lock does not stop production\'s, and stops staging\'s', async () => {
    const dir = await writeRepo(repoFiles());
    expect((await runCli(['apply', dir, '--env', 'staging', '--yes'], env())).code).toBe(0);
    // A live process (this test's) holds staging's lock.
    await writeFile(join(dir, '.coursesync/env/staging/state.lock'), JSON.stringify({ pid: process.pid, host: hostname(), started_at: new Date().toISOString() }) + '\n');
    const other = await runCli(['apply', dir, '--env', 'production', '--yes'], env());
    expect(other.code, other.stderr).toBe(0);
    const locked = await runCli(['apply', dir, '--env', 'staging', '--yes'], env());
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(/the state is locked by pid \d+ .*env\/staging\/state\.lock/);
  });
});

describe('environments: what belongs to another environment is refused before any request', () => {
  async function appliedRepo(): Promise<string> {
    const dir = await writeRepo(repoFiles());
    expect((await runCli(['apply', dir, '--env', 'staging', '--yes'], env())).code).toBe(0);
    expect((await runCli(['apply', dir, '--env', 'production', '--yes'], env())).code).toBe(0);
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
