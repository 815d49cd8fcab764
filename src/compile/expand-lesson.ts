/**
 * A lesson as it compiles (PURE): its body with `{{#include}}`s expanded (expand-includes.ts).
 * A lesson with nothing to expand is returned as it is. The expanded lesson keeps its path and
 * file digest; what it took in is in `expanded` (its cache key and state digest cover it).
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LessonSource } from '../model/source-tree.js';
import { expandIncludes, type IncludeFiles } from './expand-includes.js';

/** Files under a `_partials/` folder or named `_*.md` are included, never lessons. */
export function isPartial(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (name.startsWith('_') && name.toLowerCase().endsWith('.md')) || `/${path}`.includes('/_partials/');
}

/** `lesson` with its includes expanded; problems go to `out` at their places. */
export function expandLesson(lesson: LessonSource, files: IncludeFiles, out: Diagnostic[]): LessonSource {
  const body = lesson.body;
  if (!body.text.includes('{{')) return lesson;
  const expanded = expandIncludes(lesson.path, body.text, body.line, files, out);
  if (expanded.includes.length === 0 && expanded.text === body.text) return lesson;
  const frontMatter = lesson.frontMatter;
  const digest = createHash('sha256').update(`${frontMatter?.text ?? ''}\0${expanded.text}`).digest('hex');
  return {
    path: lesson.path,
    digest: lesson.digest,
    get text() {
      return lesson.text;
    },
    frontMatter,
    frontMatterUnclosed: lesson.frontMatterUnclosed,
    body: { text: expanded.text, line: body.line },
    expanded: { origins: expanded.origins, includes: expanded.includes, vars: [], digest },
  };
}
