/**
 * One lesson file → its key, aliases and API fields (PURE): front-matter through strict YAML
 * and zod, body and description rendered and checked, type rules and length limits.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LessonFields } from '../model/desired.js';
import { allows, presentKeys } from '../model/field-rules.js';
import { EMBED_CODE_ONLY_ON_EMBED, LESSON_KEY_PATTERN, LessonFrontMatterSchema, VIDEO_ONLY_ON_VIDEO, VIDEO_SOURCE_RULE, type Inherited, type LessonFrontMatter } from '../model/lesson.js';
import type { LessonSource } from '../model/source-tree.js';
import { characterCount, DEFAULT_LESSON_FIELDS, MAX_CONTENT_LENGTH } from '../school-api/school-rules.js';
import { videoIdFromUrl } from '../school-api/video-urls.js';
import type { HtmlProblem } from './check-html.js';
import { checkSchema } from './check-schema.js';
import { diag, type Code, type Place } from './codes.js';
import { findTooDeep, tooDeepMessage } from './nesting-depth.js';
import { parseFrontMatter } from './parse-front-matter.js';
import type { ParsedYaml } from './parse-yaml.js';
import { renderStoppedMessage } from './render-budget.js';
import { defaultRender } from './markdown-renderer.js';
import { renderHtmlBody, type LocalRef, type RenderResult } from './rendered-html.js';
import { firstHeading, withoutLeadingTitle } from './leading-title.js';

/** Markdown → HTML; swappable so a caller can serve results from a cache or a worker pool. */
export type RenderFn = (markdown: string) => RenderResult;

/** A lesson's identity, known even when its fields are not valid (for duplicate-key checks). */
export interface LessonIdentity {
  key: string;
  keyPlace?: Place;
  aliases: Array<{ key: string; place?: Place }>;
  /** The key came from the file name (no `key:`): a name other lesson files share qualifies it (lesson-keys.ts). */
  fromFileName?: true;
}

/** A local reference of a rendered field, placed in the lesson file; `index` is its marker in that field. */
export interface PlacedRef extends LocalRef {
  field: 'body' | 'description';
  index: number;
  /** The repo file the reference is written in when it is not the lesson (an included partial): it resolves from there. */
  base?: string;
}

export interface CompiledLesson {
  identity?: LessonIdentity;
  /**
   * Present only when the lesson has no errors. Body and description still hold the markers of
   * their local references (resolve-refs.ts replaces them once the whole repo is known).
   */
  fields?: LessonFields;
  copied_from?: string;
  acknowledge?: string[];
  /** Local references of body and description, resolved against the repo by compileCourse. */
  refs?: PlacedRef[];
  /** Ids and names in the body a `#fragment` can reach. */
  anchors?: string[];
}

const START: Place = { line: 1, column: 1 };

/** A `---` block that would be front-matter but for what comes before its first `---`. */
const MISPLACED_FRONT_MATTER = /^[\uFEFF\u200B\s]+---[ \t]*\r?\n[\s\S]*?\n---[ \t]*(\r?\n|$)/;

/** A name without its ordering prefix (`01-`, `1_`, `01.`): the first rule of keys, which folder parts of qualified keys keep (lesson-keys.ts). */
export const withoutOrderingPrefix = (name: string): string => name.replace(/^\d+[-_.]/, '');

/**
 * The key a file name gives: no extension, no ordering prefix (`01-`, `1_`, `01.`). A name that
 * gives no valid key so (`1.1 The CIA triad.md`, spaces and all) gives its words instead: its
 * numbering off (`1.1 `, `01 - `), each run of other characters a `-` (`The-CIA-triad`,
 * `Week-1-Intro`); a name with no such word (all of another script) still gives none.
 */
export function keyFromFileName(fileName: string): string {
  const stem = fileName.replace(/\.md$/i, '');
  const plain = withoutOrderingPrefix(stem);
  // Only a name with other characters (spaces, punctuation, another script) gives its words.
  if (LESSON_KEY_PATTERN.test(plain) || !/[^A-Za-z0-9._-]/.test(stem)) return plain;
  const words = stem
    .replace(/^\d+(?:\.\d+)*\.?(?:\s*[-_.]\s*|\s+)/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[^A-Za-z0-9]+|[-_.]+$/g, '');
  return words === '' ? plain : words;
}

/**
 * Compile one lesson file, pushing its problems onto `out`. `defaults`: what it inherits (lesson
 * defaults; front-matter keys another tool reads, left alone; a book page's SUMMARY.md title).
 */
export function compileLesson(source: LessonSource, out: Diagnostic[], render: RenderFn = defaultRender, defaults: Inherited = {}): CompiledLesson {
  const file = source.path;
  if (source.text.trim() === '') {
    out.push(diag('file/empty', file, undefined, 'lesson file is empty'));
    return {};
  }
  if (source.frontMatterUnclosed) {
    out.push(diag('lesson/front-matter-unclosed', file, START, `front-matter opened with ${source.frontMatter?.toml ? '+++' : '---'} is never closed`));
    return {};
  }
  if (!source.frontMatter && MISPLACED_FRONT_MATTER.test(source.text)) {
    // Now that a file without front-matter is a lesson too, say why this one was not read.
    out.push(diag('lesson/front-matter-not-first', file, START, 'the file opens a --- block after other characters (a second byte-order mark, spaces or blank lines), so it has no front-matter'));
    return {};
  }
  const before = out.length;
  // No front-matter is an empty one: the name then comes from the body's first heading.
  const yaml = parseFrontMatter(source.frontMatter, file, out);
  if (yaml.value === undefined && out.length > before) {
    compileBody(source, 'markdown', render, out);
    return {};
  }
  const value = yaml.value ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    out.push(diag('yaml/not-a-mapping', file, yaml.start, 'front-matter is not a mapping of `key: value` lines'));
    compileBody(source, 'markdown', render, out);
    return {};
  }
  const foreign = defaults.front_matter_ignore;
  let raw = foreign === undefined ? (value as Record<string, unknown>) : withoutKeys(value as Record<string, unknown>, foreign);
  // Its own name_from, else the one it inherits (a bad value is the schema's to report: the heading meanwhile).
  const from = raw.name_from ?? defaults.name_from;
  if (from === 'title') raw = titleAsName(raw);
  const errorsBefore = countErrors(out);
  const identity = identityOf(file, raw, yaml, out);
  // The body is checked even when the front-matter is not, so every problem shows at once.
  const body = compileBody(source, raw.content_format === 'html' ? 'html' : 'markdown', render, out);
  if (raw.name === undefined) {
    const name = nameOf(from, file, body.html, defaults.toc_title);
    if (name !== undefined) raw = { ...raw, name };
    else {
      const what = source.frontMatter ? 'no `name:` in its front-matter' : 'no front-matter';
      const why = from === 'file' ? 'and a file name that gives no words' : 'and no heading to take its name from';
      out.push(diag('lesson/no-name', file, source.frontMatter ? (yaml.placeOf([]) ?? yaml.start) : START, `lesson has ${what} ${why}`));
    }
  }
  // Checked even without a name, so every problem of the front-matter shows at once.
  const checked = checkSchema(LessonFrontMatterSchema, raw, yaml, file, 'lesson', out);
  // Its references and anchors too: a front-matter typo must not hide a broken image, nor make
  // a link from another lesson to one of its headings look broken.
  if (!checked || raw.name === undefined) return { identity, refs: body.refs, ...(body.anchors && { anchors: body.anchors }) };
  // The name was filled in from the heading above when the front-matter had none.
  const fm = { ...defaults, ...definedOnly(checked) } as Named;
  const refs: PlacedRef[] = [...body.refs];
  const html = fm.keep_title === true ? body.html : withoutLeadingTitle(body.html, fm.name);
  const fields = buildFields(fm, html, source, yaml, render, refs, out);
  const result: CompiledLesson = { identity };
  if (fm.copied_from !== undefined) result.copied_from = fm.copied_from;
  if (fm.acknowledge !== undefined) result.acknowledge = fm.acknowledge;
  result.refs = refs;
  if (body.anchors) result.anchors = body.anchors;
  if (countErrors(out) === errorsBefore) result.fields = fields;
  return result;
}

/**
 * The name of a lesson without `name:`, by `name_from`: its file name (`file`); for a page of a
 * book, its title in SUMMARY.md (`toc`), else its first heading; its first heading (the
 * default), and a book page without one its SUMMARY.md title, as mdBook names it in its sidebar.
 */
function nameOf(from: unknown, file: string, html: string, tocTitle: string | undefined): string | undefined {
  if (from === 'file') return nameFromFile(file);
  if (from === 'toc' && tocTitle !== undefined) return tocTitle;
  return firstHeading(html)?.text ?? tocTitle;
}

/**
 * A lesson's name from its file name (`name_from: file`): `02-function_basics.md` is "Function
 * basics" (ordering prefix dropped, `_` and `-` as spaces, first letter upper case); a README or
 * index is named by its folder. Undefined when nothing is left.
 */
export function nameFromFile(path: string): string | undefined {
  const parts = path.split('/');
  let base = keyFromFileName(parts.at(-1)!);
  if (/^(readme|index)$/i.test(base) && parts.length > 1) base = keyFromFileName(parts.at(-2)!);
  const words = base.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return words === '' ? undefined : words[0]!.toUpperCase() + words.slice(1);
}

/**
 * Under `name_from: title`, the front-matter's `title:` (what Jekyll, Hugo, Docusaurus, Quarto
 * and the Carpentries name a page by) names the lesson, unless `name:` does, and is no unknown
 * key. A title that is no text stays, for the schema to report.
 */
function titleAsName(raw: Record<string, unknown>): Record<string, unknown> {
  const { title, ...rest } = raw;
  if (typeof title !== 'string' && typeof title !== 'number') return raw;
  return rest.name === undefined ? { ...rest, name: String(title) } : rest;
}

function withoutKeys(value: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)));
}

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function countErrors(list: Diagnostic[]): number {
  return list.reduce((n, d) => n + (d.severity === 'error' ? 1 : 0), 0);
}

/** Key and aliases from the raw front-matter (so duplicates are found even in broken files). */
function identityOf(file: string, raw: Record<string, unknown> | undefined, yaml: ParsedYaml | undefined, out: Diagnostic[]): LessonIdentity | undefined {
  const aliases: LessonIdentity['aliases'] = [];
  if (raw && Array.isArray(raw.aliases)) {
    raw.aliases.forEach((a, i) => {
      if (typeof a === 'string' && LESSON_KEY_PATTERN.test(a)) aliases.push({ key: a, place: yaml?.placeOf(['aliases', i]) });
    });
  }
  if (raw && raw.key !== undefined) {
    // A bad `key:` is reported by the schema; such a lesson has no identity to compare.
    return typeof raw.key === 'string' && LESSON_KEY_PATTERN.test(raw.key) ? { key: raw.key, keyPlace: yaml?.placeOf(['key']), aliases } : undefined;
  }
  const name = file.slice(file.lastIndexOf('/') + 1);
  const key = keyFromFileName(name);
  if (!LESSON_KEY_PATTERN.test(key)) {
    out.push(diag('lesson/invalid-key', file, undefined, `the file name gives the key ${JSON.stringify(key)}, which is not a valid key`));
    return undefined;
  }
  return { key, aliases, fromFileName: true };
}

/**
 * Markdown longer than this is not rendered: no lesson is that long, and rendering ten
 * megabytes takes remark tens of seconds (found by the hostile-input test). Rendering never
 * shrinks text much, so such a source is far over the school's limit anyway.
 */
const MAX_SOURCE_LENGTH = 5 * MAX_CONTENT_LENGTH;

function tooLongToRender(what: string, length: number): string {
  return `the ${what} is ${length} characters of Markdown, over ${MAX_SOURCE_LENGTH} (the school accepts at most ${MAX_CONTENT_LENGTH} characters rendered); it was not rendered`;
}

/** Render (or pass through) the body and report its problems at their places in the file. */
interface CompiledBody {
  html: string;
  refs: PlacedRef[];
  /** Undefined when the body could not be rendered: its anchors are unknown. */
  anchors: string[] | undefined;
}

function compileBody(source: LessonSource, format: 'markdown' | 'html', render: RenderFn, out: Diagnostic[]): CompiledBody {
  const file = source.path;
  // Body: Markdown rendered here, or HTML passed through; problems placed in the file.
  const bodyStart = source.body.line;
  const origins = source.expanded?.origins;
  // An expanded body's lines are placed where they came from (included text at its directive).
  const inBody = (p: Place): Place => {
    const origin = origins?.[p.line - 1];
    return origin ? { line: origin.line, column: origin.column ?? p.column } : { line: bodyStart + p.line - 1, column: p.column };
  };
  const placeRef = (r: LocalRef, index: number): PlacedRef => {
    const base = origins?.[r.line - 1]?.base;
    return { ...r, ...inBody(r), field: 'body', index, ...(base === undefined ? {} : { base }) };
  };
  let body: string;
  let refs: PlacedRef[] = [];
  let anchors: string[] = [];
  if (format === 'html') {
    const checked = renderHtmlBody(source.body.text);
    body = checked.html;
    reportHtml(checked.problems, file, inBody, out);
    refs = checked.refs.map(placeRef);
    anchors = checked.anchors;
  } else if (source.body.text.length > MAX_SOURCE_LENGTH) {
    out.push(diag('lesson/body-too-long', file, { line: bodyStart, column: 1 }, tooLongToRender('body', source.body.text.length)));
    return { html: '', refs, anchors: undefined };
  } else {
    const bodyPlace = { line: bodyStart, column: 1 };
    const rendered = renderChecked(source.body.text, 'body', render, file, (p) => (p === undefined ? bodyPlace : inBody(p)), out);
    if (!rendered) return { html: '', refs, anchors: undefined };
    body = rendered.html;
    reportHtml(rendered.problems, file, inBody, out);
    refs = rendered.refs.map(placeRef);
    anchors = rendered.anchors;
  }
  const bodyLength = characterCount(body);
  if (bodyLength > MAX_CONTENT_LENGTH) {
    out.push(diag('lesson/body-too-long', file, { line: bodyStart, column: 1 }, `rendered body is ${bodyLength} characters, over the limit of ${MAX_CONTENT_LENGTH}`));
  }
  return { html: body, refs, anchors };
}

type Named = LessonFrontMatter & { name: string };

function buildFields(fm: Named, body: string, source: LessonSource, yaml: ParsedYaml, render: RenderFn, refs: PlacedRef[], out: Diagnostic[]): LessonFields {
  const file = source.path;
  const type = fm.lesson_type ?? DEFAULT_LESSON_FIELDS.lesson_type;
  const video = fm.video;
  if (video && !allows(VIDEO_ONLY_ON_VIDEO, type)) {
    out.push(diag('lesson/video-not-allowed', file, yaml.placeOf(['video'], 'key'), `"video" is only for video lessons, and this is a ${type} lesson`));
  } else if (video) {
    const given = presentKeys(VIDEO_SOURCE_RULE, video);
    if (given.length !== 1) {
      const what = given.length === 0 ? 'no video source' : `${given.length} video sources (${given.join(', ')})`;
      out.push(diag('lesson/video-sources', file, yaml.placeOf(['video'], 'key'), `"video" has ${what}; it needs exactly one`));
    }
    for (const host of ['a', 'b', 'c', 'd'] as const) {
      const value = video[`host_${host}`];
      // The school stores a URL as an id and answers 422 to a URL it cannot read: say so now.
      if (value !== undefined && videoIdFromUrl(host, value) === null) {
        out.push(diag('lesson/video-url', file, yaml.placeOf(['video', `host_${host}`]), `"video.host_${host}" is neither a video id nor a supported URL of host ${host.toUpperCase()}`));
      }
    }
  }
  if (fm.embed_code !== undefined && !allows(EMBED_CODE_ONLY_ON_EMBED, type)) {
    out.push(diag('lesson/embed-code-not-allowed', file, yaml.placeOf(['embed_code'], 'key'), `"embed_code" is only for embed lessons, and this is a ${type} lesson`));
  }

  let description = '';
  if (fm.description !== undefined && fm.description.length > MAX_SOURCE_LENGTH) {
    out.push(diag('lesson/description-too-long', file, yaml.placeOf(['description']) ?? yaml.start, tooLongToRender('description', fm.description.length)));
  } else if (fm.description !== undefined && fm.description !== '') {
    const place = yaml.placeOf(['description']) ?? yaml.start;
    const rendered = renderChecked(fm.description, 'description', render, file, () => place, out) ?? { html: '', problems: [], refs: [], anchors: [] };
    description = rendered.html;
    reportHtml(rendered.problems, file, () => place, out);
    refs.push(...rendered.refs.map((r, index): PlacedRef => ({ ...r, ...place, field: 'description', index })));
    const length = characterCount(description);
    if (length > MAX_CONTENT_LENGTH) {
      out.push(diag('lesson/description-too-long', file, place, `rendered description is ${length} characters, over the limit of ${MAX_CONTENT_LENGTH}`));
    }
  }

  const isVideo = type === 'video';
  return {
    name: fm.name,
    lesson_type: type,
    drip_delay: fm.drip_delay ?? DEFAULT_LESSON_FIELDS.drip_delay,
    is_published: fm.is_published ?? DEFAULT_LESSON_FIELDS.is_published,
    is_progression_locked: fm.is_progression_locked ?? DEFAULT_LESSON_FIELDS.is_progression_locked,
    description,
    body,
    settings_embed_host_a: (isVideo && video?.host_a) || null,
    settings_embed_host_b: (isVideo && video?.host_b) || null,
    settings_embed_host_c: (isVideo && video?.host_c) || null,
    settings_embed_host_d: (isVideo && video?.host_d) || null,
    settings_embed_code: (isVideo && video?.embed_code) || null,
    embed_code: (type === 'embed' && fm.embed_code) || null,
  };
}

const HTML_CODES: Record<HtmlProblem['kind'], Code> = {
  forbidden: 'lesson/forbidden-html',
  'event-handler': 'lesson/event-handler',
  'javascript-url': 'lesson/javascript-url',
  'unknown-element': 'lesson/unknown-element',
};

/**
 * Render `text` within the budget of one lesson: nesting too deep is refused before parsing,
 * a rendering stopped over its time or memory limit is reported; both at `place`.
 */
function renderChecked(text: string, what: string, render: RenderFn, file: string, place: (p?: { line: number; column: number }) => Place, out: Diagnostic[]): RenderResult | undefined {
  const deep = findTooDeep(text);
  if (deep) {
    out.push(diag('lesson/nested-too-deep', file, place(deep), tooDeepMessage(deep, what)));
    return undefined;
  }
  const rendered = render(text);
  if (rendered.tooDeep) {
    out.push(diag('lesson/nested-too-deep', file, place(rendered.tooDeep), tooDeepMessage(rendered.tooDeep, what)));
    return undefined;
  }
  if (rendered.stopped) {
    out.push(diag('lesson/render-budget', file, place(), renderStoppedMessage(rendered.stopped, what)));
    return undefined;
  }
  return rendered;
}

function reportHtml(problems: HtmlProblem[], file: string, place: (p: HtmlProblem) => Place, out: Diagnostic[]): void {
  for (const p of problems) out.push(diag(HTML_CODES[p.kind], file, place(p), p.message));
}
