/**
 * The README's test command on a fresh machine: `npm test` first makes sure the browser the
 * browser tests drive is there (its `pretest` step), installing Debian's chromium with apt-get
 * when it is missing. Run here through `npm run pretest` with a Chromium path that does not
 * exist yet and an `apt-get` on PATH that records its arguments and "installs" that path.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const PACKAGE_ROOT = join(import.meta.dirname, '../..');

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'coursesync-pretest-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** `npm run pretest` with a fake apt-get that exits `aptStatus` (and installs on success). */
async function pretest(name: string, options: { present?: boolean; aptStatus?: number } = {}) {
  const bin = join(root, `${name}-bin`);
  const chromium = join(root, `${name}-chromium`);
  const log = join(root, `${name}-apt.log`);
  await writeFile(log, '');
  await run('mkdir', ['-p', bin]);
  const status = options.aptStatus ?? 0;
  await writeFile(
    join(bin, 'apt-get'),
    `#!/bin/sh\necho "$*" >> "${log}"\n[ "$DEBIAN_FRONTEND" = noninteractive ] || exit 9\n` +
      (status === 0 ? `[ "$1" = install ] && printf '#!/bin/sh\\n' > "${chromium}" && chmod +x "${chromium}"\nexit 0\n` : `echo "E: Unable to locate package chromium" >&2\nexit ${status}\n`),
  );
  await chmod(join(bin, 'apt-get'), 0o755);
  if (options.present) {
    await writeFile(chromium, '#!/bin/sh\n');
    await chmod(chromium, 0o755);
  }
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, COURSESYNC_TEST_CHROMIUM: chromium };
  try {
    const r = await run('npm', ['run', '--silent', 'pretest'], { cwd: PACKAGE_ROOT, env });
    return { code: 0, stderr: r.stderr, apt: await readFile(log, 'utf8') };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr, apt: await readFile(log, 'utf8') };
  }
}

describe('npm test on a machine without Chromium', () => {
  it('as root, installs Debian\'s chromium with apt-get before the tests run; otherwise stops with the command to run', async () => {
    const r = await pretest('missing');
    if (process.getuid?.() === 0) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.apt).toBe('update -qq\ninstall -y -qq chromium\n');
      expect(r.stderr).toMatch(/^pretest: no Chromium at .*; installing Debian's chromium with apt-get/);
    } else {
      expect(r.code).toBe(1);
      expect(r.apt).toBe('');
      expect(r.stderr).toContain('run `sudo apt-get install chromium`');
    }
  });

  it('does nothing when Chromium is there', async () => {
    const r = await pretest('present', { present: true });
    expect(r).toEqual({ code: 0, stderr: '', apt: '' });
  });

  it('stops the run when Chromium cannot be had, so no browser test is skipped', async () => {
    const r = await pretest('failing', { aptStatus: 100 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(process.getuid?.() === 0 ? 'apt-get update -qq failed:\nE: Unable to locate package chromium' : 'sudo apt-get install chromium');
  });
});
