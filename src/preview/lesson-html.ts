/**
 * What the preview shows of a lesson's own HTML (PURE): links between lessons go to the
 * lesson's page in the preview, and the elements a Content-Security-Policy cannot stop are
 * shown as text. The page's policy (page-assets.ts) stops every script, event handler and
 * `javascript:` URL and any `<base href>`; it cannot stop `<meta http-equiv=refresh>` (which
 * takes the author elsewhere), `<base target>` nor `<plaintext>` (which swallows the rest of the
 * page, our script included).
 */
import { fillLessonLinks } from '../model/lesson-links.js';
import type { DesiredLesson, DesiredState } from '../model/desired.js';

/** The preview's page of one lesson: a link to another lesson opens it. */
export function previewLessonPath(key: string): string {
  return `/lessons/${encodeURIComponent(key)}/`;
}

/** The same template syntax as school.lesson_url, so the one filler (model/lesson-links.ts) serves both. */
const PREVIEW_LESSON_URL = '/lessons/{lesson_id}/';

/**
 * The `<` of every `<meta`, `<base` and `<plaintext` tag name (any case), wherever it stands.
 * A browser makes such an element only from these very characters (a tag name has no escapes),
 * so once they are gone none can be made, whatever state an earlier lesson left the parser in
 * (an open `<textarea>` or comment). Elsewhere the change is invisible: in an attribute value
 * or `<textarea>`, `&lt;` is read as `<`; a comment is not shown.
 */
const ACTING_TAG = /<(?=(?:meta|base|plaintext)(?:[\t\n\f\r />]|$))/gi;

/** `html` with no element that acts without a script: such a tag is shown as text. */
export function inertHtml(html: string): string {
  return html.replace(ACTING_TAG, '&lt;');
}

/**
 * The course as the preview shows it: each lesson's HTML (body, description, embed codes) with
 * links between lessons filled with the preview's own URLs, then made inert.
 */
export function showCourse(desired: DesiredState): DesiredState {
  const keys = new Set<string>();
  for (const p of desired.programs) for (const s of p.sections) for (const l of s.lessons) keys.add(l.key);
  const locate = (key: string) => (keys.has(key) ? { programId: '', id: key } : null);
  const show = (html: string): string => inertHtml(fillLessonLinks(html, PREVIEW_LESSON_URL, locate, false));
  const lesson = (l: DesiredLesson): DesiredLesson => {
    const f = l.fields;
    return {
      ...l,
      fields: {
        ...f,
        body: show(f.body),
        description: show(f.description),
        embed_code: f.embed_code === null ? null : show(f.embed_code),
        settings_embed_code: f.settings_embed_code === null ? null : show(f.settings_embed_code),
      },
    };
  };
  const programs = desired.programs.map((p) => ({ ...p, sections: p.sections.map((s) => ({ ...s, lessons: s.lessons.map(lesson) })) }));
  return { ...desired, programs };
}
