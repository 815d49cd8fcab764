/**
 * The lesson files a plan's renderings show (I/O): each changed lesson's file as last applied,
 * read from git by the blob id the state recorded (one `git cat-file --batch` for the whole
 * plan), and as it is now, read from the work tree. What cannot be read is a one-line reason
 * per step; the renderings then fall back to a field-level summary.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { LONG_FIELDS } from '../plan/describe-change.js';
import type { CallStep, Plan } from '../plan/plan-schema.js';
import { isCall } from '../plan/plan-steps.js';
import type { PlanSources, StepSource } from '../plan/source-diff.js';
import { gitBlobId } from '../source/blob-id.js';
import { readGitBlobs } from '../source/git-blobs.js';

const NOT_RECORDED = 'the state does not record which version of the file was last applied (applied by an older coursesync, or adopted from the school)';

/** The steps whose file a rendering shows: creates, changes of body or description, and edited files. */
function wanted(step: CallStep): boolean {
  if (step.action === 'unpublish') return false;
  const edited = step.source?.before != null && step.source.before !== step.source.after;
  return step.action === 'create' || edited || step.fields.some((f) => LONG_FIELDS.has(f.field));
}

/**
 * Read the files of `plan`'s changed lessons from the course repo at `dir`; a file the compile
 * read as it is now (`verbatimText`, BuiltPlan) is not read again.
 */
export async function readPlanSources(dir: string, plan: Plan, verbatimText?: (path: string) => string | undefined): Promise<PlanSources> {
  const steps = plan.changes.filter(isCall).filter(wanted);
  const sources = new Map<string, StepSource>();
  if (steps.length === 0) return sources;
  const ids = steps.flatMap((s) => (s.action === 'create' ? [] : [s.source?.before, s.source?.after])).filter((id): id is string => typeof id === 'string');
  const git = ids.length > 0 ? await readGitBlobs(dir, ids) : ({ ok: true, blobs: new Map() } as const);
  const text = (id: string | null | undefined) => (id && git.ok ? git.blobs.get(id)?.toString('utf8') : undefined) ?? null;
  // A first plan creates every lesson: read a few files at a time, never thousands of handles at once.
  const limit = pLimit(16);
  const read = async (step: CallStep): Promise<void> => {
    const known = verbatimText?.(step.path);
    const bytes = known !== undefined ? Buffer.from(known) : await readFile(join(dir, step.path)).catch(() => null);
    // The work tree, unless the file changed since the plan was made (a saved plan): then git's copy.
    const current = bytes && (!step.source?.after || gitBlobId(bytes) === step.source.after) ? bytes.toString('utf8') : text(step.source?.after);
    if (step.action === 'create') {
      sources.set(step.call_id, { before: null, after: current });
      return;
    }
    const id = step.source?.before ?? null;
    const before = text(id);
    const why = id === null ? NOT_RECORDED : !git.ok ? git.reason : before === null ? missingBlob(id) : undefined;
    sources.set(step.call_id, why === undefined ? { before, after: current } : { before, after: current, why });
  };
  await Promise.all(steps.map((step) => limit(() => read(step))));
  return sources;
}

function missingBlob(id: string): string {
  return `the file as last applied (blob ${id.slice(0, 10)}) is not in this clone's history (a shallow clone? actions/checkout needs fetch-depth: 0)`;
}
