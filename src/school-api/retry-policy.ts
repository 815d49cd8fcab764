/**
 * The retry policy (docs/architecture.md#apply), as pure functions: how long to wait before the next
 * try. 429 and 503 honour `Retry-After` (seconds or HTTP date); otherwise exponential backoff
 * with full jitter (a uniformly random wait between 0 and min(cap, base·2^n), which spreads
 * clients apart better than a fixed or "equal" jitter), and a bounded number of tries; a 429
 * whose Retry-After is honoured uses up no try (usesTry), its waits bounded in total instead.
 */

export interface RetryPolicy {
  /** Tries in all, the first included. 1 disables retries. */
  maxAttempts: number;
  /** Backoff base: the first retry waits up to this long. */
  baseDelayMs: number;
  /** Backoff cap: no computed wait is longer. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is reported instead. */
  maxRetryAfterMs: number;
  /**
   * All the waits one call spends on 429s whose Retry-After it honours. Such a 429 uses up no
   * try (the school asked to wait and processed nothing), so this bounds them instead.
   */
  maxRateLimitWaitMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  maxRateLimitWaitMs: 300_000,
};

/**
 * Whether a failed try counts against `maxAttempts`. A 429 with a `Retry-After` that is
 * honoured does not: under a rate limit every call would otherwise spend its tries waiting its
 * turn, and a busy run fail calls the school would have answered.
 */
export function usesTry(status: number | undefined, retryAfterMs: number | null): boolean {
  return !(status === 429 && retryAfterMs !== null && retryAfterMs > 0);
}

/**
 * Milliseconds a `Retry-After` header asks to wait: delta-seconds (`"2"`) or an HTTP date
 * (`"Wed, 21 Oct 2026 07:28:00 GMT"`, measured from `nowMs`, never negative). Null when the
 * header is absent or malformed.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | null {
  if (header === null || header === undefined) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date starts with a weekday (IMF-fixdate `Sun,`, RFC 850 `Sunday,`, asctime `Sun `);
  // Date.parse alone accepts too much ("1.5").
  if (!/^[A-Za-z]{3,9},? /.test(text)) return null;
  // HTTP dates are always GMT; asctime omits the zone, and Date.parse would read local time.
  const at = Date.parse(/\b(GMT|UTC)\b/.test(text) ? text : `${text} GMT`);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

/**
 * Full-jitter backoff before retry number `retry` (0 for the first retry):
 * `random() * min(maxDelayMs, baseDelayMs * 2^retry)`, rounded down.
 */
export function backoffDelay(retry: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(retry, 30));
  return Math.floor(random() * ceiling);
}
