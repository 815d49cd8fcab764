/**
 * A book's table of contents, SUMMARY.md in the mdBook/GitBook format (PURE): which files are
 * lessons, in which section, in which order (docs/course-repo.md#a-book-summarymd).
 *
 * - `[Title](file.md)` outside the list: an unnumbered prefix or suffix chapter, a section of its own;
 * - `- [Title](file.md)` (or `*`, `+`) at the list's first level: a chapter, a section holding
 *   its file and every page nested under it, in order; `- [Title]()` is a draft chapter (mdBook):
 *   a section with only its nested pages;
 * - `# Title`: the first one before any chapter is the book's title, later ones are part titles,
 *   which only group; `---` separators and `<!-- comments -->` are skipped.
 *
 * Anything else is an error at its line and column, saying what SUMMARY.md allows there.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag, type Place } from './codes.js';

/** One section of the book: a chapter with its nested pages. */
export interface TocChapter {
  /** The chapter's title as plain text (backticks and backslash escapes dropped): the school section's name. */
  title: string;
  /** Where its link is in SUMMARY.md. */
  place: Place;
  /** Repo paths of its lesson files in SUMMARY order (the chapter's own file first, when it has one), each with its title there (plain text). */
  files: Array<{ path: string; place: Place; title: string }>;
  /** Its own page as SUMMARY.md links it (relative to SUMMARY.md's folder), when it has one: `sections:` may name it so. */
  page?: string;
}

const LIST_ITEM = /^(\s*)([-*+])(\s+)(.*)$/;
const HEADING = /^#{1,6}\s+(.*?)\s*#*\s*$/;
const SEPARATOR = /^(-{3,}|\*{3,}|_{3,})\s*$/;

/**
 * The chapters of the SUMMARY.md at `file` (repo path), its links resolved from its folder.
 * `dir` is that folder (the program folder); a link leaving it is an error.
 */
export function parseSummary(file: string, text: string, out: Diagnostic[]): TocChapter[] {
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  const chapters: TocChapter[] = [];
  const seen = new Map<string, number>();
  let current: TocChapter | undefined;
  let inComment = false;
  let listIndent: number | undefined;
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = i + 1;
    let rest = raw.replace(/\s+$/, '');
    if (inComment) {
      const end = rest.indexOf('-->');
      if (end < 0) return;
      inComment = false;
      rest = rest.slice(end + 3);
    }
    rest = rest.replace(/<!--.*?-->/g, '');
    const open = rest.indexOf('<!--');
    if (open >= 0) {
      inComment = true;
      rest = rest.slice(0, open);
    }
    if (rest.trim() === '' || SEPARATOR.test(rest.trim())) return;
    const heading = HEADING.exec(rest);
    if (heading) {
      // The book's title, then part titles: they group chapters, the school has no level for them.
      listIndent = undefined;
      return;
    }
    const item = LIST_ITEM.exec(rest);
    const indent = item ? width(item[1]!) : 0;
    const content = item ? item[4]! : rest.trimStart();
    const column = item ? item[1]!.length + item[2]!.length + item[3]!.length + 1 : raw.length - raw.trimStart().length + 1;
    const link = parseLink(content);
    if (!link) {
      const what = item ? 'a list item of SUMMARY.md' : 'a line of SUMMARY.md';
      out.push(diag('toc/bad-line', file, { line, column }, `${what} must be a link [Title](file.md), a # heading or a --- separator, not ${JSON.stringify(content.length > 60 ? content.slice(0, 57) + '…' : content)}`));
      return;
    }
    const place = { line, column };
    const nested = item !== undefined && listIndent !== undefined && indent > listIndent;
    if (item && listIndent === undefined) listIndent = indent;
    if (item && !nested && indent < listIndent!) listIndent = indent;
    if (!item) listIndent = undefined;
    // GitBook lists the headings of a page under it (`installation/README.md#python`): a link into
    // a page listed above is no page of its own.
    if (link.target.includes('#')) {
      const into = resolveTarget(dir, link.target);
      if (into !== undefined && seen.has(into)) return;
    }
    // A nested item follows the item that set listIndent, so a chapter is current.
    if (!nested) chapters.push((current = { title: plainTitle(link.title), place, files: [] }));
    // A draft: a chapter holding only its nested pages, or a nested placeholder (mdBook greys it out; nothing to publish).
    if (link.target === '') return;
    const path = resolveTarget(dir, link.target);
    if (path === undefined || !path.toLowerCase().endsWith('.md')) {
      const why = path === undefined ? `leaves the book's folder ${dir || '.'}` : 'is not a Markdown file (.md)';
      out.push(diag('toc/bad-target', file, { line, column: column + link.targetOffset }, `${JSON.stringify(link.target)} ${why}`));
      return;
    }
    const first = seen.get(path);
    if (first !== undefined) {
      out.push(diag('toc/duplicate-file', file, { line, column: column + link.targetOffset }, `${link.target} is already listed at line ${first}: a file is one lesson, in one place`));
      return;
    }
    seen.set(path, line);
    current!.files.push({ path, place: { line, column: column + link.targetOffset }, title: plainTitle(link.title) });
    if (!nested) current!.page = dir === '' ? path : path.slice(dir.length + 1);
  });
  return chapters;
}

/** Columns of leading whitespace (a tab counts 4, as mdBook reads it). */
function width(indent: string): number {
  let n = 0;
  for (const c of indent) n += c === '\t' ? 4 : 1;
  return n;
}

/** `[Title](target)` opening the content (text after it is ignored, as mdBook does), brackets balanced, `\]` escapes kept in the title. */
function parseLink(content: string): { title: string; target: string; targetOffset: number } | undefined {
  if (!content.startsWith('[')) return undefined;
  let depth = 0;
  let end = -1;
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '`') {
      const close = content.indexOf('`', i + 1);
      if (close > 0) i = close;
      continue;
    }
    if (c === '[') depth++;
    else if (c === ']' && --depth === 0) {
      end = i;
      break;
    }
  }
  if (end < 0 || content[end + 1] !== '(') return undefined;
  // The target ends at the parenthesis closing the one after `]`; text after it is ignored, as mdBook does.
  let close = -1;
  for (let i = end + 2, parens = 0; i < content.length; i++) {
    if (content[i] === '(') parens++;
    else if (content[i] === ')' && parens-- === 0) {
      close = i;
      break;
    }
  }
  if (close < 0) return undefined;
  const target = content.slice(end + 2, close).trim().replace(/^<(.*)>$/, '$1');
  return { title: content.slice(1, end), target, targetOffset: end + 2 };
}

/** The chapter title as a section name: code spans as their text, backslash escapes resolved. */
export function plainTitle(title: string): string {
  return title
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The repo path a SUMMARY link names (percent-decoded, fragment dropped); undefined when it leaves `dir`. */
function resolveTarget(dir: string, target: string): string | undefined {
  let t = target.replace(/#.*$/, '');
  try {
    t = decodeURIComponent(t);
  } catch {
    // Kept as written: a file may have a % in its name.
  }
  if (t.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(t)) return undefined;
  const parts = dir === '' ? [] : dir.split('/');
  const base = parts.length;
  for (const seg of t.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length <= base) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/');
}
