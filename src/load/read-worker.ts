/**
 * Worker-thread entry of read-aside.ts (I/O edge): scans the repo at `workerData.dir` with the
 * stat index, as readSource would, and answers once with the scan in columns, its lessons as
 * paths and digests (portableScan), or with `failed` (the main thread then reads the repo itself, and
 * reports whatever went wrong as it always does); then it writes the stat index and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { portableScan, scanRepo, type PortableScan } from '../source/read-source.js';

export type ReadAnswer = { kind: 'scanned'; scan: PortableScan } | { kind: 'failed' };

const answer = (a: ReadAnswer) => parentPort?.postMessage(a);
// Digests only cross to the other thread: the bytes need not be kept for their text.
// Its read is one the stat index was not trusted to spare (read-aside.ts): the index is written
// anew, after the answer (the next run's, not this one's); the worker then ends by itself.
scanRepo(workerData.dir as string, { statIndex: true, digestsOnly: true, freshIndex: true, writeIndexLater: true }).then(
  async (scan) => {
    answer({ kind: 'scanned', scan: portableScan(scan) });
    // Only ever a speed-up for the next run: a write that fails is no error of this one.
    await scan.writeIndex?.().catch(() => false);
  },
  () => answer({ kind: 'failed' }),
);
