/**
 * A book's sections (PURE): a program with `toc:` takes its sections from the chapters of its
 * SUMMARY.md (summary-toc.ts parses it), in that order, and its lessons from the files each
 * chapter lists.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DesiredSection, SectionRef } from '../model/desired.js';
import type { SourceTree } from '../model/source-tree.js';
import { diag } from './codes.js';
import { programDefaults, siteSettings, type CompileCounts, type LessonEntry, type SectionEntry, type TocProgram } from './course-parts.js';
import { idOfEnvironment, type IdContext } from './environment-ids.js';
import { parseSummary, type TocChapter } from './summary-toc.js';
import { suggest } from './suggest.js';

/**
 * The sections of every book: one per chapter of its SUMMARY.md, named like the chapter (or
 * mapped to an id), holding the chapter's files in order. Returns lesson file → section key.
 */
export function compileTocs(source: SourceTree, tocs: ReadonlyMap<string, TocProgram>, sections: Map<string, SectionEntry>, counts: CompileCounts, out: Diagnostic[], env: IdContext): Map<string, string> {
  const sectionOf = new Map<string, string>();
  if (tocs.size === 0) return sectionOf; // no book: no map of every lesson to make
  const lessons = new Map(source.lessons.map((l) => [l.path, l]));
  // What names each school section already: `id:<id>` across the repo (section folders first), `name:<SUMMARY.md>:<title>` in a book.
  const taken = new Map<string, Claim>();
  for (const [folder, entry] of sections) if (entry.section && 'id' in entry.section.ref) taken.set(`id:${entry.section.ref.id}`, { folder });
  for (const [dir, toc] of tocs) {
    const summary = lessons.get(toc.summary);
    // A file the reader refused (too large, unreadable, not UTF-8) is reported as such already: not "no file".
    if (!summary && source.diagnostics.some((d) => d.file === toc.summary && d.severity === 'error')) continue;
    if (!summary) {
      out.push(diag('toc/not-found', toc.file, toc.yaml.placeOf(['toc']), `no file ${toc.summary} in the repo`, suggestFile(toc.summary, [...lessons.keys()].filter((p) => p.startsWith(dir === '' ? '' : `${dir}/`)))));
      continue;
    }
    const chapters = parseSummary(summary.path, summary.text, out);
    for (const chapter of chapters) {
      counts.sections++;
      const where = { file: summary.path, ...chapter.place };
      const files = chapter.files.filter((f) => {
        if (lessons.has(f.path)) return true;
        const near = suggestFile(f.path, [...lessons.keys()]);
        out.push(diag('toc/missing-file', summary.path, f.place, `no file ${f.path} in the repo`, near));
        return false;
      });
      // A chapter's own page names it in `sections:` before its title does: titles repeat (a "Welcome" per part).
      const mapKey = chapter.page !== undefined && Object.hasOwn(toc.ids, chapter.page) ? chapter.page : Object.hasOwn(toc.ids, chapter.title) ? chapter.title : undefined;
      // An id map with an error is reported; the chapter still holds its files (none is said to be unlisted).
      const id = mapKey === undefined ? undefined : idOfEnvironment(toc.ids[mapKey]!, env, toc.file, toc.yaml, 'section', out, ['sections', mapKey]);
      const ref: SectionRef = id !== undefined ? { id } : { name: chapter.title };
      const refKey = 'id' in ref ? `id:${ref.id}` : `name:${summary.path}:${ref.name}`;
      const first = taken.get(refKey);
      // Reported, and the chapter kept as a section all the same: its pages stay lessons (no link to them is said to
      // leave the book), and the error stops the plan before two chapters could share one school section.
      if (first) out.push(duplicateChapter(summary.path, chapter, first, ref, toc.file));
      else taken.set(refKey, { chapter, summary: summary.path });
      const key = chapter.files[0]?.path ?? `${summary.path}:${chapter.place.line}`;
      const section: DesiredSection = { path: key, ref, lessons: [], toc: where };
      const titles = new Map(files.filter((f) => f.title.trim() !== '').map((f) => [f.path, f.title]));
      const entry: SectionEntry = { section, tocOrder: files.map((f) => f.path), tocTitles: titles, defaults: { ...programDefaults.get(toc.program) } };
      const site = siteSettings(toc.program);
      if (site !== undefined) entry.site = site;
      sections.set(key, entry);
      toc.program.sections.push(section);
      for (const f of files) sectionOf.set(f.path, key);
    }
    const known = new Set(chapters.flatMap((c) => (c.page === undefined ? [c.title] : [c.title, c.page])));
    for (const title of Object.keys(toc.ids)) {
      if (known.has(title)) continue;
      const near = suggest(title, [...known]);
      out.push(diag('toc/unknown-chapter', toc.file, toc.yaml.placeOf(['sections', title], 'key'), `"${title}" is not the title or page of a chapter of ${toc.summary}`, near ? `did you mean "${near}"?` : undefined));
    }
  }
  return sectionOf;
}

/** A chapter's lessons in SUMMARY.md order. */
export function inTocOrder(lessons: LessonEntry[], order: readonly string[]): LessonEntry[] {
  const index = new Map(order.map((p, i) => [p, i]));
  return [...lessons].sort((a, b) => index.get(a.source.path)! - index.get(b.source.path)!);
}

/** What names a school section first: a section folder, or a chapter of a SUMMARY.md. */
type Claim = { folder: string; chapter?: undefined; summary?: undefined } | { chapter: TocChapter; summary: string; folder?: undefined };

/** A chapter that would be one school section with another (one title in one book) or with anything (one id). */
function duplicateChapter(summary: string, chapter: TocChapter, first: Claim, ref: SectionRef, programFile: string): Diagnostic {
  if ('id' in ref) {
    const other = first.folder !== undefined ? `the section folder ${first.folder || '.'}` : first.summary === summary ? `the chapter at line ${first.chapter.place.line}` : `the chapter at ${first.summary}:${first.chapter.place.line}`;
    return diag('repo/duplicate-section', summary, chapter.place, `chapter "${chapter.title}" is mapped to section id "${ref.id}", as is ${other}, so both would be one section`, `map each chapter to its own section id under \`sections:\` in ${programFile}`);
  }
  const byPage = [first.chapter!, chapter].flatMap((c) => (c.page === undefined ? [] : [`${c.page}: <section id>`]));
  const hint = byPage.length > 0 ? `give one of them another title, or map each to its section id by its page under \`sections:\` in ${programFile} (${byPage.join(', ')})` : `give one of them another title`;
  return diag('repo/duplicate-section', summary, chapter.place, `chapter "${chapter.title}" has the same title as the chapter at line ${first.chapter!.place.line}, so both would be one section`, hint);
}

function suggestFile(path: string, files: string[]): string | undefined {
  const near = suggest(path, files);
  return near ? `did you mean ${near}?` : undefined;
}
