/**
 * Helpers for apply tests: an in-process emulator with a distinctive token (so a test can prove
 * it never leaks), state folders on tmpfs when there is one (state writes fsync; tmpfs makes
 * hundreds of scenarios fast), and the school's order per section from the inspection endpoint.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SEED, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createSchoolClient } from '../../src/school/client.js';
import { removeRepos } from '../e2e/helpers.js';

export const SECRET = 'tok_APPLY_SECRET_5e1d9c';
export const PARTNER = 'partner-token';

/** The default school with the demo key replaced by SECRET (the partner key may edit only prog_partner). */
export const SEED = {
  ...DEFAULT_SEED,
  api_keys: [
    { token: SECRET, programs: 'all' as const },
    { token: PARTNER, programs: ['prog_partner'] },
  ],
};

export function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ port: 0, seed: SEED, ...options });
}

/**
 * One emulator for a test file: started before its tests, reset to the seed before each one,
 * closed (and the temporary repos removed) after them. `use` receives it and the environment a
 * CLI run needs to reach it.
 */
export function useTestSchool(use: (emu: RunningEmulator, env: Record<string, string>) => void): void {
  let emu: RunningEmulator | undefined;
  beforeAll(async () => {
    emu = await startTestEmulator();
    use(emu, { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url });
  });
  afterAll(async () => {
    await emu?.close();
    await removeRepos();
  });
  beforeEach(async () => {
    if (emu) await resetEmulator(emu);
  });
}

/** Lesson calls the school received (the section check before an apply is a read of GET /sections). */
export function lessonCalls(emu: RunningEmulator): number {
  return Object.entries(emu.stats().byRoute).reduce((n, [route, count]) => (route.includes('/lessons') ? n + count : n), 0);
}

/** A client of the emulator that never really waits between retries. */
export function clientOf(emu: RunningEmulator, token = SECRET) {
  return createSchoolClient({ baseUrl: emu.url, token, timeoutMs: 10_000, sleep: async () => {} });
}

async function inspect(emu: RunningEmulator, method: string, path: string): Promise<any> {
  const res = await fetch(emu.url.replace(/\/api\/v1$/, path), { method, headers: { authorization: `Bearer ${SECRET}` } });
  return res.json();
}

/** Delete a lesson as a person does in the school's admin (the API cannot). */
export async function deleteInSchool(emu: RunningEmulator, id: string): Promise<void> {
  const res = await fetch(emu.url.replace(/\/api\/v1$/, `/__emulator/lessons/${id}`), { method: 'DELETE', headers: { authorization: `Bearer ${SECRET}` } });
  if (res.status !== 200) throw new Error(`deleting ${id} in the emulator answered ${res.status}`);
}

export function resetEmulator(emu: RunningEmulator): Promise<unknown> {
  return inspect(emu, 'POST', '/__emulator/reset');
}

export interface SchoolLesson {
  id: string;
  name: string;
  position: number;
  is_published: boolean;
  section_id: string;
}

/** Section id → its lessons in position order (GET /__emulator/state). */
export async function schoolSections(emu: RunningEmulator): Promise<Map<string, SchoolLesson[]>> {
  const state = await inspect(emu, 'GET', '/__emulator/state');
  const out = new Map<string, SchoolLesson[]>();
  for (const p of state.programs) for (const s of p.sections) out.set(s.id, s.lessons);
  return out;
}

const dirs: string[] = [];
const ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** A fresh folder for a state file (removed by removeTempDirs). */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(ROOT, `coursesync-${prefix}-`));
  dirs.push(dir);
  return dir;
}

export async function removeTempDirs(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}
