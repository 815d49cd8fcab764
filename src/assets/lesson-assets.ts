/** Which repo files a course publishes (PURE): every asset of every lesson, once per name. */
import type { DesiredState, LessonAsset } from '../model/desired.js';

/** Every asset the lessons reference, once each (the name holds the digest), in repo order. */
export function courseAssets(desired: DesiredState): LessonAsset[] {
  const byName = new Map<string, LessonAsset>();
  for (const p of desired.programs)
    for (const s of p.sections) for (const l of s.lessons) for (const a of l.assets ?? []) if (!byName.has(a.name)) byName.set(a.name, a);
  return [...byName.values()];
}

/** Lesson key → its assets, for the lessons that have any. */
export function assetsByLesson(desired: DesiredState): Map<string, LessonAsset[]> {
  const map = new Map<string, LessonAsset[]>();
  for (const p of desired.programs) for (const s of p.sections) for (const l of s.lessons) if (l.assets?.length) map.set(l.key, l.assets);
  return map;
}
