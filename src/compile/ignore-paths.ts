/**
 * `ignore:` of coursesync.yaml (PURE): .gitignore patterns (the `ignore` library, as git reads
 * them) that take files out of the course before anything is compiled: READMEs, drafts,
 * translations. An ignored file is not a lesson, program or section, and is never published; a
 * link to it goes to its page in the repo under `repo_url:` (resolve-refs.ts), else is an error.
 */
import ignore from 'ignore';
import type { SourceTree } from '../model/source-tree.js';

/** The tree without the files `patterns` ignore (the same tree when there are none). */
export function applyIgnore(source: SourceTree, patterns: readonly string[]): SourceTree {
  if (patterns.length === 0) return source;
  const matcher = ignore().add([...patterns]);
  const keep = (p: { path: string }) => !matcher.ignores(p.path);
  const linkIgnored = (path: string) => {
    const real = source.linked?.get(path);
    return real !== undefined && matcher.ignores(real);
  };
  const tree: SourceTree = {
    ...source,
    programs: source.programs.filter(keep),
    sections: source.sections.filter(keep),
    lessons: source.lessons.filter(keep),
  };
  if (source.files) tree.files = new Map([...source.files].filter(([path]) => !matcher.ignores(path) && !linkIgnored(path)));
  // A link to an ignored file (or into an ignored folder) would publish what `ignore:` leaves out.
  const refused = new Map(source.refused ?? []);
  for (const [path, real] of source.linked ?? []) if (linkIgnored(path) && !matcher.ignores(path)) refused.set(path, { kind: 'link', real, why: 'ignored' });
  if (refused.size > 0) tree.refused = refused;
  return tree;
}

/**
 * The indexes of `patterns` that match none of `paths` (a typo, or a file since moved). A
 * negation or comment matches nothing by itself, and a pattern for a hidden name or
 * node_modules is about files the repo walk never lists: neither is reported.
 */
export function unmatchedPatterns(patterns: readonly string[], paths: readonly string[]): number[] {
  const unmatched: number[] = [];
  patterns.forEach((pattern, i) => {
    const p = pattern.trim();
    if (p === '' || p.startsWith('!') || p.startsWith('#') || /(^|\/)\.|node_modules/.test(p)) return;
    const matcher = ignore().add(pattern);
    if (!paths.some((path) => matcher.ignores(path))) unmatched.push(i);
  });
  return unmatched;
}
