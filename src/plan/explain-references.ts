/**
 * Why a lesson's HTML changed when its file did not say so (PURE): an image or file it
 * references changed (a new content-addressed URL), or a link now points at a lesson page.
 * Added to the plan's call steps as `why`, so a reviewer sees "image img/diagram.png changed"
 * next to a body diff that only swaps one URL for another.
 */
import type { DesiredState, LessonAsset } from '../model/desired.js';
import type { Plan } from './plan-schema.js';
import { isCall } from './plan-steps.js';
import { isFingerprint } from '../model/state/fingerprint.js';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Reasons for one lesson: each asset whose URL is new in `after`, changed or added. */
export function assetReasons(before: string, after: string, assets: readonly LessonAsset[], baseUrl: string): string[] {
  const reasons: string[] = [];
  for (const asset of assets) {
    const url = baseUrl + asset.name;
    if (!after.includes(url) || before.includes(url)) continue;
    // Same file name before the digest, another digest: the file changed; else it is new here.
    const stem = /^(.*)\.[0-9a-f]{16}(?:\.[^.]*)?$/.exec(asset.name)?.[1] ?? asset.name;
    const older = new RegExp(`${escapeRegExp(baseUrl + stem)}\\.[0-9a-f]{16}\\b`);
    const what = asset.image ? 'image' : 'file';
    reasons.push(older.test(before) ? `${what} ${asset.path} changed` : `${what} ${asset.path} added`);
  }
  return reasons;
}

/**
 * The plan with `why` on every call step whose body or description changed because of what it
 * references, and on those sent with links pending (`pending`: key → targets without an id yet).
 */
export function explainReferences(plan: Plan, desired: DesiredState, pending: ReadonlyMap<string, readonly string[]> = new Map()): Plan {
  const base = desired.config.assets?.base_url ?? '';
  const assets = new Map<string, readonly LessonAsset[]>();
  // Not a settled section's: its lessons' fields are the state's, so no call of theirs changes a body.
  for (const p of desired.programs) for (const s of p.sections) if (!s.settled) for (const l of s.lessons) if (l.assets?.length) assets.set(l.key, l.assets);
  const changes = plan.changes.map((step) => {
    if (!isCall(step)) return step;
    const why: string[] = [...(step.why ?? [])];
    const waiting = pending.get(step.key);
    if (waiting) why.push(`links to ${waiting.join(', ')}, created by this apply: filled in when sent if created by then, else patched right after`);
    const list = step.action === 'create' || base === '' ? undefined : assets.get(step.key);
    for (const f of list ? step.fields : []) {
      // A fingerprint (the state keeps no HTML) names no URL: the step's `cause` says it instead.
      if ((f.field === 'body' || f.field === 'description') && typeof f.before === 'string' && !isFingerprint(f.before) && typeof f.after === 'string') {
        for (const r of assetReasons(f.before, f.after, list!, base)) if (!why.includes(r)) why.push(r);
      }
    }
    return why.length > 0 ? { ...step, why } : step;
  });
  return { ...plan, changes };
}
