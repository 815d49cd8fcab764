/** The composer: read a course repo from disk and compile it (I/O at the edge, then PURE). */
import { compileCourse, frameCourse, type CompileResult, type CourseFrame } from '../compile/index.js';
import { lessonCandidates, refTarget } from '../compile/resolve-refs.js';
import type { LessonSource, SourceTree } from '../model/source-tree.js';
import { createCachedCompile, lessonCacheKey, type CachedLesson } from '../compile/lesson-cache.js';
import { createCachedRender, renderDigest } from '../compile/render-cache.js';
import type { RenderResult } from '../compile/render.js';
import type { RenderFn } from '../compile/compile-lesson.js';
import { readSource } from '../source/read-source.js';
import { renderMissingBodies } from './render-bodies.js';
import { compilerDigest } from './compiler-id.js';
import { readLessonCache, writeLessonCache } from './lesson-cache-file.js';
import { readRenderCache, writeRenderCache } from './render-cache-file.js';
import { defaultRenderThreads } from './render-pool.js';
import type { KnownLessons } from '../compile/compile-course.js';

/** Up to this many changed lesson files are rendered without reading the render cache (see loadCourse). */
const FEW_CHANGED = 32;

export interface LoadCourseOptions {
  /**
   * Reuse what earlier runs kept under `.coursesync/cache/` and keep this run's (default
   * false): lessons compiled cleanly, by path and file digest (lessons.json), and renderings
   * by content digest (render.json), and the stat index (stat-index.json). Unchanged files are
   * then not read, parsed or rendered.
   */
  cache?: boolean;
  /** Threads rendering the lesson bodies not cached; default every core, 1 = this thread only. */
  renderThreads?: number;
  /** Lessons the state knows (compile/known-lessons.ts): those still unchanged are not read, parsed or rendered. */
  known?: KnownLessons;
  /** What renders, on this thread, a text compile needs that was not rendered ahead (default renderMarkdown). */
  render?: RenderFn;
  /** The environment compiled for (`--env`): its settings and ids (docs/environments.md). */
  environment?: string | undefined;
}

/**
 * Read and compile the course repo at `dir`, coursesync.yaml included (its problems are
 * diagnostics). Throws a CoursesyncError only when `dir` itself cannot be read.
 */
export async function loadCourse(dir: string, options: LoadCourseOptions = {}): Promise<CompileResult> {
  const source = await readSource(dir, { statIndex: options.cache === true });
  const threads = options.renderThreads ?? defaultRenderThreads();
  // What compile will compile is rendered ahead, on every core: not the lessons the state knows
  // unchanged (file, settings and references), not Markdown outside sections (READMEs).
  const frame = frameCourse(source, options.known, options.environment);
  const toRender = frame.toCompile;
  const maybeKnown = options.known?.lessons;
  if (!options.cache) {
    const rendered = await renderAhead(source, frame, toRender, new Map(), threads, () => true);
    return compileCourse(source, { render: createCachedRender(rendered.entries, options.render, rendered.digests).render, frame, environment: options.environment });
  }
  // Unchanged files come compiled from the lesson cache; only the others are rendered (bodies
  // on every core first) and compiled.
  const compiler = await compilerDigest();
  // When the state answers for all but a few lessons, those few compile faster than the lesson
  // cache (tens of MB at 10,000 lessons) is read, and with less memory: the cache is left as it is.
  const stateAnswers = maybeKnown !== undefined && maybeKnown.size > 0 && toRender.length <= FEW_CHANGED;
  const storedLessons = stateAnswers ? new Map<string, CachedLesson>() : await readLessonCache(dir, compiler);
  // A key may end with the lesson defaults; path and bytes (and expanded text) are what say a file is unchanged.
  const storedFiles = new Set([...storedLessons.keys()].map((k) => k.replace(/\0\{[^]*$/, '')));
  const fresh = toRender.filter((l) => !storedFiles.has(lessonCacheKey(l)));
  // When the lesson cache answers for all but a few files, those few render faster than the
  // render cache (tens of MB) is read, and with less memory: it is read and rewritten only
  // when more changed, or when there is no lesson cache (first run, new compiler).
  const useRenders = fresh.length > FEW_CHANGED || (storedLessons.size === 0 && !stateAnswers);
  const storedRenders = useRenders ? await readRenderCache(dir, compiler) : new Map<string, RenderResult>();
  const rendered = await renderAhead(source, frame, fresh, storedRenders, threads, (l) => !storedFiles.has(lessonCacheKey(l)));
  const renders = createCachedRender(rendered.entries, options.render, rendered.digests);
  const lessons = createCachedCompile(storedLessons);
  const result = compileCourse(source, { render: renders.render, compileLesson: lessons.compileLesson, frame, environment: options.environment });
  // Lessons the state knew unchanged keep their cache entries.
  const unchanged = new Set(result.unchanged);
  for (const [key, entry] of storedLessons) if (unchanged.has(key.slice(0, key.indexOf('\0'))) && !lessons.used.has(key)) lessons.used.set(key, entry);
  if (!stateAnswers && changed(lessons.used, storedLessons)) await writeLessonCache(dir, compiler, lessons.used);
  if (useRenders) {
    // Keep the renderings of every body still in the repo (should the lesson cache be dropped
    // or damaged, or the state answer no more, nothing unchanged is rendered again), plus this run's.
    const keep = new Map(renders.used);
    for (const lesson of source.lessons) {
      if (unchanged.has(lesson.path)) continue; // never read
      const digest = rendered.digests.get(lesson.body.text) ?? renderDigest(lesson.body.text);
      const entry = storedRenders.get(digest);
      if (entry && !keep.has(digest)) keep.set(digest, entry);
    }
    if (changed(keep, storedRenders)) await writeRenderCache(dir, compiler, keep);
  }
  return result;
}

/**
 * Render `lessons` on every core, then the lessons known unchanged (and `uncached`: not in the
 * lesson cache) whose anchors one of them needs by a link to a #fragment: compile would
 * otherwise render each of those on demand, on this thread.
 */
async function renderAhead(
  source: SourceTree,
  frame: CourseFrame,
  lessons: LessonSource[],
  stored: ReadonlyMap<string, RenderResult>,
  threads: number,
  uncached: (lesson: LessonSource) => boolean,
): Promise<{ entries: Map<string, RenderResult>; digests: Map<string, string> }> {
  const first = await renderMissingBodies({ ...source, lessons }, stored, threads);
  const targets = new Map<string, LessonSource>();
  for (const lesson of lessons) {
    const digest = first.digests.get(lesson.body.text);
    for (const ref of (digest === undefined ? undefined : first.entries.get(digest))?.refs ?? []) {
      const { target, fragment } = ref.image ? { target: undefined, fragment: undefined } : refTarget(lesson.path, ref.url);
      if (!target || !fragment) continue;
      for (const path of lessonCandidates(target)) {
        const known = frame.known.get(path)?.source;
        if (known && uncached(known)) targets.set(path, frame.expand(known));
      }
    }
  }
  if (targets.size === 0) return first;
  const second = await renderMissingBodies({ ...source, lessons: [...targets.values()] }, first.entries, threads);
  return { entries: second.entries, digests: new Map([...first.digests, ...second.digests]) };
}

/** Whether `now` holds other keys than `before`. */
function changed(now: ReadonlyMap<string, unknown>, before: ReadonlyMap<string, unknown>): boolean {
  return now.size !== before.size || [...now.keys()].some((k) => !before.has(k));
}
