/**
 * Worker-thread entry of the render pool (I/O edge): receives batches of Markdown texts and
 * answers their renderings, in order. Started only by render-pool.ts.
 */
import { parentPort } from 'node:worker_threads';
import { renderMarkdown } from '../compile/render.js';

parentPort?.on('message', (batch: string[]) => {
  parentPort?.postMessage(batch.map((markdown) => renderMarkdown(markdown)));
});
