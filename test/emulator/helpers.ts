/** Raw-HTTP helpers for emulator conformance tests: one emulator per file, reset per test. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export const TOKEN = 'demo-token';
export const PARTNER = 'partner-token';

export interface Answer {
  status: number;
  /** Parsed JSON; tests read arbitrary shapes. */
  body: any;
  headers: Headers;
}

/** Start one emulator for the file and reset it before every test. */
export function useEmulator(options: EmulatorOptions = {}): { readonly emu: RunningEmulator } {
  const ref = {} as { emu: RunningEmulator };
  beforeAll(async () => {
    ref.emu = await startEmulator({ port: 0, operationDelayMs: 20, ...options });
  });
  afterAll(async () => {
    await ref.emu?.close();
  });
  beforeEach(async () => {
    await call(ref.emu, 'POST', '/__emulator/reset');
  });
  return ref;
}

/**
 * One request. Paths starting with `/__emulator` go to the server root, others under /api/v1.
 * `body` as an object is JSON; as a string it is sent as form-urlencoded.
 */
export async function call(
  emu: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = TOKEN,
): Promise<Answer> {
  const base = path.startsWith('/__emulator') ? emu.url.replace(/\/api\/v1$/, '') : emu.url;
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (typeof body === 'string') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = body;
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(base + path, { method, headers, body: payload });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Lesson ids and positions of a section, in position order, from GET /__emulator/state. */
export async function sectionOrder(emu: RunningEmulator, sectionId: string): Promise<Array<[string, number]>> {
  const lessons = await sectionLessons(emu, sectionId);
  return lessons.map((l: { id: string; position: number }) => [l.id, l.position]);
}

/** The lessons (with steps) of a section from GET /__emulator/state. */
export async function sectionLessons(emu: RunningEmulator, sectionId: string): Promise<any[]> {
  const state = await call(emu, 'GET', '/__emulator/state');
  for (const p of state.body.programs) for (const s of p.sections) if (s.id === sectionId) return s.lessons;
  throw new Error(`no section ${sectionId}`);
}

/** Create a lesson and return its id. */
export async function createLesson(emu: RunningEmulator, fields: Record<string, unknown>): Promise<string> {
  const r = await call(emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'L', ...fields });
  if (r.status !== 200) throw new Error(`create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
