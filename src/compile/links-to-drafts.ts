/**
 * A published lesson that links to a draft (PURE): learners cannot open the link. Whether a
 * lesson is a draft is its own matter, so this is checked over the link graph once every
 * lesson is known, for lessons compiled now and lessons known from the state alike (their
 * links and places as recorded): a lesson's own build stays clean and recordable, and a plan
 * on a fresh checkout warns exactly as a cold one does without compiling either lesson.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LinkPlace } from '../model/desired.js';
import { diag } from './codes.js';
import type { LessonEntry } from './course-parts.js';

/** The paths of the lessons that are drafts. */
export function draftsOf(entries: readonly LessonEntry[]): Set<string> {
  const drafts = new Set<string>();
  for (const e of entries) if (e.compiled.identity && e.compiled.fields?.is_published === false) drafts.add(e.source.path);
  return drafts;
}

/**
 * Report each link of a published lesson to a draft (`drafts`: draftsOf), at the link. A known
 * lesson's places are recorded only for the lessons that were drafts when it was recorded: one
 * that links to a lesson that has become a draft since (its section's defaults changed) is
 * compiled again for them (`linksOf`).
 */
export function warnLinksToDrafts(entries: readonly LessonEntry[], drafts: ReadonlySet<string>, out: Diagnostic[], linksOf: (entry: LessonEntry) => ReadonlyMap<string, readonly LinkPlace[]>): void {
  if (drafts.size === 0) return;
  for (const entry of entries) {
    if (!entry.compiled.fields?.is_published) continue;
    let links = entry.lessonLinks;
    if (entry.known && linksToNewDraft(entry.resolved?.deps, drafts, links)) {
      const found = (links = entry.lessonLinks = linksOf(entry));
      // So that the next apply records them, and the next plan need not compile it.
      if (entry.build) entry.build.deps = entry.build.deps.map((d) => (drafts.has(d.path) && found.has(d.path) ? { ...d, at: [...found.get(d.path)!] } : d));
    }
    for (const [target, places] of links ?? []) {
      if (!drafts.has(target)) continue;
      for (const place of places) out.push(diag('lesson/link-to-draft', entry.source.path, place, `the link goes to ${target}, a draft (is_published: false): learners of this published lesson cannot open it`));
    }
  }
}

/** Whether one of a known lesson's deps is a draft whose link places it did not record (no closure: this runs per lesson). */
function linksToNewDraft(deps: readonly string[] | undefined, drafts: ReadonlySet<string>, recorded: ReadonlyMap<string, unknown> | undefined): boolean {
  for (const d of deps ?? []) if (drafts.has(d) && !recorded?.has(d)) return true;
  return false;
}
