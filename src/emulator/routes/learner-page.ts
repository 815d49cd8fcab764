/**
 * The learner's view of a lesson: `GET /products/{program_id}/lessons/{lesson_id}` answers a
 * minimal HTML page with the lesson's name, description and body as the school stores them,
 * so a test can open what a learner would see in a browser (links between lessons point here
 * when school.lesson_url names this path on the emulator's origin). No token: learners have none.
 * A draft lesson, or a lesson of an unpublished section, is not shown to learners: 404, as for
 * a lesson that does not exist (a learner cannot tell the two apart).
 */
import type { Store } from '../store.js';

const PATH = /^\/products\/([^/]+)\/lessons\/([^/]+)\/?$/;

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Whether `pathname` is a learner page path. */
export function isLearnerPage(pathname: string): boolean {
  return PATH.test(pathname);
}

/** The page for `pathname`, or 404 when the program holds no such lesson or learners may not see it. */
export function learnerPage(store: Store, pathname: string): { status: number; html: string } {
  const m = PATH.exec(pathname);
  const programId = m ? decode(m[1]!) : undefined;
  const lessonId = m ? decode(m[2]!) : undefined;
  const lesson = lessonId === undefined ? undefined : store.lessons.get(lessonId);
  const section = lesson ? store.sections.get(lesson.section_id) : undefined;
  if (!lesson || !section || section.program_id !== programId || !lesson.is_published || !section.is_published) {
    return { status: 404, html: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Lesson not found</h1></body></html>' };
  }
  const html = [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeText(lesson.name)}</title>`,
    '</head><body>',
    `<header><h1 class="lesson-name">${escapeText(lesson.name)}</h1></header>`,
    `<section class="lesson-description">${lesson.description}</section>`,
    `<main class="lesson-body" data-lesson-id="${escapeText(lesson.id)}">${lesson.body}</main>`,
    '</body></html>',
  ].join('\n');
  return { status: 200, html };
}
