/**
 * Lesson identity and order across the repo (PURE): keys (and aliases) unique in the whole
 * repo, and each section's order from its `lessons:` list or by natural file-name order.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag, type Place } from './codes.js';
import type { LessonEntry, LessonOrder } from './course-parts.js';
import { compareNatural } from './natural-order.js';
import { suggest } from './suggest.js';
import { fileKey } from './lesson-keys.js';

/** Report every key or alias used by more than one lesson, at each later use, naming the first. */
export function checkDuplicateKeys(lessons: readonly LessonEntry[], out: Diagnostic[]): void {
  const first = new Map<string, string>();
  const use = (path: string, key: string, place: Place | undefined, alias: boolean) => {
    const seen = first.get(key);
    if (seen === undefined) first.set(key, path);
    else out.push(diag('repo/duplicate-key', path, place, `${alias ? `alias "${key}"` : `key "${key}"`} is also used by ${seen}`));
  };
  // Made for every lesson of every plan: no object for a lesson without aliases (nearly all).
  for (const { source, compiled } of lessons) {
    const id = compiled.identity;
    if (!id) continue;
    use(source.path, id.key, id.keyPlace, false);
    if (id.aliases.length === 0) continue;
    // A key the lesson itself used already (its key, an earlier alias) is said once.
    const said = new Set([id.key]);
    for (const { key, place } of id.aliases) {
      if (said.has(key)) continue;
      said.add(key);
      use(source.path, key, place, true);
    }
  }
}

/**
 * The lessons of one section in their desired order: README.md or index.md first, then natural
 * file-name order. With a `lessons:` list, it must name every lesson of the folder exactly once
 * (by key, or by its file name's key); lessons it misses keep file order, after the listed ones.
 */
export function orderLessons(dir: string, lessons: LessonEntry[], order: LessonOrder | undefined, out: Diagnostic[]): LessonEntry[] {
  // Each lesson's file name and whether it opens the section, taken once (not twice per comparison).
  const byFile = lessons
    .map((lesson) => ({ lesson, name: fileName(lesson), index: isIndex(lesson) }))
    .sort((a, b) => Number(b.index) - Number(a.index) || compareNatural(a.name, b.name))
    .map((l) => l.lesson);
  if (!order) return byFile;
  const file = `${dir}/section.yaml`;
  const byKey = new Map<string, LessonEntry>();
  for (const l of byFile) if (l.compiled.identity) byKey.set(l.compiled.identity.key, l);
  // In its own folder a lesson may also be listed by its file name's key (`homework`, not `basics.homework`).
  for (const l of byFile) if (l.compiled.identity && !byKey.has(fileKey(l.source.path))) byKey.set(fileKey(l.source.path), l);
  const listed: LessonEntry[] = [];
  const listedSet = new Set<LessonEntry>();
  const seen = new Set<string>();
  // What a key listed by mistake may have meant: the lessons' keys the list does not name (made once, not once a key).
  let unlisted: string[] | undefined;
  order.keys.forEach((key, i) => {
    const place = order.yaml.placeOf(['lessons', i]);
    if (seen.has(key)) {
      out.push(diag('section/lessons-list-duplicate', file, place, `"${key}" is listed more than once in lessons`));
      return;
    }
    seen.add(key);
    const lesson = byKey.get(key);
    if (lesson && listedSet.has(lesson)) {
      out.push(diag('section/lessons-list-duplicate', file, place, `"${key}" is listed more than once in lessons (as another of its keys)`));
      return;
    }
    if (!lesson) {
      unlisted ??= ((names) => [...byKey.keys()].filter((k) => !names.has(k)))(new Set(order.keys));
      const guess = suggest(key, unlisted);
      out.push(diag('section/lessons-list-unknown', file, place, `"${key}" in lessons is not a lesson of this folder`, guess ? `did you mean "${guess}"?` : undefined));
      return;
    }
    listed.push(lesson);
    listedSet.add(lesson);
  });
  const missing = byFile.filter((l) => l.compiled.identity && !listedSet.has(l));
  for (const l of missing) {
    out.push(diag('section/lessons-list-missing', file, order.yaml.placeOf(['lessons'], 'key'), `lessons does not list "${l.compiled.identity?.key}" (${l.source.path})`));
  }
  return [...listed, ...missing, ...byFile.filter((l) => !l.compiled.identity)];
}

/** A folder's README.md or index.md opens its section, as on GitHub and in static-site generators. */
function isIndex(l: LessonEntry): boolean {
  return /^(readme|index)\.md$/i.test(fileName(l));
}

function fileName(l: LessonEntry): string {
  return l.source.path.slice(l.source.path.lastIndexOf('/') + 1);
}
