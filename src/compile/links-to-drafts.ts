/**
 * A published lesson that links to a draft (PURE): learners cannot open the link. Whether a
 * lesson is a draft is its own matter, so this is checked over the link graph once every
 * lesson is known, for lessons compiled now and lessons known from the state alike (their
 * links and places as recorded): a lesson's own build stays clean and recordable, and a plan
 * on a fresh checkout warns exactly as a cold one does without compiling either lesson.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag } from './codes.js';
import type { LessonEntry } from './course-parts.js';

/** The paths of the lessons that are drafts. */
export const draftsOf = (entries: readonly LessonEntry[]): Set<string> =>
  new Set(entries.filter((e) => e.compiled.identity && e.compiled.fields?.is_published === false).map((e) => e.source.path));

/** Report each link of a published lesson to a draft (`drafts`: draftsOf), at the link. */
export function warnLinksToDrafts(entries: readonly LessonEntry[], drafts: ReadonlySet<string>, out: Diagnostic[]): void {
  if (drafts.size === 0) return;
  for (const entry of entries) {
    if (!entry.compiled.fields?.is_published || !entry.lessonLinks) continue;
    for (const [target, places] of entry.lessonLinks) {
      if (!drafts.has(target)) continue;
      for (const place of places) out.push(diag('lesson/link-to-draft', entry.source.path, place, `the link goes to ${target}, a draft (is_published: false): learners of this published lesson cannot open it`));
    }
  }
}
