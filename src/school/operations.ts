/**
 * Waiting for a background operation (docs/school-api.md (#operations, #states); docs/school-api.md#choices-where-the-api-is-silent): the duplication request is
 * repeated with the same idempotency key and identical details, which returns the existing
 * operation, until it is `completed` or `failed`.
 */
import { setTimeout as sleepFor } from 'node:timers/promises';
import { OperationFailedError, OperationTimeoutError } from './errors.js';
import type { OperationStatus } from '../school-api/wire/operations.js';

/** The fields of an operation the wait needs. */
export interface OperationLike {
  id: string;
  operation: string;
  status: OperationStatus;
  error: string | null;
}

export interface WaitOptions<T extends OperationLike> {
  /** Give up (OperationTimeoutError) when still pending after this long. Default 60000. */
  timeoutMs?: number;
  /** Pause between polls. Default 250. */
  intervalMs?: number;
  /** Told about every answer, the first included. */
  onProgress?: (operation: T, elapsedMs: number) => void;
  /** For tests: the clock and the wait. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Start (or resume) an operation with `start` and poll by calling `start` again until it is
 * completed. `start` must repeat the same request: same key, same details.
 * @returns the completed operation
 * @throws OperationFailedError when it failed; OperationTimeoutError when it stayed pending
 */
export async function waitForOperation<T extends OperationLike>(start: () => Promise<T>, options: WaitOptions<T> = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const intervalMs = options.intervalMs ?? 250;
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => sleepFor(ms));
  const began = now();
  for (;;) {
    const op = await start();
    const elapsed = now() - began;
    options.onProgress?.(op, elapsed);
    if (op.status === 'completed') return op;
    if (op.status === 'failed') throw new OperationFailedError({ operationId: op.id, operation: op.operation, error: op.error });
    if (elapsed + intervalMs > timeoutMs) throw new OperationTimeoutError({ operationId: op.id, operation: op.operation, timeoutMs });
    await sleep(intervalMs);
  }
}
