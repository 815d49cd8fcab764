/**
 * `coursesync auth status` against the emulator: which school, where the token comes from
 * (never the token itself), whether the school accepts it; exit 0 when it does, 1 when not.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SECRET, tempDir, useTestSchool } from '../apply/helpers.js';
import { runCli } from '../e2e/helpers.js';

let emu: RunningEmulator;
useTestSchool((e) => (emu = e));

const WRONG = 'tok_WRONG_b7e2aa91';

describe('coursesync auth status', () => {
  it('a good token from COURSESYNC_TOKEN: the school, the variable, accepted, exit 0; the token never shown', async () => {
    const r = await runCli(['auth', 'status'], { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`School: ${emu.url} (from COURSESYNC_BASE_URL)\nToken:  the COURSESYNC_TOKEN variable\nStatus: ✓ accepted (GET /members answered 200)\n`);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('a token file: its path is named; --json is versioned', async () => {
    const dir = await tempDir('auth-status-');
    const file = join(dir, 'token');
    await writeFile(file, `${SECRET}\n`);
    const r = await runCli(['auth', 'status', '--token-file', file, '--base-url', emu.url, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      format_version: 1,
      school: emu.url,
      school_from: '--base-url',
      token_from: { file },
      accepted: true,
      check: 'GET /members answered 200',
      problem: null,
      hint: null,
    });
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('a token the school refuses: not accepted, why and what to check, exit 1; the token never shown', async () => {
    const r = await runCli(['auth', 'status'], { COURSESYNC_TOKEN: WRONG, COURSESYNC_BASE_URL: emu.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Status: ✗ not accepted \(GET \/members answered 401\)$/m);
    expect(r.stdout).toMatch(/^ {2}the school refused the API token/m);
    expect(r.stdout).toMatch(/^ {2}hint: check that COURSESYNC_TOKEN/m);
    expect(r.stdout + r.stderr).not.toContain(WRONG);
    const json = await runCli(['auth', 'status', '--json'], { COURSESYNC_TOKEN: WRONG, COURSESYNC_BASE_URL: emu.url });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ accepted: false, token_from: { env: 'COURSESYNC_TOKEN' }, check: 'GET /members answered 401' });
  });

  it('no token at all: says where to put one, sends nothing, exit 1', async () => {
    const before = emu.stats().requests;
    const r = await runCli(['auth', 'status'], { COURSESYNC_BASE_URL: emu.url });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Token:  none (set COURSESYNC_TOKEN or pass --token-file)');
    expect(r.stdout).toContain('Status: ✗ not accepted (no request made)');
    expect(emu.stats().requests).toBe(before);
  });
});
