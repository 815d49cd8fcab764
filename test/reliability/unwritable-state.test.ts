/**
 * A `.coursesync` folder apply cannot write is a clear error before any request, through the
 * built CLI against the emulator: a file where the folder should be, a folder this user may not
 * write (run as a non-root user: as root, the CLI is started as `nobody`; root itself may write
 * anywhere, so a mode alone proves nothing for root), and a read-only file system (a read-only
 * bind mount as root; otherwise a folder without write permission, what such a user sees).
 * The mapping of each system error to its message is tested directly too.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ensureWritableStateFolder, stateFolderError } from '../../src/state/state-folder.js';
import { SECRET, resetEmulator, startTestEmulator } from '../apply/helpers.js';
import { CLI, EXAMPLES } from '../e2e/helpers.js';
import { shareCli, type SharedCli } from './cli-for-user.js';

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

let emu: RunningEmulator;
let root: string;
let shared: SharedCli | undefined;
beforeAll(async () => {
  if (isRoot) shared = await shareCli();
  emu = await startTestEmulator();
  // Not under a 0700 folder: the non-root user must be able to read the repo.
  root = await mkdtemp(join(tmpdir(), 'coursesync-unwritable-'));
  await chmod(root, 0o755);
});
afterAll(async () => {
  await shared?.remove();
  await emu?.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(async () => {
  await resetEmulator(emu);
});

async function repo(name: string): Promise<string> {
  const dir = join(root, name);
  await cp(EXAMPLES, dir, { recursive: true, filter: (src) => !src.endsWith('.coursesync') });
  execFileSync('chmod', ['-R', 'a+rX', dir]);
  return dir;
}

function run(args: string[], as?: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [as === undefined ? CLI : shared!.cli, ...args], {
      env: { PATH: process.env.PATH ?? '', COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(as === undefined ? {} : { uid: as, gid: as }),
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

function expectClearRefusal(r: { code: number | null; out: string }, folder: string, what: RegExp) {
  expect(r.code, r.out).toBe(1);
  expect(r.out).toContain(`cannot write the state folder ${folder}:`);
  expect(r.out).toMatch(what);
  expect(r.out).not.toMatch(/internal error|^\s+at .+:\d+:\d+\)?$/m);
  expect(r.out).not.toContain(SECRET);
  expect(emu.stats().requests).toBe(0);
}

describe('an unwritable .coursesync folder', () => {
  it('a file where the folder should be: apply refuses before any request; plan says what it is', async () => {
    const dir = await repo('file');
    await writeFile(join(dir, '.coursesync'), 'not a folder\n');
    expectClearRefusal(await run(['apply', dir, '--yes']), join(dir, '.coursesync'), /it is a file, not a folder; nothing was sent\n\s+hint: move that file away/);
    const plan = await run(['plan', dir]);
    expect(plan.code).toBe(1);
    expect(plan.out).toContain(`${join(dir, '.coursesync')} is a file, not a folder`);
    expect(plan.out).not.toMatch(/internal error/);
  });

  it('a folder this (non-root) user may not write: apply refuses before any request, nothing written', async () => {
    const dir = await repo('denied');
    const folder = join(dir, '.coursesync');
    await mkdir(folder);
    await chmod(folder, 0o555);
    try {
      // As root, run as `nobody` (root bypasses the mode); as anyone else, run as oneself.
      const r = await run(['apply', dir, '--yes'], isRoot ? NOBODY : undefined);
      expectClearRefusal(r, folder, /this user may not write there \(permission denied\)/);
      expect(await readdir(folder)).toEqual([]);
    } finally {
      await chmod(folder, 0o755);
    }
  });

  it('a read-only file system: apply refuses before any request', async () => {
    const dir = await repo('readonly');
    const folder = join(dir, '.coursesync');
    await mkdir(folder);
    if (isRoot) {
      execFileSync('mount', ['--bind', '-o', 'ro', folder, folder]);
      try {
        expectClearRefusal(await run(['apply', dir, '--yes']), folder, /the file system is read-only/);
      } finally {
        execFileSync('umount', [folder]);
      }
    } else {
      await chmod(folder, 0o555);
      expectClearRefusal(await run(['apply', dir, '--yes']), folder, /permission denied/);
      await chmod(folder, 0o755);
    }
  });

  it('the check itself: each system error gets its message and hint; a writable folder passes', async () => {
    const folder = '/repo/.coursesync';
    const err = (code: string) => Object.assign(new Error(`${code}: x`), { code });
    expect(stateFolderError(folder, err('EEXIST'))).toMatchObject({ code: 'state/folder-unwritable', message: `cannot write the state folder ${folder}: it is a file, not a folder; nothing was sent` });
    expect(stateFolderError(folder, err('ENOTDIR')).message).toContain('it is a file, not a folder');
    expect(stateFolderError(folder, err('EROFS')).message).toContain('the file system is read-only');
    expect(stateFolderError(folder, err('EACCES')).hint).toMatch(/chmod u\+w/);
    expect(stateFolderError(folder, err('EPERM')).message).toContain('permission denied');
    expect(stateFolderError(folder, err('ENOSPC')).message).toContain('ENOSPC: x');
    const dir = join(root, 'direct');
    await mkdir(dir);
    expect(await ensureWritableStateFolder(dir)).toBe(join(dir, '.coursesync'));
    await rm(join(dir, '.coursesync'), { recursive: true });
    await writeFile(join(dir, '.coursesync'), '');
    await expect(ensureWritableStateFolder(dir)).rejects.toMatchObject({ code: 'state/folder-unwritable' });
  });
});
