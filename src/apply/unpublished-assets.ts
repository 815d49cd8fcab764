/**
 * Every asset of a lesson whose body or description a plan sends must answer 200 at its URL
 * first: a lesson is never sent pointing at a file nobody serves.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import type { UnpublishedFile } from '../diagnostics/error-codes/state.js';
import type { DesiredState, LessonAsset } from '../model/desired.js';
import { findUnpublished } from '../assets/check-published.js';
import { assetsByLesson } from '../assets/lesson-assets.js';
import type { Plan } from '../plan/plan-schema.js';
import { isCall } from '../plan/plan-steps.js';

/** Per call of a lesson with files that do not answer, which of its files; empty when all answer. */
export async function findUnpublishedAssets(plan: Plan, desired: DesiredState): Promise<Map<string, UnpublishedFile[]>> {
  const unpublished = new Map<string, UnpublishedFile[]>();
  const base = desired.config.assets?.base_url;
  if (base === undefined) return unpublished;
  const byLesson = assetsByLesson(desired);
  const sending = plan.changes.filter(isCall).filter((step) => step.request.body !== undefined || step.request.description !== undefined);
  const needed = new Map<string, LessonAsset>();
  for (const step of sending) for (const asset of byLesson.get(step.key) ?? []) needed.set(asset.name, asset);
  if (needed.size === 0) return unpublished;
  const missing = new Map((await findUnpublished(base, [...needed.values()])).map((m) => [m.asset.name, m]));
  if (missing.size === 0) return unpublished;
  for (const step of sending) {
    // Named by the lesson's own path to the file (files with the same bytes share one URL).
    const own = (byLesson.get(step.key) ?? []).flatMap((a) => {
      const m = missing.get(a.name);
      return m ? [{ path: a.path, url: m.url, reason: m.reason }] : [];
    });
    if (own.length > 0) unpublished.set(step.call_id, own);
  }
  return unpublished;
}

/**
 * The calls held back for unpublished files, each with its error; when that is every call,
 * apply stops here and says so.
 * @throws CoursesyncError `apply/assets-unpublished`
 */
export async function blockUnpublished(plan: Plan, desired: DesiredState): Promise<Map<string, Error>> {
  const calls = plan.changes.filter(isCall);
  const unpublished = calls.length > 0 ? await findUnpublishedAssets(plan, desired) : new Map<string, UnpublishedFile[]>();
  const base = desired.config.assets?.base_url ?? '';
  if (unpublished.size > 0 && unpublished.size === calls.length) {
    const lessons = [...new Map(calls.map((step) => [step.path, unpublished.get(step.call_id)!])).entries()].map(([path, files]) => ({ path, files }));
    throw failure('apply/assets-unpublished', { lessons, base });
  }
  return new Map([...unpublished].map(([id, files]) => [id, failure('apply/asset-unpublished', { files, base })]));
}
