/** Fault injection (docs/school-api.md#choices-where-the-api-is-silent): fail rate, rate limit, dropped connections, latency, stats. */
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/emulator/faults.js';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { call, sectionOrder } from './helpers.js';

async function withEmulator(options: EmulatorOptions, body: (emu: Awaited<ReturnType<typeof startEmulator>>) => Promise<void>): Promise<void> {
  const emu = await startEmulator({ port: 0, ...options });
  try {
    await body(emu);
  } finally {
    await emu.close();
  }
}

/** A deterministic random(): cycles through the given values. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length]!;
};

describe('fault injection', () => {
  it('fail-rate answers 500/503 without saving, by the injected random()', async () => {
    // per request: draw for failure (< 0.5 fails), then draw 500 (< 0.5) or 503
    await withEmulator({ failRate: 0.5, random: sequence(0.1, 0.2, 0.1, 0.9, 0.9) }, async (emu) => {
      const a = await call(emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'A' });
      const b = await call(emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'B' });
      const c = await call(emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'C' });
      expect([a.status, b.status, c.status]).toEqual([500, 503, 200]);
      expect(a.body).toEqual({ error: 'Internal server error' });
      expect(b.body).toEqual({ error: 'Service unavailable' });
      expect((await sectionOrder(emu, 'sec_start')).map(([id]) => id)).toEqual([c.body.id]);
    });
  });

  it('rate-limit answers 429 Too many requests with Retry-After past N a second per key', async () => {
    await withEmulator({ rateLimit: 2 }, async (emu) => {
      // 5 requests at once span at most two one-second windows, so at most 4 pass: one 429 is certain.
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => call(emu, 'GET', '/custom_code')));
      const limited = answers.filter((a) => a.status === 429);
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(limited[0]!.body).toEqual({ error: 'Too many requests' });
      expect(limited[0]!.headers.get('retry-after')).toBe('1');
      expect(answers.filter((a) => a.status !== 429).every((a) => a.status === 200)).toBe(true);
      // another key has its own budget
      expect((await call(emu, 'GET', '/custom_code', undefined, 'partner-token')).status).toBe(200);
    });
  });

  it('drop-after-commit saves the change, then closes the connection without an answer', async () => {
    await withEmulator({ dropAfterCommitRate: 1 }, async (emu) => {
      await expect(call(emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'Saved' })).rejects.toThrow();
      const order = await sectionOrder(emu, 'sec_start');
      expect(order).toHaveLength(1);
      expect(emu.stats().byRoute['POST /lessons']).toBe(1);
    });
  });

  it('drop-before-process closes the connection and saves nothing', async () => {
    await withEmulator({ dropBeforeProcessRate: 1 }, async (emu) => {
      await expect(call(emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'Lost' })).rejects.toThrow();
      expect(await sectionOrder(emu, 'sec_start')).toEqual([]);
    });
  });

  it('latency is the time to an answer: a request is handled on arrival and answered latency later, errors too', async () => {
    // Long enough that the polling below sees the lesson before the answer, even on a loaded machine.
    await withEmulator({ latencyMs: 3000 }, async (emu) => {
      const started = performance.now();
      let answered = false;
      const create = call(emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'Early' }).then((r) => ((answered = true), r));
      // The inspection routes take no latency: they see the lesson before its creator hears back.
      while ((await sectionOrder(emu, 'sec_start')).length === 0) await new Promise((r) => setTimeout(r, 10));
      expect(answered).toBe(false);
      expect((await create).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(2990);
      const missing = performance.now();
      expect((await call(emu, 'PATCH', '/lessons/nope', { name: 'X' })).status).toBe(404);
      expect(performance.now() - missing).toBeGreaterThanOrEqual(2990);
    });
  });

  it('stats count requests per route and the maximum in flight; reset clears them', async () => {
    // A latency far longer than it takes to send three requests, even on a loaded machine.
    await withEmulator({ latencyMs: 1000 }, async (emu) => {
      await Promise.all([1, 2, 3].map((i) => call(emu, 'POST', '/lessons', { section_id: 'sec_start', name: `P${i}` })));
      await call(emu, 'GET', '/custom_code');
      const stats = emu.stats();
      expect(stats.requests).toBe(4);
      expect(stats.byRoute).toEqual({ 'POST /lessons': 3, 'GET /custom_code': 1 });
      expect(stats.maxInFlight).toBe(3);
      const state = await call(emu, 'GET', '/__emulator/state');
      expect(state.body.stats).toEqual(stats);
      await call(emu, 'POST', '/__emulator/reset');
      expect(emu.stats()).toEqual({ requests: 0, maxInFlight: 0, byRoute: {} });
      expect(await sectionOrder(emu, 'sec_start')).toEqual([]);
    });
  });
});

describe('RateLimiter', () => {
  it.each([
    ['under the limit', 2, [1000, 1100], [null, null]],
    ['past the limit in one second', 2, [1000, 1100, 1200], [null, null, 1]],
    ['a new second resets the budget', 1, [1000, 1999, 2000], [null, 1, null]],
    ['unlimited', 0, [1, 2, 3, 4], [null, null, null, null]],
  ] as const)('%s', (_name, limit, times, want) => {
    const limiter = new RateLimiter(limit);
    expect(times.map((t) => limiter.take('k', t))).toEqual(want);
  });
});
