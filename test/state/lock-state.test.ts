import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireStateLock, lockPath } from '../../src/state/lock-state.js';
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
