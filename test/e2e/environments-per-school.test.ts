/**
 * Environments end to end (docs/environments.md), each school on its own: learner pages and
 * drift, the state commands and import, journal salvage and the lock, each per environment.
 * Two schools, reset before each test (environments-fixture.ts), and the built CLI.
 */
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeRecord } from '../../src/state/journal.js';
import { env, lessonsOf, production, PRODUCTION_KEY, repoFiles, requests, staging, STAGING_KEY, useTwoSchools } from './environments-fixture.js';
import { runCli, writeRepo } from './helpers.js';

useTwoSchools({ resetEachTest: true });

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
