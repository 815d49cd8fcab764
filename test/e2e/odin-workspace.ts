/**
 * The Odin fixture course (test/fixtures/repos/odin) copied into a temp folder, its
 * `coursesync.yaml` pointed at the emulator and at a static host serving `published/` (where
 * `coursesync assets` writes), as a team would run it. `close()` stops the host and removes it all.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { expect } from 'vitest';
import { runCli } from './helpers.js';
import { serveAssets, type StaticHost } from './static-server.js';

export const ODIN = path.resolve(import.meta.dirname, '../fixtures/repos/odin');

export interface OdinWorkspace {
  work: string;
  repo: string;
  published: string;
  host: StaticHost;
  close(): Promise<void>;
}

/** A copy of the fixture course at `fixture` (default the Odin one) set up as above. */
export function odinWorkspace(emu: RunningEmulator, prefix: string, fixture = ODIN): Promise<OdinWorkspace> {
  return fixtureWorkspace(emu, prefix, fixture, 'http://assets.test/course/');
}

/** The same for another fixture course whose coursesync.yaml links `http://academy.test` and serves its assets at `assetsUrl`. */
export async function fixtureWorkspace(emu: RunningEmulator, prefix: string, fixture: string, assetsUrl: string): Promise<OdinWorkspace> {
  const work = await mkdtemp(path.join(tmpdir(), prefix));
  const repo = path.join(work, 'repo');
  const published = path.join(work, 'published');
  await cp(fixture, repo, { recursive: true, filter: (src) => path.basename(src) !== '.coursesync' });
  const host = await serveAssets(published);
  const origin = emu.url.replace(/\/api\/v1$/, '');
  const config = (await readFile(path.join(repo, 'coursesync.yaml'), 'utf8')).replace('http://academy.test', origin).replace(assetsUrl, host.baseUrl);
  await writeFile(path.join(repo, 'coursesync.yaml'), config);
  return {
    work,
    repo,
    published,
    host,
    async close() {
      await host.close();
      await rm(work, { recursive: true, force: true });
    },
  };
}

/**
 * A copy of the workspace's repo as CI checks it out: the committed state and no cache; with
 * `state: false`, no state either (a cold run of the same files).
 */
export async function ciCheckout(workspace: OdinWorkspace, { state = true } = {}): Promise<string> {
  const to = path.join(workspace.work, `checkout-${Math.random().toString(36).slice(2, 8)}`);
  await cp(workspace.repo, to, { recursive: true, filter: (src) => path.basename(src) !== 'cache' && !src.endsWith('.lock') });
  if (!state) await rm(path.join(to, '.coursesync'), { recursive: true, force: true });
  return to;
}

/** The environment of a run against the test school, on one render thread; `debug`: COURSESYNC_DEBUG=compile (what a plan compiled). */
export const schoolRun = (school: Record<string, string>, debug = false): Record<string, string> => ({ ...school, COURSESYNC_RENDER_THREADS: '1', ...(debug ? { COURSESYNC_DEBUG: 'compile' } : {}) });

/** fixtureWorkspace with its assets published and the course applied to the school `env` names (both checked). */
export async function appliedWorkspace(emu: RunningEmulator, prefix: string, fixture: string, assetsUrl: string, env: Record<string, string>): Promise<OdinWorkspace> {
  const workspace = await fixtureWorkspace(emu, prefix, fixture, assetsUrl);
  expect((await runCli(['assets', workspace.repo, '--out', workspace.published])).code).toBe(0);
  const applied = await runCli(['apply', workspace.repo, '--yes'], env);
  expect(applied.stderr).toBe('');
  expect(applied.code).toBe(0);
  return workspace;
}
