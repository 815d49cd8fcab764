/**
 * Compiling lessons by file digest (PURE): a compileLesson that answers from known results
 * for a file whose path and bytes are unchanged, so a plan of an unchanged repo parses no YAML
 * and renders nothing. Only lessons that compiled without any diagnostic are kept, so a cached
 * answer never hides a message. Storage is the caller's (load/lesson-cache-file.ts), and so
 * is making sure an entry was made by this very compiler (its key includes the code's digest).
 */
import type { LessonFields } from '../model/desired.js';
import type { Inherited } from '../model/lesson.js';
import type { LessonSource } from '../model/source-tree.js';
import { compileLesson, type CompiledLesson, type LessonIdentity, type PlacedRef } from './compile-lesson.js';

/** A lesson that compiled cleanly: all compile needs to use it again. */
export interface CachedLesson {
  identity: LessonIdentity;
  fields: LessonFields;
  copied_from?: string;
  acknowledge?: string[];
  refs: PlacedRef[];
  anchors: string[];
}

/**
 * The cache key of a lesson file: its path (the key may come from the file name), its bytes and
 * what it inherits (course-parts.ts `Inherited`: defaults, keys left to other tools, a book
 * page's title). What follows path and bytes starts with `\0{` (load-course.ts `recall` drops it
 * to tell a file is stored).
 */
export function lessonCacheKey(source: Pick<LessonSource, 'path' | 'digest' | 'expanded'>, defaults: Inherited = {}): string {
  const inherited = Object.keys(defaults).length === 0 ? '' : `\0${JSON.stringify(defaults, Object.keys(defaults).sort())}`;
  // An expanded lesson compiles from its expanded text: an edited include is another entry.
  const expanded = source.expanded ? `\0${source.expanded.digest}` : '';
  return `${source.path}\0${source.digest}${expanded}${inherited}`;
}

export interface CachedCompile {
  /** Use as compileCourse's `compileLesson`. */
  compileLesson: typeof compileLesson;
  /** Key → lesson for every clean lesson of this run: what is worth keeping. */
  used: Map<string, CachedLesson>;
  readonly hits: number;
  readonly misses: number;
}

/** A compileLesson that answers unchanged clean files from `entries` and compiles the rest. */
export function createCachedCompile(entries: ReadonlyMap<string, CachedLesson>, compile: typeof compileLesson = compileLesson): CachedCompile {
  const used = new Map<string, CachedLesson>();
  const counts = { hits: 0, misses: 0 };
  const cached: typeof compileLesson = (source, out, render, defaults) => {
    const key = lessonCacheKey(source, defaults);
    const hit = entries.get(key);
    if (hit) {
      counts.hits++;
      used.set(key, hit);
      return hit;
    }
    counts.misses++;
    const before = out.length;
    const compiled: CompiledLesson = compile(source, out, render, defaults);
    if (out.length === before && compiled.identity && compiled.fields) {
      const entry: CachedLesson = { identity: compiled.identity, fields: compiled.fields, refs: compiled.refs ?? [], anchors: compiled.anchors ?? [] };
      if (compiled.copied_from !== undefined) entry.copied_from = compiled.copied_from;
      if (compiled.acknowledge !== undefined) entry.acknowledge = compiled.acknowledge;
      used.set(key, entry);
    }
    return compiled;
  };
  return {
    compileLesson: cached,
    used,
    get hits() {
      return counts.hits;
    },
    get misses() {
      return counts.misses;
    },
  };
}
