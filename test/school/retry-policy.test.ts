import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter } from '../../src/school-api/retry-policy.js';

const NOW = Date.parse('2026-11-22T10:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['2', 2000],
    [' 30 ', 30_000],
    ['Sun, 22 Nov 2026 10:00:05 GMT', 5000],
    ['Sun, 22 Nov 2026 09:59:00 GMT', 0], // a date in the past: no wait, never negative
    ['Sunday, 22-Nov-26 10:00:10 GMT', 10_000], // obsolete RFC 850 form
    ['Sun Nov 22 10:00:03 2026', 3000], // asctime: no zone written, but HTTP dates are GMT

    [null, null],
    [undefined, null],
    ['', null],
    ['-1', null],
    ['1.5', null],
    ['soon', null],
    ['Xyz, 99 Foo 2026 10:00:00 GMT', null],
  ])('%j → %j', (header, expected) => {
    expect(parseRetryAfter(header, NOW)).toBe(expected);
  });
});

describe('backoffDelay (full jitter)', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
  it.each([
    [0, 0, 0],
    [0, 0.999999, 99],
    [1, 0.5, 100],
    [2, 0.999999, 399],
    [3, 0.5, 400],
    [4, 0.999999, 999], // 1600 capped at 1000
    [60, 0.999999, 999], // huge retry numbers stay capped
  ])('retry %i with random %f → %i ms', (retry, r, expected) => {
    expect(backoffDelay(retry, policy, () => r)).toBe(expected);
  });

  it('stays within [0, min(cap, base·2^n)) for many random draws', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let n = 0; n < 12; n++) {
      const ceiling = Math.min(DEFAULT_RETRY_POLICY.maxDelayMs, DEFAULT_RETRY_POLICY.baseDelayMs * 2 ** n);
      for (let i = 0; i < 200; i++) {
        const d = backoffDelay(n, DEFAULT_RETRY_POLICY, random);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(ceiling);
      }
    }
  });
});
