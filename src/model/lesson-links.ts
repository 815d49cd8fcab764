/**
 * Links between lessons (PURE). A compiled body holds a marker per link to another lesson;
 * the planner replaces it with school.lesson_url once the target's id is known, and apply
 * replaces the markers left for lessons created in the same run just before sending.
 */

/** Private-use characters around a lesson key: a key never holds them, rendered Markdown neither. */
export const LESSON_LINK_MARKER = /\uE002([^\uE003]*)\uE003/g;
export const lessonLinkMarker = (key: string): string => `\uE002${key}\uE003`;

/** school.lesson_url with the ids filled in. */
export function lessonUrl(template: string, programId: string, lessonId: string): string {
  return template.replaceAll('{program_id}', encodeURIComponent(programId)).replaceAll('{lesson_id}', encodeURIComponent(lessonId));
}

/** Where a lesson is, once it exists: null while it has no id. */
export type LessonLocator = (key: string) => { programId: string; id: string } | null;

/**
 * `html` with every marker whose target `locate` knows replaced by its lesson URL. With
 * `keepUnknown`, other markers stay (to be filled later); without, they become the page itself
 * (`#`, or the `#fragment` that follows the marker), a link that goes nowhere wrong.
 */
export function fillLessonLinks(html: string, template: string, locate: LessonLocator, keepUnknown: boolean, waiting?: Set<string>): string {
  if (!html.includes('\uE002')) return html;
  let changed = false;
  const out = html.replace(LESSON_LINK_MARKER, (m, key: string, offset: number) => {
    const at = locate(key);
    if (!at) {
      waiting?.add(key);
      if (keepUnknown) return m;
    }
    changed = true;
    return at ? lessonUrl(template, at.programId, at.id) : html[offset + m.length] === '#' ? '' : '#';
  });
  // Nothing filled (a first plan, no target has an id yet): the same string, not a copy of it.
  return changed ? out : html;
}

/** The HTML as it would be sent if no pending link could be filled (for showing plans). */
export function showPendingLinks(html: string): string {
  return html.includes('\uE002') ? html.replace(LESSON_LINK_MARKER, (m, _key: string, offset: number) => (html[offset + m.length] === '#' ? '' : '#')) : html;
}
