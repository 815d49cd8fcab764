/**
 * Links between lessons (PURE). A compiled body holds a marker per link to another lesson;
 * the planner replaces it with school.lesson_url once the target's id is known.
 */

/** Private-use characters around a lesson key: a key never holds them, rendered Markdown neither. */
export const LESSON_LINK_MARKER = /\uE002([^\uE003]*)\uE003/g;
export const lessonLinkMarker = (key: string): string => `\uE002${key}\uE003`;

/** school.lesson_url with the ids filled in. */
export function lessonUrl(template: string, programId: string, lessonId: string): string {
  return template.replaceAll('{program_id}', encodeURIComponent(programId)).replaceAll('{lesson_id}', encodeURIComponent(lessonId));
}
