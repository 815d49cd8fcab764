/**
 * The preview page (PURE): the course as a learner will get it once applied. Programs →
 * sections → lessons in learner order with draft, lock and unlock-day marks, the day-by-day
 * unlock calendar, the diagnostics at path:line, and each lesson's player and body. Bodies,
 * descriptions and embed code are the lesson's own HTML, byte for byte what apply sends; every
 * other text is escaped.
 */
import { placeOf, type Diagnostic } from '../diagnostics/diagnostic.js';
import { gatesOf, learnerViewOfDesired, unlockCalendar, type LearnerLesson, type LearnerView, type SectionFacts } from '../learner/index.js';
import type { DesiredLesson, DesiredState } from '../model/desired.js';
import { escapeHtml as esc } from './html.js';
import { previewLessonPath } from './lesson-html.js';
import { PAGE_SCRIPT, PAGE_STYLE } from './page-assets.js';
import { playerHtml } from './video-player.js';

export interface PreviewModel {
  /** The last course that compiled without errors (undefined until one did), as shown (lesson-html.ts). */
  desired: DesiredState | undefined;
  /** Whether `desired` is older than the files (the current files have errors). */
  stale: boolean;
  diagnostics: readonly Diagnostic[];
  /** Bumped on every recompile; the page reloads its content when it changes. */
  version: number;
  /** From GET /sections (`preview --refresh`): by section id. */
  sections?: ReadonlyMap<string, SectionFacts>;
  /** Section folder → id for sections given by `name:`, resolved through GET /sections. */
  sectionIds?: ReadonlyMap<string, string>;
}

/** The anchor id of a lesson's article. */
export function lessonAnchor(key: string): string {
  return `lesson-${key}`;
}

/** A link to a lesson's article in the course page, from any page of the preview. */
const courseLink = (key: string) => `/#${lessonAnchor(key)}`;

/** The whole page. */
export function renderPreviewPage(model: PreviewModel): string {
  return pageOf('coursesync preview', renderMain(model));
}

/** The page of one lesson (where links between lessons land), or undefined when the course has no such lesson. */
export function renderLessonPage(model: PreviewModel, key: string): string | undefined {
  const lesson = model.desired?.programs.flatMap((p) => p.sections.flatMap((s) => s.lessons)).find((l) => l.key === key);
  return lesson ? pageOf(`${lesson.fields.name} · coursesync preview`, renderMain(model, key)) : undefined;
}

function pageOf(title: string, main: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title><style>${PAGE_STYLE}</style></head>`,
    '<body>',
    main,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}

/** The part of the page that live reload replaces: the whole course, or only the lesson `only`. */
export function renderMain(model: PreviewModel, only?: string): string {
  const out: string[] = [`<main id="preview" data-version="${model.version}"${only === undefined ? '' : ` data-lesson="${esc(only)}"`}>`];
  const view = model.desired ? learnerViewOfDesired(model.desired, model.sectionIds, model.sections) : undefined;
  const lessons = view ? view.lessons.size : 0;
  out.push(
    `<header><h1>coursesync preview</h1><p class="summary">${lessons} lesson${lessons === 1 ? '' : 's'} as learners will see them once applied · nothing is sent to the school · ` +
      `${model.sections ? 'section drips, publication and order read from the school' : 'section drips count as 0 (run with --refresh to read them from the school)'}</p>` +
      (only === undefined ? '' : `<nav><a class="course" href="${esc(courseLink(only))}">← the whole course</a></nav>`) +
      '</header>',
  );
  out.push(renderDiagnostics(model.diagnostics, model.stale && model.desired !== undefined));
  if (model.desired && view) {
    if (only === undefined) out.push(renderCalendar(view));
    const byKey = new Map<string, DesiredLesson>();
    for (const p of model.desired.programs) for (const s of p.sections) for (const l of s.lessons) byKey.set(l.key, l);
    out.push(...renderCourse(view, byKey, only));
  }
  out.push('</main>');
  return out.join('\n');
}

function renderDiagnostics(list: readonly Diagnostic[], stale: boolean): string {
  if (list.length === 0) return '<section id="diagnostics" class="ok" data-count="0"><p>No problems in the files.</p></section>';
  const items = list.map(
    (d) =>
      `<li class="diagnostic ${d.severity}" data-file="${esc(d.file)}" data-code="${esc(d.code)}"><code class="place">${esc(placeOf(d))}</code> ` +
      `<span class="severity">${d.severity}</span> <span class="message">${esc(d.message)}</span> <code class="code">[${esc(d.code)}]</code>` +
      (d.hint ? `<div class="hint">${esc(d.hint)}</div>` : '') +
      '</li>',
  );
  return [
    `<section id="diagnostics" data-count="${list.length}"><h2>${list.length} problem${list.length === 1 ? '' : 's'} in the files</h2>`,
    stale ? '<p class="stale">The course below is the last version without errors.</p>' : '',
    `<ul>${items.join('')}</ul></section>`,
  ].join('\n');
}

/** One calendar per program: a learner's access, and so day 0, is per program. */
function renderCalendar(view: LearnerView): string {
  const calendars = view.programs.map((p) => {
    const items = unlockCalendar(view, p.id).map((d) => {
      const links = d.lessons.map((l) => `<li><a href="${esc(courseLink(l.key))}" data-key="${esc(l.key)}">${esc(l.name)}</a></li>`).join('');
      return `<li class="day" data-day="${d.day}"><h3>Day ${d.day}</h3><p>${d.lessons.length} lesson${d.lessons.length === 1 ? '' : 's'} unlock${d.lessons.length === 1 ? 's' : ''}</p><ul>${links}</ul></li>`;
    });
    return `<div class="program-calendar" data-program="${esc(p.id)}"><h3>${esc(p.path)}</h3><ol>${items.join('')}</ol></div>`;
  });
  return `<section id="calendar"><h2>Unlock calendar</h2><p class="note">Days after a learner's access to the program starts (section drip plus lesson drip); drafts are not listed.</p>${calendars.join('')}</section>`;
}

function renderCourse(view: LearnerView, byKey: ReadonlyMap<string, DesiredLesson>, only?: string): string[] {
  const out: string[] = [];
  const shown = (l: LearnerLesson) => only === undefined || l.key === only;
  for (const program of view.programs) {
    if (!program.sections.some((s) => s.lessons.some(shown))) continue;
    out.push(`<article class="program" data-program="${esc(program.id)}"><h2>${esc(program.path)} <small>program ${esc(program.id)}</small></h2>`);
    for (const section of program.sections) {
      if (!section.lessons.some(shown)) continue;
      out.push(
        `<section class="section" data-section="${esc(section.id)}"><h3>${esc(section.path)} <small>section ${esc(section.id)}${section.drip > 0 ? ` · unlocks on day ${section.drip}` : ''}</small></h3>`,
      );
      for (const lesson of section.lessons.filter(shown)) out.push(renderLesson(lesson, byKey.get(lesson.key)!, gatesOf(view, lesson)));
      out.push('</section>');
    }
    out.push('</article>');
  }
  return out;
}

function renderLesson(l: LearnerLesson, d: DesiredLesson, gates: string[]): string {
  const marks: string[] = [];
  if (!l.visible) marks.push(`<span class="mark draft" title="hidden from learners">${l.hiddenBy === 'lesson' ? 'draft' : `hidden: ${l.hiddenBy} unpublished`}</span>`);
  if (l.locks) marks.push('<span class="mark lock" title="learners must complete it before the rest of the program">🔒 progression lock</span>');
  marks.push(`<span class="mark day">day ${l.unlockDay}</span>`);
  const gate = gates.length > 0 ? `<p class="gate">Opens after completing ${gates.map((k) => `<a href="${esc(courseLink(k))}">${esc(k)}</a>`).join(', ')}</p>` : '';
  const f = d.fields;
  return [
    `<article class="lesson${l.visible ? '' : ' hidden'}" id="${esc(lessonAnchor(l.key))}" data-key="${esc(l.key)}" data-order="${l.order}" data-unlock-day="${l.unlockDay}" data-visible="${l.visible}" data-locked="${l.locks}" data-gated-by="${esc(gates.join(' '))}">`,
    `<h4><span class="order">${l.order + 1}.</span> ${esc(f.name)} ${marks.join(' ')}</h4>`,
    `<p class="meta"><code>${esc(d.path)}</code> · ${esc(f.lesson_type)} · key ${esc(l.key)} · <a class="own-page" href="${esc(previewLessonPath(l.key))}">its own page</a></p>`,
    gate,
    f.description ? `<div class="lesson-description">${f.description}</div>` : '',
    playerHtml(f),
    `<div class="lesson-body" data-key="${esc(l.key)}">${f.body}</div>`,
    '</article>',
  ]
    .filter((s) => s !== '')
    .join('\n');
}
