/**
 * A real emulator for client tests, seeded with the default school but with distinctive API
 * keys, so a test can prove a key never shows up in any error. Every error a test catches goes
 * through `caught`, and `assertTokenNeverLeaked` checks them all (message, hint, cause chain).
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { DEFAULT_SEED, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { createSchoolClient, type SchoolClientOptions } from '../../src/school/client.js';

export const SECRET = 'tok_SECRET_7f3a9c1e';
export const PARTNER_SECRET = 'tok_PARTNER_SECRET_42b8';

const seed = {
  ...DEFAULT_SEED,
  api_keys: [
    { token: SECRET, programs: 'all' as const },
    { token: PARTNER_SECRET, programs: ['prog_partner'] },
  ],
};

const seen: unknown[] = [];

/** Await a promise that must fail; return the error (and remember it for the leak check). */
export async function caught(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    seen.push(e);
    return e;
  }
  throw new Error('expected the call to fail');
}

/** No caught error, in any form a user or a log could see, contains a token. */
export function assertTokenNeverLeaked(): void {
  expect(seen.length).toBeGreaterThan(0);
  for (const e of seen) {
    const text = inspect(e, { depth: 8 }) + String((e as { hint?: string }).hint) + JSON.stringify(e);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(PARTNER_SECRET);
  }
}

export interface EmulatorFixture {
  readonly emu: RunningEmulator;
  /** A client of this emulator; options override the defaults (no real waits between retries). */
  client(options?: Partial<SchoolClientOptions>): ReturnType<typeof createSchoolClient>;
  /** GET /__emulator/state. */
  state(): Promise<any>;
  /** Lessons of a section in position order, from the inspection endpoint. */
  lessonsOf(sectionId: string): Promise<Array<{ id: string; name: string; position: number; is_published: boolean }>>;
}

/** Start one emulator for the test file; reset it before every test. */
export function useEmulator(options: EmulatorOptions = {}): EmulatorFixture {
  let emu: RunningEmulator | undefined;
  const root = () => emu!.url.replace(/\/api\/v1$/, '');
  const inspectCall = async (method: string, path: string) => {
    const res = await fetch(root() + path, { method, headers: { authorization: `Bearer ${SECRET}` } });
    return res.json() as Promise<any>;
  };
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, operationDelayMs: 30, seed, ...options });
  });
  afterAll(async () => {
    await emu?.close();
  });
  beforeEach(async () => {
    await inspectCall('POST', '/__emulator/reset');
  });
  const fixture: EmulatorFixture = {
    get emu() {
      return emu!;
    },
    client: (o = {}) => createSchoolClient({ baseUrl: emu!.url, token: SECRET, timeoutMs: 5000, sleep: async () => {}, ...o }),
    state: () => inspectCall('GET', '/__emulator/state'),
    async lessonsOf(sectionId) {
      const s = await fixture.state();
      for (const p of s.programs) for (const sec of p.sections) if (sec.id === sectionId) return sec.lessons;
      throw new Error(`no section ${sectionId}`);
    },
  };
  return fixture;
}
