/**
 * Helpers for the rest-of-school command tests: one real emulator per test file (reset before
 * each test) with distinctive API keys, an in-process output collector standing in for
 * stdout/stderr, and a check that no output or error ever holds a token: after every test, on
 * what that test collected (so each test stands alone, in any order).
 */
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { DEFAULT_SEED, startEmulator, type EmulatorOptions, type RunningEmulator, type SeedInput } from '../../src/emulator/index.js';
import { createSchoolClient } from '../../src/school/client.js';
import type { CommandIo } from '../../src/cli/school-command.js';

export const SECRET = 'tok_REST_SECRET_5d1e9b';
export const PARTNER_SECRET = 'tok_REST_PARTNER_88c2';

export const SEED: SeedInput = {
  ...DEFAULT_SEED,
  api_keys: [
    { token: SECRET, programs: 'all' },
    { token: PARTNER_SECRET, programs: ['prog_partner'] },
  ],
};

/** A stand-in for a stream: collects what is written. */
export interface Collected {
  text: string;
  isTTY: boolean;
  write(chunk: string): boolean;
}

export function collector(isTTY = false): Collected {
  const c: Collected = {
    text: '',
    isTTY,
    write(chunk: string) {
      c.text += chunk;
      return true;
    },
  };
  return c;
}

export interface SchoolTest {
  readonly emu: RunningEmulator;
  /** Fresh io for one command: env pointing at the emulator with `token` (default SECRET). */
  io(options?: { token?: string | null; tty?: boolean; env?: NodeJS.ProcessEnv }): CommandIo & { stdout: Collected; stderr: Collected };
  /** A direct client of the emulator, to arrange and check the school. */
  client(): ReturnType<typeof createSchoolClient>;
  /** GET /__emulator/state. */
  state(): Promise<any>;
  /** Run a command that must fail; returns the error (kept for the leak check). */
  fails(p: Promise<unknown>): Promise<any>;
  /** This test collected output or errors, and none of it holds a token. */
  assertNoTokenLeaked(): void;
}

/** Start one emulator for the file (seed SEED unless given) and reset it before every test. */
export function useSchool(options: EmulatorOptions = {}): SchoolTest {
  let emu: RunningEmulator | undefined;
  const seen: string[] = [];
  const root = () => emu!.url.replace(/\/api\/v1$/, '');
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, seed: SEED, ...options });
  });
  afterAll(async () => {
    await emu?.close();
  });
  const ios: Array<{ stdout: Collected; stderr: Collected }> = [];
  const collected = () => [...seen, ...ios.flatMap((io) => [io.stdout.text, io.stderr.text])];
  const expectNoToken = (all: string[]) => {
    for (const text of all) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(PARTNER_SECRET);
    }
  };
  beforeEach(async () => {
    seen.length = 0;
    ios.length = 0;
    await fetch(root() + '/__emulator/reset', { method: 'POST', headers: { authorization: `Bearer ${SECRET}` } });
  });
  afterEach(() => expectNoToken(collected()));
  return {
    get emu() {
      return emu!;
    },
    io({ token = SECRET, tty = false, env = {} } = {}) {
      const base: NodeJS.ProcessEnv = { COURSESYNC_BASE_URL: emu!.url, ...env };
      if (token !== null) base.COURSESYNC_TOKEN = token;
      const io = { stdout: collector(tty), stderr: collector(tty), env: base };
      ios.push(io);
      return io;
    },
    client: () => createSchoolClient({ baseUrl: emu!.url, token: SECRET, sleep: async () => {} }),
    state: async () => (await fetch(root() + '/__emulator/state', { headers: { authorization: `Bearer ${SECRET}` } })).json(),
    async fails(p) {
      try {
        await p;
      } catch (e) {
        seen.push(inspect(e, { depth: 8 }) + String((e as { hint?: string }).hint) + JSON.stringify(e));
        return e;
      }
      throw new Error('expected the command to fail');
    },
    assertNoTokenLeaked() {
      const all = collected();
      expect(all.filter((t) => t !== '').length).toBeGreaterThan(0);
      expectNoToken(all);
    },
  };
}
