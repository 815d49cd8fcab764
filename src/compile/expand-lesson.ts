/**
 * A lesson as it compiles (PURE): its body with `{{#include}}`s and template tags expanded (expand-includes.ts),
 * then `{{ vars.name }}` replaced in body and front-matter (substitute-vars.ts), and what
 * another tool's template would have run reported (template-expressions.ts). A lesson with
 * nothing to expand is returned as it is. The expanded lesson keeps its path and file digest;
 * what it took in is in `expanded` (its cache key and state digest cover it).
 */
import { createHash } from 'node:crypto';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Vars } from '../model/config.js';
import type { LessonSource, LineOrigin } from '../model/source-tree.js';
import type { Place } from './codes.js';
import { codeRanges, type CodeRanges } from './code-ranges.js';
import { expandIncludes, type IncludeFiles } from './expand-includes.js';
import { substituteVars } from './substitute-vars.js';
import { warnTemplateExpressions } from './template-expressions.js';

/** Files under a `_partials/` folder or named `_*.md` are included, never lessons. */
export function isPartial(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (name.startsWith('_') && name.toLowerCase().endsWith('.md')) || `/${path}`.includes('/_partials/');
}

/**
 * `lesson` with its includes and variables expanded; problems go to `out` at their places.
 * `templateRoot`: the folder a template include's `/…` starts from (its program's).
 */
export function expandLesson(lesson: LessonSource, files: IncludeFiles, vars: Vars, out: Diagnostic[], templateRoot = ''): LessonSource {
  const body = lesson.body;
  const frontMatter = lesson.frontMatter;
  if (!body.text.includes('{{') && !body.text.includes('{%') && !frontMatter?.text.includes('{{')) return lesson;
  const start = out.length;
  const included = expandIncludes(lesson.path, body.text, body.line, files, out, templateRoot);
  const used = new Map<string, string>();
  // Line by line, so a value holding line breaks keeps every later line at its origin.
  const origins: LineOrigin[] = [];
  let code: CodeRanges | undefined;
  let lineStart = 0;
  const bodyText = included.text
    .split('\n')
    .map((line, i) => {
      const origin = included.origins[i] ?? { line: body.line };
      const placeOf = placeIn(lesson.path, line, () => origin);
      if (line.includes('{{')) warnTemplateExpressions(line, lineStart, (code ??= codeRanges(included.text)), placeOf, out);
      lineStart += line.length + 1;
      const replaced = substituteVars(line, vars, placeOf, used, out);
      for (let n = replaced.split('\n').length; n > 0; n--) origins.push(origin);
      return replaced;
    })
    .join('\n');
  const fmText = frontMatter ? substituteVars(frontMatter.text, vars, placeIn(lesson.path, frontMatter.text, (i) => ({ line: frontMatter.line + i })), used, out) : undefined;
  if (included.includes.length === 0 && used.size === 0 && bodyText === body.text && fmText === frontMatter?.text) return lesson;
  const digest = createHash('sha256').update(`${fmText ?? ''}\0${bodyText}`).digest('hex');
  return {
    path: lesson.path,
    digest: lesson.digest,
    get text() {
      return lesson.text;
    },
    frontMatter: frontMatter && fmText !== undefined ? { ...frontMatter, text: fmText } : frontMatter,
    frontMatterUnclosed: lesson.frontMatterUnclosed,
    body: { text: bodyText, line: body.line },
    expanded: {
      origins,
      includes: included.includes,
      vars: [...used].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, value]) => ({ name, value })),
      digest,
      onIncludes: out.slice(start).filter((d) => d.file !== lesson.path),
    },
  };
}

/** Where an offset of `text` was written in the lesson `file`, given each line's origin. */
function placeIn(file: string, text: string, originOf: (line: number) => LineOrigin): (offset: number) => { file: string; place: Place } {
  return (offset) => {
    const before = text.slice(0, offset);
    const index = before.split('\n').length - 1;
    const origin = originOf(index);
    return { file, place: { line: origin.line, column: origin.column ?? offset - before.lastIndexOf('\n') } };
  };
}
