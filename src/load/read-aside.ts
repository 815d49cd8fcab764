/**
 * Read the repo on the other core while this thread does something else (I/O): on a fresh
 * checkout (no stat index: every file is to be read and hashed, ~0.2 s at 10,000 lessons), the
 * walk runs on a worker thread while this one loads the compiler a plan will need (a fresh
 * checkout has no plan memo to answer it). The worker sends back each lesson's path and
 * digest; a lesson's text is read again here only if it is asked for (the edited ones), and
 * checked against that digest. With a stat index that may spare reads (stat-index.ts
 * indexMaySpare: not one restored from before a checkout), or one core, the repo is read
 * here, as readSource does, and nothing else is done meanwhile. For `plan`, the entry may have
 * started the worker already, before the commands loaded (early-read.ts).
 */
import type { SourceTree } from '../model/source-tree.js';
import { readSource, receivedScan, treeOf } from '../source/read-source.js';
import { readsAside, startRead, takeEarlyRead } from './early-read.js';
import { timing } from './timing.js';

/**
 * readSource(dir, { statIndex: true }), with `meanwhile` run on this thread while a worker
 * reads when that pays (see above); `meanwhile` is not run otherwise. Then, while the worker
 * has not answered, `whileWaiting`'s steps run one by one (work the run will need that does
 * not wait for the read: the step in progress is the most the answer waits for), and stop
 * when it answers. Whatever the worker meets (an error, a crash), the repo is read again here:
 * its errors are readSource's own.
 */
export async function readSourceAside(dir: string, meanwhile: () => Promise<unknown>, whileWaiting?: () => AsyncIterable<unknown>): Promise<SourceTree> {
  // A read the entry started was started after the same check (its own index, written as it
  // answers, must not make it look spared).
  const early = takeEarlyRead(dir);
  if (!early && !(await readsAside(dir))) {
    const tree = await readSource(dir, { statIndex: true });
    timing('read: repo read on this thread');
    return tree;
  }
  const read = early ?? startRead(dir);
  const worker = read.worker;
  timing(early ? 'read: worker started early, taken' : 'read: worker started');
  let answered = false;
  const answer = read.answer.finally(() => (answered = true));
  try {
    await meanwhile();
    timing('read: this thread done meanwhile');
    if (whileWaiting) {
      // A turn of the event loop after each step, so the answer is seen as soon as it comes.
      if (!answered) {
        for await (const _ of whileWaiting()) {
          await new Promise((next) => setImmediate(next));
          if (answered) break;
        }
      }
      timing('read: this thread prepared while waiting');
    }
  } catch (e) {
    // Stopped, not left reading: a failed run ends now.
    void worker.terminate();
    throw e;
  }
  const got = await answer;
  timing('read: worker answered');
  // A worker that scanned ends by itself once it has written the stat index (the process waits
  // for that one write); one that failed is stopped.
  if (got.kind !== 'scanned') void worker.terminate();
  return got.kind === 'scanned' ? treeOf(receivedScan(got.scan)) : readSource(dir, { statIndex: true });
}
