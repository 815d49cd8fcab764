/**
 * The built CLI (`dist/bin/coursesync.js`) for the rest-of-school commands: exit codes, stderr
 * without stack traces, the wait on a 429 told to the user, and no token in any output.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runCli } from './plan-helpers.js';
import { SECRET, SEED } from './school-helpers.js';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';

let emu: RunningEmulator;
let dir: string;
const outputs: string[] = [];
const env = () => ({ COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url });
async function cli(args: string[], extraEnv: Record<string, string> = {}) {
  const r = await runCli(args, { ...env(), ...extraEnv });
  outputs.push(r.stdout, r.stderr);
  return r;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: SEED });
  dir = await mkdtemp(join(tmpdir(), 'coursesync-rest-e2e-'));
});
afterAll(async () => {
  await emu?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/reset'), { method: 'POST', headers: { authorization: `Bearer ${SECRET}` } });
});

describe('the built CLI', () => {
  it('webhooks: plan exits 2, apply --yes creates, plan exits 0', async () => {
    await writeFile(join(dir, 'webhooks.yaml'), '- webhook_url: https://hooks.example.com/pay\n  event_type: new_payment\n');
    expect((await cli(['webhooks', 'plan', dir, '--detailed-exitcode'])).code).toBe(2);
    const apply = await cli(['webhooks', 'apply', dir, '--yes']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toMatch(/Apply complete: 1 webhook created\.\n$/);
    const again = await cli(['webhooks', 'plan', dir, '--detailed-exitcode']);
    expect(again).toMatchObject({ code: 0, stdout: 'No changes. 1 webhook unchanged.\n' });
  });

  it('a refused destructive command off a TTY: exit 1, a message and a hint, no stack trace', async () => {
    const r = await cli(['offers', 'delete', 'off_pro']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('coursesync: not run in a terminal, so nobody can confirm: Delete offer "Pro" (off_pro)\n  hint: re-run the command with --yes to confirm without a prompt\n');
    expect(r.stderr).not.toMatch(/^Error|\n\s+at /m);
    expect(r.stdout).toBe('');
  });

  it('members list off a TTY: tab-separated lines; --json parses', async () => {
    const r = await cli(['members', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('mem_1\tada@example.com\tAda Lovelace\tnever');
    const j = await cli(['members', 'list', '--json']);
    expect(JSON.parse(j.stdout).total_count).toBe(5);
  });

  it('a 401 names COURSESYNC_TOKEN; a token file is read; no flag takes the token', async () => {
    const bad = await runCli(['custom-code', 'pull', '--out', join(dir, 'cc')], { COURSESYNC_TOKEN: 'wrong', COURSESYNC_BASE_URL: emu.url });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/coursesync: the school refused the API token .*401.*\n  hint: check that COURSESYNC_TOKEN/);
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, SECRET + '\n');
    const good = await runCli(['badges', 'award', '--badge-name', 'Finisher', '--email', 'ada@example.com', '--token-file', tokenFile], { COURSESYNC_BASE_URL: emu.url });
    outputs.push(good.stdout, good.stderr);
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/^Awarded badge bdg_finisher to member mem_1: a new award/);
    const flag = await cli(['members', 'list', '--token', SECRET]);
    expect(flag.code).toBe(ExitCode.Usage);
    expect(flag.stderr).toMatch(/unknown option '--token'/);
    // commander echoes the unknown flag, not its value
  });

  it('sections list and members accesses reach the school', async () => {
    const s = await cli(['sections', 'list', 'prog_advanced', '--json']);
    expect(JSON.parse(s.stdout).sections.map((x: any) => x.id)).toEqual(['sec_generics', 'sec_patterns', 'sec_archive']);
    const a = await cli(['members', 'accesses', '--member', 'alan@example.com']);
    expect(a.stdout).toMatch(/^acc_\d+\tmem_3\toff_monthly\t900 EUR subscription\/1 month\tyes\t/);
  });

  it('the token never appears in any output', () => {
    expect(outputs.length).toBeGreaterThan(0);
    for (const text of outputs) expect(text).not.toContain(SECRET);
  });
});

describe('a rate-limited school', () => {
  it('a 429 is retried after the wait the school asks for, and the user is told', async () => {
    const limited = await startEmulator({ port: 0, seed: SEED, rateLimit: 1 });
    try {
      const r = await runCli(['members', 'list', '--all', '--per-page', '2', '--json'], { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: limited.url });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).members).toHaveLength(5);
      expect(r.stderr).toMatch(/^coursesync: GET \/members failed \(HTTP 429\); waiting \d+\.\d s, then trying again \(try 2\)\.$/m);
      expect(r.stderr + r.stdout).not.toContain(SECRET);
    } finally {
      await limited.close();
    }
  });
});
