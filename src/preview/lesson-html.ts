/**
 * What the preview shows of a lesson's own HTML (PURE): links between lessons go to the
 * lesson's page in the preview, and the elements a Content-Security-Policy cannot stop are
 * made inert. The page's policy (page-assets.ts) stops every script, event handler and
 * `javascript:` URL and any `<base href>`; it cannot stop `<meta http-equiv=refresh>` (which
 * navigates the author away) nor `<base target>`, and a body that ends inside a comment,
 * `<textarea>` or `<plaintext>` would change how the browser reads the next lesson. So each
 * piece is parsed on its own, those elements defused, and written back whole (every element
 * closed, text escaped), so that what this module sees is what the browser parses.
 */
import type { Element, Root, RootContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import { fillLessonLinks } from '../model/lesson-links.js';
import type { DesiredLesson, DesiredState } from '../model/desired.js';

/** The preview's page of one lesson: a link to another lesson opens it. */
export function previewLessonPath(key: string): string {
  return `/lessons/${encodeURIComponent(key)}/`;
}

/** The same template syntax as school.lesson_url, so the one filler (model/lesson-links.ts) serves both. */
const PREVIEW_LESSON_URL = '/lessons/{lesson_id}/';

/** `html` as the page may hold it: every element that would act without a script defused, every construct closed. */
export function inertHtml(html: string): string {
  if (html === '') return html;
  const tree = fromHtml(html, { fragment: true });
  defuse(tree);
  return toHtml(tree, { allowDangerousHtml: true });
}

function defuse(node: Root | RootContent): void {
  if (node.type === 'element') {
    defuseElement(node);
    if (node.content) defuse(node.content);
  }
  if ('children' in node) for (const child of node.children) defuse(child);
}

/** The attribute stays visible to the author under a `data-` name; it no longer acts. */
function defuseElement(el: Element): void {
  const p = el.properties;
  if (el.tagName === 'meta' && p.httpEquiv !== undefined) {
    p.dataPreviewInert = `http-equiv=${String(p.httpEquiv)}`;
    delete p.httpEquiv;
  } else if (el.tagName === 'base') {
    p.dataPreviewInert = 'base';
    delete p.href;
    delete p.target;
  } else if (el.tagName === 'plaintext') {
    // Nothing ends <plaintext> once a browser reads it: the rest of the page would be its text.
    el.tagName = 'pre';
    p.dataPreviewInert = 'plaintext';
  }
}

/**
 * The course as the preview shows it: each lesson's HTML (body, description, embed codes) with
 * links between lessons filled with the preview's own URLs, then made inert. `seen` maps HTML
 * already shown to its inert form; the returned map holds only what this course uses, to pass
 * to the next call (an unchanged lesson is not parsed again).
 */
export function showCourse(desired: DesiredState, seen: ReadonlyMap<string, string>): { desired: DesiredState; seen: Map<string, string> } {
  const keys = new Set<string>();
  for (const p of desired.programs) for (const s of p.sections) for (const l of s.lessons) keys.add(l.key);
  const locate = (key: string) => (keys.has(key) ? { programId: '', id: key } : null);
  const next = new Map<string, string>();
  const show = (html: string): string => {
    if (html === '') return html;
    const filled = fillLessonLinks(html, PREVIEW_LESSON_URL, locate, false);
    let shown = next.get(filled) ?? seen.get(filled);
    if (shown === undefined) shown = inertHtml(filled);
    next.set(filled, shown);
    return shown;
  };
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
  return { desired: { ...desired, programs }, seen: next };
}
