/**
 * The lesson file behind each call of a plan (I/O: reads the files the calls are about, not the
 * whole repo): git blob ids as last applied (state `blob`) and now, so a plan can show the
 * Markdown that changed. A body change with no recorded digest but a changed blob is the file's.
 */
import type { Plan } from '../plan/plan-schema.js';
import { isCall } from '../plan/plan-steps.js';
import { blobIdOfFile, gitBlobId } from '../source/blob-id.js';
import type { StateData } from '../model/state/schema.js';

/**
 * Set `source` (and, when only the blobs tell, `cause: 'file'`) on every call step of `plan`.
 * `verbatimText` gives the files the compile read (a changed lesson): only the others are read.
 */
export async function addCallSources(plan: Plan, state: Readonly<StateData>, dir: string, verbatimText?: (path: string) => string | undefined): Promise<void> {
  await Promise.all(
    plan.changes.filter(isCall).map(async (step) => {
      const prior = state.lessons['state_key' in step ? step.state_key : step.key];
      const before = prior?.blob ?? null;
      const text = step.action === 'unpublish' ? undefined : verbatimText?.(step.path);
      const after = step.action === 'unpublish' ? null : text !== undefined ? gitBlobId(Buffer.from(text)) : await blobIdOfFile(dir, step.path);
      step.source = { path: step.path, before, after };
      const body = step.fields.some((f) => f.field === 'body' || f.field === 'description');
      if (body && step.cause === undefined && before !== null && after !== null && before !== after) step.cause = 'file';
    }),
  );
}
