/**
 * Lesson files written by import, duplicate and clone (PURE): the front-matter of a school
 * lesson, the file text, and the check that the text compiles (with the project's own
 * compiler) to exactly the fields the school holds. What the check proves is what state
 * records as last-applied, so the next plan is empty by construction.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { stringify } from 'yaml';
import { compileLesson } from '../compile/compile-lesson.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { DEFAULT_LESSON_FIELDS, LESSON_FIELDS, type LessonFields } from '../model/desired.js';
import type { LessonDefaults } from '../model/lesson.js';
import { VIDEO_SOURCE_PRIORITY } from '../school-api/school-rules.js';
import type { Lesson } from '../school-api/wire/lessons.js';
import { splitFrontMatter } from '../source/split-front-matter.js';
import { plainHtml, renderMarkdown } from '../compile/render.js';
import { fieldsAsWritten } from '../compile/resolve-refs.js';
import { sameHtml } from './check-round-trip.js';
import { htmlToMarkdown } from './html-to-markdown.js';

/** How a lesson came into the repo, for `copied_from` and the file's key. */
export interface LessonFileOptions {
  /** Written as `key:` (identity independent of the file name). */
  key: string;
  /** Key of the lesson this one was copied from. */
  copiedFrom?: string | undefined;
  /** Keep the body as HTML (`content_format: html`) even when Markdown would round-trip. */
  keepHtml?: boolean;
  /** Repo-relative path the file will have (for diagnostics). */
  path: string;
  /**
   * The lesson defaults the file inherits (coursesync.yaml, program.yaml, section.yaml): given,
   * the front-matter holds only the fields whose value differs from what the file would get
   * without them (these, else the school's defaults), and no `content_format: markdown`.
   */
  inherited?: LessonDefaults;
}

export interface LessonFile {
  text: string;
  /** The fields the file compiles to: what state records as last-applied. */
  fields: LessonFields;
  /** Why the body is kept as HTML; null when it is Markdown. */
  keptAsHtml: string | null;
  /** Things the user should know (fields the file cannot express, a lossy description). */
  notes: string[];
}

/** The school's lesson fields (docs/school-api.md#lesson) as the repo's managed fields, unmodified. */
export function serverFields(lesson: Lesson): LessonFields {
  const out = {} as Record<string, unknown>;
  for (const f of LESSON_FIELDS) out[f] = lesson[f];
  return out as unknown as LessonFields;
}

/** Front-matter (every field, in the order of the repo format) for a school lesson. */
function frontMatterOf(lesson: Lesson, options: LessonFileOptions, description: string | undefined, html: boolean): Record<string, unknown> {
  const fm: Record<string, unknown> = { name: lesson.name, key: options.key };
  if (options.copiedFrom !== undefined) fm.copied_from = options.copiedFrom;
  const inherited = options.inherited;
  for (const f of ['lesson_type', 'drip_delay', 'is_published', 'is_progression_locked'] as const) {
    if (inherited === undefined || lesson[f] !== (inherited[f] ?? DEFAULT_LESSON_FIELDS[f])) fm[f] = lesson[f];
  }
  if (description !== undefined && description !== '') fm.description = description;
  if (lesson.lesson_type === 'video') {
    const video: Record<string, string> = {};
    for (const host of ['a', 'b', 'c', 'd'] as const) {
      const v = lesson[`settings_embed_host_${host}`];
      if (v) video[`host_${host}`] = v;
    }
    if (lesson.settings_embed_code) video.embed_code = lesson.settings_embed_code;
    if (Object.keys(video).length > 0) fm.video = video;
  }
  if (lesson.lesson_type === 'embed' && lesson.embed_code) fm.embed_code = lesson.embed_code;
  if (html || inherited === undefined) fm.content_format = html ? 'html' : 'markdown';
  return fm;
}

/** `---` front-matter `---` body. Long lines are never folded (lineWidth 0). */
export function lessonFileText(frontMatter: Record<string, unknown>, body: string): string {
  const yaml = stringify(frontMatter, { lineWidth: 0, version: '1.2' });
  return `---\n${yaml}---\n${body}`;
}

/** Compile a file text with the project's compiler; undefined fields when it has errors. */
export function compileText(text: string, path: string, inherited?: LessonDefaults): { fields?: LessonFields; diagnostics: Diagnostic[] } {
  const out: Diagnostic[] = [];
  const compiled = compileLesson({ path, text, digest: '', ...splitFrontMatter(text) }, out, undefined, inherited);
  return compiled.fields && !out.some((d) => d.severity === 'error') ? { fields: fieldsAsWritten(compiled.fields, compiled.refs ?? []), diagnostics: out } : { diagnostics: out };
}

/** The first field whose compiled value differs from the school's (HTML compared as shown). */
function firstDifference(a: LessonFields, b: LessonFields): string | undefined {
  for (const f of LESSON_FIELDS) {
    const x = a[f];
    const y = b[f];
    if (x === y) continue;
    if ((f === 'body' || f === 'description') && typeof x === 'string' && typeof y === 'string' && sameHtml(x, y)) continue;
    return f;
  }
  return undefined;
}

/** A description as Markdown that renders back to the same HTML, or undefined when none does. */
function descriptionMarkdown(html: string): string | undefined {
  if (html === '') return '';
  const converted = htmlToMarkdown(html);
  if (sameHtml(plainHtml(renderMarkdown(converted)), html)) return converted;
  // Raw HTML is valid Markdown; remark passes an HTML block through unchanged.
  if (sameHtml(plainHtml(renderMarkdown(html)), html)) return html;
  return undefined;
}

/** Fields the repo format cannot hold for this lesson type, which the file therefore leaves out. */
function unexpressible(lesson: Lesson): string[] {
  const lost: string[] = [];
  if (lesson.lesson_type !== 'video') {
    for (const f of VIDEO_SOURCE_PRIORITY) if (lesson[f]) lost.push(f);
  }
  if (lesson.lesson_type !== 'embed' && lesson.embed_code) lost.push('embed_code');
  return lost;
}

/**
 * Write a school lesson as a repo file. The body becomes Markdown when re-rendering that
 * Markdown gives the school's HTML back (else it stays HTML, and `keptAsHtml` says why); the
 * whole text is then compiled and compared field by field with the school's lesson.
 */
export function lessonToFile(lesson: Lesson, options: LessonFileOptions): LessonFile {
  const notes: string[] = [];
  const lost = unexpressible(lesson);
  if (lost.length > 0) notes.push(`${lost.join(', ')} set in the school but not allowed for a ${lesson.lesson_type} lesson in the repo: left out of the file (kept in the school until changed there)`);
  let description = descriptionMarkdown(lesson.description);
  if (description === undefined) {
    notes.push('the description does not convert to Markdown that renders the same HTML: written as converted; the school keeps its HTML until the description is edited');
    description = htmlToMarkdown(lesson.description);
  }

  let keptAsHtml: string | null = null;
  let body = lesson.body;
  if (options.keepHtml) keptAsHtml = '--keep-html';
  else if (lesson.body !== '') {
    const markdown = htmlToMarkdown(lesson.body);
    const rendered = plainHtml(renderMarkdown(markdown));
    if (sameHtml(rendered, lesson.body)) body = markdown + '\n';
    else keptAsHtml = 'the Markdown conversion renders different HTML';
  }
  // An empty body is the same in both formats: Markdown.
  let text = lessonFileText(frontMatterOf(lesson, options, description, keptAsHtml !== null), body);
  let compiled = compileText(text, options.path, options.inherited);
  const wanted = { ...serverFields(lesson) };
  for (const f of lost) (wanted as Record<string, unknown>)[f] = null;
  if (keptAsHtml === null && (!compiled.fields || firstDifference(compiled.fields, wanted) !== undefined)) {
    keptAsHtml = 'the Markdown file does not compile back to the same lesson';
    text = lessonFileText(frontMatterOf(lesson, options, description, true), lesson.body);
    compiled = compileText(text, options.path, options.inherited);
  }
  if (!compiled.fields) {
    // The school holds something the repo format refuses (e.g. markup validation rejects).
    const first = compiled.diagnostics.find((d) => d.severity === 'error');
    throw failure('import/unrepresentable', { id: lesson.id, name: lesson.name, problem: first ? `${first.message} [${first.code}]` : 'it does not compile' });
  }
  const diff = firstDifference(compiled.fields, wanted);
  if (diff !== undefined) notes.push(`${diff} differs from the school's value once compiled; the next change to it will send the repo's value`);
  return { text, fields: compiled.fields, keptAsHtml, notes };
}
