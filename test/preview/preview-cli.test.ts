/**
 * `coursesync preview` through the built CLI, over plain HTTP: --refresh reads the sections'
 * drips from the school (GET only), a missing token is a clear error, a bad port is refused.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SECRET, SEED, startTestEmulator } from '../apply/helpers.js';
import { CLI, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';
import { PREVIEW_COURSE } from './fixture-course.js';
import { ExitCode } from '../../src/diagnostics/exit-codes.js';

afterAll(removeRepos);

/** Run preview until it prints its address; return the page, then stop it with Ctrl-C. */
async function pageOf(args: string[], env: Record<string, string>, cwd?: string): Promise<{ page: string; code: number | null; stderr: string }> {
  const base = { ...process.env };
  delete base.COURSESYNC_TOKEN;
  const child = spawn(process.execPath, [CLI, 'preview', ...args, '--port', '0'], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'], cwd });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /preview on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`preview exited with ${code}: ${stderr}`)));
  });
  const page = await (await fetch(url)).text();
  child.kill('SIGINT');
  return { page, code: await exited, stderr };
}

describe('coursesync preview (CLI)', () => {
  it('from a subfolder of a course repo, serves the whole repo', async () => {
    const dir = await writeRepo({ ...PREVIEW_COURSE, 'coursesync.yaml': '# the course repo\n' });
    const whole = await pageOf([dir], {});
    const fromInside = await pageOf([], {}, join(dir, 'course/02-types'));
    expect(fromInside.code).toBe(0);
    expect(fromInside.page).toBe(whole.page);
    expect(fromInside.page).toContain('Install Node');
  });

  it('--refresh counts the section drips from GET /sections; the school is only read', async () => {
    const seed = structuredClone(SEED);
    for (const p of seed.programs ?? []) for (const s of p.sections ?? []) if (s.id === 'sec_types') Object.assign(s, { drip_delay: 30 });
    const emu: RunningEmulator = await startTestEmulator({ seed });
    try {
      const dir = await writeRepo(PREVIEW_COURSE);
      const env = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url };
      const before = emu.stats().requests;
      const refreshed = await pageOf([dir, '--refresh'], env);
      expect(refreshed.code).toBe(0);
      expect(refreshed.page).toMatch(/id="lesson-primitives"[^>]*data-unlock-day="37"/);
      expect(refreshed.page).toContain('section sec_types · unlocks on day 30');
      expect(refreshed.page).toContain('section drips, publication and order read from the school');
      expect(emu.stats().requests - before).toBe(1); // one GET /sections page for the one program
      expect(refreshed.stderr).not.toContain(SECRET);

      const offline = await pageOf([dir], env);
      expect(offline.page).toMatch(/id="lesson-primitives"[^>]*data-unlock-day="7"/);
      expect(emu.stats().requests - before).toBe(1);
    } finally {
      await emu.close();
    }
  });

  it('--refresh without a token, a plain http:// school, and a bad port are clear errors', async () => {
    const dir = await writeRepo(PREVIEW_COURSE);
    const noToken = await runCli(['preview', dir, '--refresh', '--port', '0']);
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(/token/i);
    expect(noToken.stderr).not.toMatch(/\n\s+at /); // no stack trace
    const plainHttp = await runCli(['preview', dir, '--base-url', 'http://school.example.com/api/v1', '--port', '0'], { COURSESYNC_TOKEN: SECRET });
    expect(plainHttp.code).toBe(1);
    expect(plainHttp.stderr).toMatch(/plain http:\/\/|https:\/\//);
    expect(plainHttp.stderr).not.toContain(SECRET);
    const badPort = await runCli(['preview', dir, '--port', 'eighty']);
    expect(badPort.code).toBe(ExitCode.Usage);
    expect(badPort.stderr).toContain('--port eighty is not a port number from 0 to 65535');
  });
});
