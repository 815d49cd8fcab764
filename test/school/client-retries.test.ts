/**
 * Retries against the emulator's fault injection: Retry-After is honoured, an idempotent
 * request is re-sent, a non-idempotent POST is never re-sent once it may have reached the
 * school (OutcomeUnknownError), and no error ever contains the token. Faults are drawn from a
 * scripted `random`, so every test is deterministic.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { createSchoolClient, newIdempotencyKey } from '../../src/school/client.js';
import { OutcomeUnknownError, SchoolApiError, SchoolConnectionError } from '../../src/school/errors.js';
import type { RetryEvent } from '../../src/school/transport.js';
import { SECRET, assertTokenNeverLeaked, caught, useEmulator } from './emulator-fixture.js';

afterAll(() => assertTokenNeverLeaked());

/** A `random` that answers the queued values first, then `otherwise` (no fault). */
function scripted(otherwise = 0.99) {
  const queue: number[] = [];
  return { queue, random: () => queue.shift() ?? otherwise };
}

describe('429 with Retry-After (rate limit)', () => {
  const ctx = useEmulator({ rateLimit: 1 });

  it('waits exactly what Retry-After asks, then succeeds', async () => {
    const retries: RetryEvent[] = [];
    const waits: number[] = [];
    const c = ctx.client({
      onRetry: (e) => retries.push(e),
      // Really wait, so the emulator's one-second window passes.
      sleep: (ms) => {
        waits.push(ms);
        return new Promise((r) => setTimeout(r, ms));
      },
    });
    // One request a second is allowed: three quick calls meet at least one 429, whatever the
    // clock's phase.
    for (let i = 0; i < 3; i++) expect((await c.customCode.get()).custom_code_head).toContain('demo');
    expect(retries.length).toBeGreaterThan(0);
    for (const r of retries) expect(r).toMatchObject({ endpoint: 'GET /custom_code', attempt: 1, delayMs: 1000, reason: 'HTTP 429' });
    expect(waits).toEqual(retries.map(() => 1000));
    expect(ctx.emu.stats().byRoute['GET /custom_code']).toBe(3 + retries.length);
  });

  it('a 429 is retried even for POST /lessons: the school refused it, nothing was saved', async () => {
    const retries: RetryEvent[] = [];
    const c = ctx.client({ onRetry: (e) => retries.push(e), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) });
    const names = ['A', 'B', 'C'];
    for (const name of names) await c.lessons.create({ section_id: 'sec_start', name });
    expect(retries.length).toBeGreaterThan(0);
    expect(retries.every((r) => r.reason === 'HTTP 429' && r.endpoint === 'POST /lessons')).toBe(true);
    expect((await ctx.lessonsOf('sec_start')).map((l) => l.name)).toEqual(names);
  });

  it('a Retry-After longer than allowed is reported at once as the 429', async () => {
    const retries: RetryEvent[] = [];
    const c = ctx.client({ retry: { maxRetryAfterMs: 500 }, onRetry: (e) => retries.push(e) });
    const results = await Promise.allSettled([c.customCode.get(), c.customCode.get(), c.customCode.get()]);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as SchoolApiError);
    expect(refused.length).toBeGreaterThan(0);
    for (const e of refused) {
      await caught(Promise.reject(e));
      expect(e).toBeInstanceOf(SchoolApiError);
      expect([e.status, e.serverError]).toEqual([429, 'Too many requests']);
    }
    expect(retries).toEqual([]);
  });
});

describe('5xx and dropped connections', () => {
  const faults = scripted();
  // failRate 0.5: a queued 0.1 fails the request, then 0.9 picks 503 (0.1 would pick 500).
  const ctx = useEmulator({ failRate: 0.5, dropAfterCommitRate: 0.5, random: faults.random });

  it('an idempotent PATCH is re-sent after a 500', async () => {
    const c = ctx.client();
    const lesson = await c.lessons.create({ section_id: 'sec_start', name: 'A' });
    const retries: RetryEvent[] = [];
    // fail (0.1) → 500 (0.1), drop-after draw (0.99: no); then no faults.
    faults.queue.push(0.1, 0.1, 0.99);
    const updated = await ctx.client({ onRetry: (e) => retries.push(e) }).lessons.update(lesson.id, { name: 'B' });
    expect(updated.name).toBe('B');
    expect(retries.map((r) => r.reason)).toEqual(['HTTP 500']);
  });

  it('an idempotent duplicate whose answer was lost is re-sent, and the key keeps it to one copy', async () => {
    const c = ctx.client();
    const src = await c.lessons.create({ section_id: 'sec_start', name: 'Src' });
    const retries: RetryEvent[] = [];
    // No fail (0.99), then drop after commit (0.1): the operation is created, the answer lost.
    faults.queue.push(0.99, 0.1);
    const op = await ctx.client({ onRetry: (e) => retries.push(e) }).lessons.duplicate(src.id, { idempotency_key: newIdempotencyKey() });
    expect(op.operation).toBe('duplicate_lesson');
    expect(retries).toHaveLength(1);
    expect(retries[0]?.endpoint).toBe(`POST /lessons/${src.id}/duplicate`);
    expect(ctx.emu.stats().byRoute['POST /lessons/:id/duplicate']).toBe(2);
    expect((await ctx.state()).operations).toHaveLength(1);
  });

  it('POST /lessons answered 503 is not re-sent: OutcomeUnknownError naming the lesson', async () => {
    const c = ctx.client({ onRetry: () => expect.unreachable('POST /lessons must not be retried') });
    faults.queue.push(0.1, 0.9, 0.99);
    const e = await caught(c.lessons.create({ section_id: 'sec_types', name: 'Maybe' }));
    expect(e).toBeInstanceOf(OutcomeUnknownError);
    expect(e.lesson).toEqual({ name: 'Maybe', section_id: 'sec_types' });
    expect(e.endpoint).toBe('POST /lessons');
    expect(e.message).toBe(
      'POST /lessons: the school answered 503 (Service unavailable); lesson "Maybe" in section sec_types may or may not have been created; it was not re-sent, to avoid a duplicate',
    );
    expect(ctx.emu.stats().byRoute['POST /lessons']).toBe(1);
  });

  it('POST /lessons saved but its answer dropped: OutcomeUnknownError, one lesson, one request', async () => {
    const c = ctx.client({ onRetry: () => expect.unreachable('POST /lessons must not be retried') });
    faults.queue.push(0.99, 0.1);
    const e = await caught(c.lessons.create({ section_id: 'sec_types', name: 'Saved' }));
    expect(e).toBeInstanceOf(OutcomeUnknownError);
    expect(e.code).toBe('school/outcome-unknown');
    expect(e.hint).toContain('import');
    expect(ctx.emu.stats().byRoute['POST /lessons']).toBe(1);
    expect((await ctx.lessonsOf('sec_types')).map((l) => l.name)).toEqual(['Saved']);
  });

  it('POST /webhooks answered 500 is not re-sent either', async () => {
    faults.queue.push(0.1, 0.1, 0.99);
    const e = await caught(ctx.client().webhooks.create({ webhook_url: 'https://hooks.example.com/x', event_type: 'new_payment' }));
    expect(e).toBeInstanceOf(OutcomeUnknownError);
    expect(e.lesson).toBeUndefined();
    expect(ctx.emu.stats().byRoute['POST /webhooks']).toBe(1);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const retries: RetryEvent[] = [];
    faults.queue.push(0.1, 0.9, 0.99, 0.1, 0.9, 0.99, 0.1, 0.9, 0.99);
    const e = await caught(ctx.client({ retry: { maxAttempts: 3 }, onRetry: (r) => retries.push(r) }).offers.get('off_pro'));
    expect(e).toBeInstanceOf(SchoolApiError);
    expect([e.status, e.serverError]).toEqual([503, 'Service unavailable']);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
  });
});

describe('timeouts and refused connections', () => {
  const ctx = useEmulator({ latencyMs: 300 });

  it('a GET that times out is retried, then reported as unreachable', async () => {
    const retries: RetryEvent[] = [];
    const e = await caught(ctx.client({ timeoutMs: 50, retry: { maxAttempts: 2 }, onRetry: (r) => retries.push(r) }).customCode.get());
    expect(e).toBeInstanceOf(SchoolConnectionError);
    expect(e.message).toBe('GET /custom_code failed: no answer within 50 ms');
    expect(retries.map((r) => r.reason)).toEqual(['no answer within 50 ms']);
  });

  it('a POST /lessons that times out is not re-sent', async () => {
    const e = await caught(ctx.client({ timeoutMs: 50, onRetry: () => expect.unreachable('not retried') }).lessons.create({ section_id: 'sec_start', name: 'Slow' }));
    expect(e).toBeInstanceOf(OutcomeUnknownError);
    expect(e.reason).toBe('no answer within 50 ms');
  });

  it('a refused connection never carried the request: even POST /lessons is retried, then unreachable', async () => {
    const closed = await startEmulator({ port: 0 });
    const url = closed.url;
    await closed.close();
    const retries: RetryEvent[] = [];
    const c = createSchoolClient({ baseUrl: url, token: SECRET, retry: { maxAttempts: 3 }, sleep: async () => {}, onRetry: (r) => retries.push(r) });
    const e = await caught(c.lessons.create({ section_id: 'sec_start', name: 'x' }));
    expect(e).toBeInstanceOf(SchoolConnectionError);
    expect(e.message).toMatch(/^POST \/lessons failed: ECONNREFUSED/);
    expect(retries).toHaveLength(2);
  });
});
