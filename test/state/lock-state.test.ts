import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireStateLock, isAlive, lockPath } from '../../src/state/lock-state.js';
import { StateStore } from '../../src/state/state-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coursesync-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (so is certainly not alive). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(r.stdout.toString());
}

async function writeLock(info: object): Promise<void> {
  await mkdir(join(dir, '.coursesync'), { recursive: true });
  await writeFile(lockPath(dir), JSON.stringify(info));
}

describe('state lock', () => {
  it('records pid, host and start time, and release removes it', async () => {
    const lock = await acquireStateLock(dir);
    const info = JSON.parse(await readFile(lockPath(dir), 'utf8'));
    expect(info).toMatchObject({ pid: process.pid, host: hostname() });
    expect(Date.parse(info.started_at)).not.toBeNaN();
    await lock.release();
    await expect(readFile(lockPath(dir))).rejects.toThrow(/ENOENT/);
  });

  it('a held lock names the holder and how to break it', async () => {
    const lock = await acquireStateLock(dir);
    const err = await acquireStateLock(dir).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'state/locked' });
    expect((err as Error).message).toContain(`pid ${process.pid} on ${hostname()}`);
    expect((err as { hint: string }).hint).toMatch(/--force-unlock or delete the lock file/);
    await lock.release();
  });

  it('a lock of a live process on another host is held too (we cannot check it)', async () => {
    await writeLock({ pid: 1, host: 'build-agent-7', started_at: '2026-01-01T00:00:00Z' });
    await expect(acquireStateLock(dir)).rejects.toThrow(/locked by pid 1 on build-agent-7/);
  });

  it('a stale lock (dead pid on this host) is taken over with a warning', async () => {
    const pid = deadPid();
    await writeLock({ pid, host: hostname(), started_at: '2026-01-01T00:00:00Z' });
    const warnings: string[] = [];
    const lock = await acquireStateLock(dir, { warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([expect.stringContaining(`pid ${pid}`)]);
    expect(JSON.parse(await readFile(lockPath(dir), 'utf8')).pid).toBe(process.pid);
    await lock.release();
  });

  it.each([
    ['no lock', false],
    ['a stale lock', true],
  ])('with %s, of many processes starting at once exactly one gets the lock', async (_name, stale) => {
    if (stale) await writeLock({ pid: deadPid(), host: hostname(), started_at: '2026-01-01T00:00:00Z' });
    // Each process tries once and, if it got the lock, holds it long enough for all to try.
    const script = `
      const { acquireStateLock } = await import(${JSON.stringify(new URL('../../dist/state/lock-state.js', import.meta.url).href)});
      try {
        const lock = await acquireStateLock(process.argv[1]);
        process.stdout.write('held');
        await new Promise((r) => setTimeout(r, 3000));
        await lock.release();
      } catch (e) { process.stdout.write(e.code ?? String(e)); }`;
    const runs = Array.from({ length: 8 }, () =>
      new Promise<string>((done) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, dir]);
        let out = '';
        child.stdout.on('data', (b: Buffer) => (out += b.toString()));
        child.on('close', () => done(out));
      }),
    );
    const outcomes = await Promise.all(runs);
    expect(outcomes.filter((o) => o === 'held')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'held')).toEqual(Array(7).fill('state/locked'));
  });

  it('a lock held by a zombie (exited, not reaped) is stale and taken over', async () => {
    // `sleep 0.2` exits while its parent (the shell, replaced by `sleep 30`) never waits: a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0.2 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const zombie = Number(await new Promise<string>((done) => parent.stdout.once('data', (b: Buffer) => done(b.toString().trim()))));
      const state = async () => (await readFile(`/proc/${zombie}/stat`, 'utf8')).replace(/^.*\) /s, '')[0];
      for (let i = 0; i < 100 && (await state()) !== 'Z'; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await state()).toBe('Z');
      expect(() => process.kill(zombie, 0)).not.toThrow(); // signal 0 alone would call it alive
      expect(isAlive(zombie)).toBe(false);
      await writeLock({ pid: zombie, host: hostname(), started_at: '2026-01-01T00:00:00Z' });
      const warnings: string[] = [];
      const lock = await acquireStateLock(dir, { warn: (m) => warnings.push(m) });
      expect(warnings).toEqual([expect.stringContaining(`pid ${zombie}`)]);
      await lock.release();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('temp files of a process SIGKILLed while taking the lock are removed on the next run; a live one\'s are kept', async () => {
    await mkdir(join(dir, '.coursesync'), { recursive: true });
    const base = lockPath(dir);
    // A real process that created its temp file (as createExclusive does) and was killed before removing it.
    const script = `const fs = require('node:fs'); for (const f of [process.argv[1] + '.' + process.pid + '.0a1b2c3d.tmp', process.argv[1] + '.break.' + process.pid + '.0a1b2c3d.tmp']) fs.writeFileSync(f, '{}'); process.stdout.write('ready'); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['-e', script, base], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((done) => child.stdout.once('data', () => done()));
    const killed = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill('SIGKILL');
    await killed;
    const live = `${base}.${process.pid}.deadbeef.tmp`;
    await writeFile(live, '{}');
    const lock = await acquireStateLock(dir);
    await lock.release();
    expect((await readdir(join(dir, '.coursesync'))).sort()).toEqual([live.slice(live.lastIndexOf('/') + 1)]);
  });

  it('--force-unlock takes a held lock', async () => {
    await writeLock({ pid: 1, host: 'elsewhere', started_at: '2026-01-01T00:00:00Z' });
    const warnings: string[] = [];
    const lock = await acquireStateLock(dir, { force: true, warn: (m) => warnings.push(m) });
    expect(warnings[0]).toMatch(/--force-unlock/);
    await lock.release();
  });

  it('StateStore.load with lock holds it until close', async () => {
    const store = await StateStore.load(dir, { lock: true });
    await expect(StateStore.load(dir, { lock: true })).rejects.toThrow(/locked/);
    await store.close();
    const again = await StateStore.load(dir, { lock: true });
    await again.close();
  });
});
