/**
 * Worker-thread entry of the render pool (I/O edge): says it is ready once the renderer is
 * loaded (so loading is not counted against a text's time budget), then receives batches of
 * Markdown texts and answers each rendering as soon as it is done, so the pool can time each
 * text. Started only by render-pool.ts.
 */
import { parentPort } from 'node:worker_threads';
import { renderMarkdown, type RenderResult } from '../compile/render.js';

export type WorkerAnswer =
  | { kind: 'ready' }
  | { kind: 'rendered'; result: RenderResult }
  /** `stack`: the parser overflowed the stack (nesting the pre-check let through). */
  | { kind: 'failed'; stack: boolean; message: string };

const answer = (a: WorkerAnswer) => parentPort?.postMessage(a);

parentPort?.on('message', (batch: string[]) => {
  for (const markdown of batch) {
    try {
      answer({ kind: 'rendered', result: renderMarkdown(markdown) });
    } catch (e) {
      answer({ kind: 'failed', stack: e instanceof RangeError, message: e instanceof Error ? e.message : String(e) });
    }
  }
});
answer({ kind: 'ready' });
