/** waitForOperation's loop with a scripted `start` and a fake clock (the real one: client tests). */
import { describe, expect, it } from 'vitest';
import { waitForOperation, type OperationLike } from '../../src/school/operations.js';
import { OperationFailedError, OperationTimeoutError } from '../../src/school/errors.js';

function script(statuses: Array<OperationLike['status']>) {
  let calls = 0;
  let clock = 0;
  const start = async (): Promise<OperationLike> => {
    const status = statuses[Math.min(calls, statuses.length - 1)]!;
    calls += 1;
    return { id: 'op_1', operation: 'duplicate_lesson', status, error: status === 'failed' ? 'source lesson deleted' : null };
  };
  return {
    start,
    calls: () => calls,
    now: () => clock,
    sleep: async (ms: number) => {
      clock += ms;
    },
  };
}

describe('waitForOperation', () => {
  it('repeats the request until completed and reports every answer', async () => {
    const s = script(['pending', 'pending', 'completed']);
    const seen: string[] = [];
    const op = await waitForOperation(s.start, { intervalMs: 100, now: s.now, sleep: s.sleep, onProgress: (o, t) => seen.push(`${o.status}@${t}`) });
    expect(op.status).toBe('completed');
    expect(s.calls()).toBe(3);
    expect(seen).toEqual(['pending@0', 'pending@100', 'completed@200']);
  });

  it('returns at once when the first answer is completed', async () => {
    const s = script(['completed']);
    await waitForOperation(s.start, { now: s.now, sleep: s.sleep });
    expect(s.calls()).toBe(1);
  });

  it('throws OperationFailedError with the server reason', async () => {
    const s = script(['pending', 'failed']);
    const err = await waitForOperation(s.start, { intervalMs: 10, now: s.now, sleep: s.sleep }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationFailedError);
    expect((err as Error).message).toBe('operation op_1 (duplicate_lesson) failed: source lesson deleted');
  });

  it('gives up after the timeout with a hint to resume with the same key', async () => {
    const s = script(['pending']);
    const err = await waitForOperation(s.start, { timeoutMs: 1000, intervalMs: 300, now: s.now, sleep: s.sleep }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationTimeoutError);
    expect(s.calls()).toBe(4); // at 0, 300, 600, 900; a fifth poll would end after the timeout
    expect((err as OperationTimeoutError).hint).toContain('same idempotency key');
  });
});
