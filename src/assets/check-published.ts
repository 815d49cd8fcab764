/**
 * Before lessons are sent, each asset they reference must answer 200 at its URL (I/O): a lesson
 * is never sent pointing at an image nobody serves. HEAD first (GET when a host refuses HEAD),
 * redirects followed (static hosts and CDNs use them), no token (these are not the school's
 * URLs), and the school client's retry policy for 429, 5xx and network errors.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import pLimit from 'p-limit';
import type { LessonAsset } from '../model/desired.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy } from '../school-api/retry-policy.js';

export interface UnpublishedAsset {
  asset: LessonAsset;
  url: string;
  /** `HTTP 404`, `ECONNREFUSED`, `timeout after 10000 ms`… */
  reason: string;
}

export interface CheckOptions {
  concurrency?: number;
  timeoutMs?: number;
  retry?: RetryPolicy;
}

const RETRIED = new Set([429, 500, 502, 503, 504]);

async function probe(url: string, timeoutMs: number, retry: RetryPolicy): Promise<string | null> {
  let reason = 'not tried';
  for (let attempt = 1; attempt <= retry.maxAttempts; attempt++) {
    let wait: number | null = null;
    try {
      let res = await fetch(url, { method: 'HEAD', redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
      if (res.status === 405 || res.status === 501) {
        res = await fetch(url, { method: 'GET', redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
        await res.body?.cancel();
      }
      if (res.status === 200) return null;
      reason = `HTTP ${res.status}`;
      if (!RETRIED.has(res.status)) return reason;
      wait = parseRetryAfter(res.headers.get('retry-after'), Date.now());
      if (wait !== null && wait > retry.maxRetryAfterMs) return reason;
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      reason = err.name === 'TimeoutError' ? `timeout after ${timeoutMs} ms` : (err.cause?.code ?? err.message);
    }
    if (attempt < retry.maxAttempts) await sleepFor(wait ?? backoffDelay(attempt - 1, retry));
  }
  return reason;
}

/** The assets (with their URLs under `baseUrl`) that do not answer 200. */
export async function findUnpublished(baseUrl: string, assets: readonly LessonAsset[], options: CheckOptions = {}): Promise<UnpublishedAsset[]> {
  const limit = pLimit(options.concurrency ?? 8);
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const results = await Promise.all(
    assets.map((asset) =>
      limit(async () => {
        const url = baseUrl + asset.name;
        const reason = await probe(url, options.timeoutMs ?? 10_000, retry);
        return reason === null ? null : { asset, url, reason };
      }),
    ),
  );
  return results.filter((r): r is UnpublishedAsset => r !== null);
}
