/**
 * Fault injection (docs/school-api.md#choices-where-the-api-is-silent): failed answers, rate limiting, dropped connections. Randomness
 * comes from an injectable `random()` so tests can make it deterministic; each enabled fault
 * draws exactly one number per request, in a fixed order (fail, drop-before, drop-after).
 */

export interface FaultSettings {
  /** Share of requests answered 500 or 503 without being processed. */
  failRate: number;
  /** Requests per second per API key before 429; 0 = unlimited. */
  rateLimit: number;
  /** Share of requests processed and saved, then answered by closing the connection. */
  dropAfterCommitRate: number;
  /** Share of requests answered by closing the connection before they are processed. */
  dropBeforeProcessRate: number;
  random: () => number;
}

/** What to do with one request, decided before it is processed. */
export interface FaultDecision {
  /** 500 or 503, or null. */
  fail: 500 | 503 | null;
  dropBefore: boolean;
  dropAfter: boolean;
}

/** Draw the faults for one request. */
export function drawFaults(s: FaultSettings): FaultDecision {
  let fail: 500 | 503 | null = null;
  if (s.failRate > 0 && s.random() < s.failRate) fail = s.random() < 0.5 ? 500 : 503;
  const dropBefore = s.dropBeforeProcessRate > 0 && s.random() < s.dropBeforeProcessRate;
  const dropAfter = s.dropAfterCommitRate > 0 && s.random() < s.dropAfterCommitRate;
  return { fail, dropBefore, dropAfter };
}

/**
 * A fixed one-second window per API key. `take` answers null when the request may go on, or
 * the whole seconds until the window resets (the Retry-After value, at least 1).
 */
export class RateLimiter {
  private windows = new Map<string, { second: number; count: number }>();

  constructor(private readonly limit: number) {}

  take(key: string, nowMs: number): number | null {
    if (this.limit <= 0) return null;
    const second = Math.floor(nowMs / 1000);
    const w = this.windows.get(key);
    if (!w || w.second !== second) {
      this.windows.set(key, { second, count: 1 });
      return null;
    }
    w.count += 1;
    if (w.count <= this.limit) return null;
    return Math.max(1, Math.ceil(((second + 1) * 1000 - nowMs) / 1000));
  }

  reset(): void {
    this.windows.clear();
  }
}
