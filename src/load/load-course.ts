/**
 * The load path, in order: read the repo (source/: files and digests) → recall what the memo
 * (`.coursesync/cache/`, keyed by input digests and tagged with the compiler id) and the state
 * answer → render the rest ahead on every core → compile (PURE) → keep this run's answers.
 * The reader never calls the compiler; this composer is the only place that joins them.
 */
import { compileCourse, frameCourse, type CompileResult, type CourseFrame, type KnownLessons } from '../compile/compile-course.js';
import type { RenderFn } from '../compile/compile-lesson.js';
import { sitePathOf } from '../compile/course-parts.js';
import { createCachedCompile, lessonCacheKey, type CachedLesson } from '../compile/lesson-cache.js';
import { RendererNotLoaded } from '../compile/markdown-renderer.js';
import { createCachedRender, renderDigest } from '../compile/render-cache.js';
import type { RenderResult } from '../compile/rendered-html.js';
import { lessonCandidates, refTarget } from '../compile/resolve-refs.js';
import type { LessonSource, SourceTree } from '../model/source-tree.js';
import { readSource } from '../source/read-source.js';
import { compilerDigest } from './compiler-id.js';
import { readLessonCache, writeLessonCache } from './lesson-cache-file.js';
import { renderMissingBodies } from './render-bodies.js';
import { readRenderCache, writeRenderCache } from './render-cache-file.js';
import { defaultRenderThreads, type SlowSpent } from './render-pool.js';
import { timing } from './timing.js';

/** Up to this many changed lesson files are rendered without reading the render cache (see recall). */
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
  /** The repo already read (readSource, with the stat index when `cache` is on): it is not read again. */
  source?: SourceTree | undefined;
}

/** What the memo answers before the compile: compiled lessons, renderings, and what is left to render. */
interface Recalled {
  /** The compiler id the memo's files are tagged with; undefined without the cache. */
  compiler?: string;
  lessons: Map<string, CachedLesson>;
  renders: Map<string, RenderResult>;
  /** Whether render.json was read (and so is to be kept). */
  rendersRead: boolean;
  /** Whether lessons.json was left unread (the state answers for all but a few): it is then not rewritten. */
  stateAnswers: boolean;
  /** The lessons compile will compile that the memo does not answer: what to render ahead. */
  fresh: LessonSource[];
  /** Whether a lesson's file is answered by the memo (whatever settings it inherits). */
  stored: (lesson: LessonSource) => boolean;
}

/** A compiled course and what the load knows of its files. */
export interface LoadedCourse extends CompileResult {
  /** The text of a lesson file this load read, when it is the file's very bytes (SourceTree.verbatimText). */
  verbatimText: (path: string) => string | undefined;
}

/**
 * Read and compile the course repo at `dir`, coursesync.yaml included (its problems are
 * diagnostics). Throws a CoursesyncError only when `dir` itself cannot be read.
 */
export async function loadCourse(dir: string, options: LoadCourseOptions = {}): Promise<LoadedCourse> {
  const source = options.source ?? (await readSource(dir, { statIndex: options.cache === true }));
  // Not the lessons the state knows unchanged (file, settings and references), not Markdown outside sections (READMEs).
  const frame = frameCourse(source, options.known, options.environment);
  timing('compile: framed (known lessons checked)');
  const recalled = options.cache ? await recall(dir, frame, options.known) : nothingRecalled(frame);
  const rendered = await renderAhead(source, frame, recalled, options.renderThreads ?? defaultRenderThreads());
  timing('compile: rendered ahead');
  const compiled = await compileWithRenderer(source, frame, recalled, rendered, options);
  timing('compile: compiled');
  if (options.cache) await keep(dir, source, recalled, rendered, compiled);
  return { ...compiled.result, verbatimText: (path) => source.verbatimText?.(path) };
}

/** Without the cache nothing is recalled: every lesson compile compiles is rendered ahead. */
function nothingRecalled(frame: CourseFrame): Recalled {
  return { lessons: new Map(), renders: new Map(), rendersRead: false, stateAnswers: false, fresh: frame.toCompile, stored: () => false };
}

/**
 * What the memo answers. When the state answers for all but a few lessons, those few compile
 * faster than lessons.json (tens of MB at 10,000 lessons) is read, and with less memory: it is
 * left unread. When the lesson cache answers all but a few, render.json is left unread too; it
 * is read when more changed, or when there is no lesson cache (first run, new compiler).
 */
async function recall(dir: string, frame: CourseFrame, known: KnownLessons | undefined): Promise<Recalled> {
  const compiler = await compilerDigest();
  const toCompile = frame.toCompile;
  const stateAnswers = known !== undefined && known.lessons.size > 0 && toCompile.length <= FEW_CHANGED;
  const lessons = stateAnswers ? new Map<string, CachedLesson>() : await readLessonCache(dir, compiler);
  // A key may end with the lesson defaults; path and bytes (and expanded text) are what say a file is unchanged.
  const files = new Set([...lessons.keys()].map((k) => k.replace(/\0\{[^]*$/, '')));
  const stored = (lesson: LessonSource) => files.has(lessonCacheKey(lesson));
  const fresh = toCompile.filter((l) => !stored(l));
  const rendersRead = fresh.length > FEW_CHANGED || (lessons.size === 0 && !stateAnswers);
  const renders = rendersRead ? await readRenderCache(dir, compiler) : new Map<string, RenderResult>();
  return { compiler, lessons, renders, rendersRead, stateAnswers, fresh, stored };
}

interface Rendered {
  entries: Map<string, RenderResult>;
  /** Text → its digest, for the texts hashed on the way. */
  digests: Map<string, string>;
}

/**
 * Render the fresh lessons on every core, then the lessons known unchanged (and not in the
 * lesson cache) whose anchors one of them needs by a link to a #fragment: compile would
 * otherwise render each of those on demand, on this thread.
 */
async function renderAhead(source: SourceTree, frame: CourseFrame, recalled: Recalled, threads: number): Promise<Rendered> {
  const spent: SlowSpent = { ms: 0 }; // one budget for slow renderings across both calls
  const first = await renderMissingBodies({ ...source, lessons: recalled.fresh }, recalled.renders, threads, { spent });
  const targets = new Map<string, LessonSource>();
  const sitePath = sitePathOf(frame.programs);
  for (const lesson of recalled.fresh) {
    const digest = first.digests.get(lesson.body.text);
    for (const ref of (digest === undefined ? undefined : first.entries.get(digest))?.refs ?? []) {
      const { target, fragment } = ref.image ? { target: undefined, fragment: undefined } : refTarget(lesson.path, ref.url, (address) => sitePath(lesson.path, address));
      if (!target || !fragment) continue;
      for (const path of lessonCandidates(target)) {
        const known = frame.known.get(path)?.source;
        if (known && !recalled.stored(known)) targets.set(path, frame.expand(known));
      }
    }
  }
  if (targets.size === 0) return first;
  const second = await renderMissingBodies({ ...source, lessons: [...targets.values()] }, first.entries, threads, { spent });
  return { entries: second.entries, digests: new Map([...first.digests, ...second.digests]) };
}

interface Compiled {
  result: CompileResult;
  /** Key → lesson of every clean lesson compiled or recalled: lessons.json's next entries. */
  lessons: Map<string, CachedLesson>;
  /** Digest → rendering of every text rendered or looked up. */
  renders: Map<string, RenderResult>;
}

/**
 * Compile with the memo's answers and the renderings made ahead. The renderer (remark,
 * micromark) is not loaded on this thread unless something renders here: should compile ask
 * for a text nobody rendered ahead (a lesson the memo was expected to answer, compiled after
 * all), the renderer is loaded and the course compiled again, from a new frame.
 */
async function compileWithRenderer(source: SourceTree, frame: CourseFrame, recalled: Recalled, rendered: Rendered, options: LoadCourseOptions): Promise<Compiled> {
  const attempt = (framed: CourseFrame | undefined): Compiled => {
    const renders = createCachedRender(rendered.entries, options.render, rendered.digests);
    const lessons = createCachedCompile(recalled.lessons);
    const result = compileCourse(source, { render: renders.render, compileLesson: lessons.compileLesson, frame: framed, known: options.known, environment: options.environment });
    return { result, lessons: lessons.used, renders: renders.used };
  };
  try {
    return attempt(frame);
  } catch (e) {
    if (!(e instanceof RendererNotLoaded)) throw e;
    await import('../compile/render.js');
    return attempt(undefined);
  }
}

/** Write this run's answers back to the memo, when they differ from what was read. */
async function keep(dir: string, source: SourceTree, recalled: Recalled, rendered: Rendered, compiled: Compiled): Promise<void> {
  const compiler = recalled.compiler!;
  // Lessons the state knew unchanged keep their cache entries.
  const unchanged = new Set(compiled.result.unchanged);
  const lessons = compiled.lessons;
  for (const [key, entry] of recalled.lessons) if (unchanged.has(key.slice(0, key.indexOf('\0'))) && !lessons.has(key)) lessons.set(key, entry);
  if (!recalled.stateAnswers && changed(lessons, recalled.lessons)) await writeLessonCache(dir, compiler, lessons);
  if (!recalled.rendersRead) return;
  // Keep the renderings of every body still in the repo (should the lesson cache be dropped
  // or damaged, or the state answer no more, nothing unchanged is rendered again), plus this run's.
  const renders = new Map(compiled.renders);
  for (const lesson of source.lessons) {
    if (unchanged.has(lesson.path)) continue; // never read
    const digest = rendered.digests.get(lesson.body.text) ?? renderDigest(lesson.body.text);
    const entry = recalled.renders.get(digest);
    if (entry && !renders.has(digest)) renders.set(digest, entry);
  }
  if (changed(renders, recalled.renders)) await writeRenderCache(dir, compiler, renders);
}

/** Whether `now` holds other keys than `before`. */
function changed(now: ReadonlyMap<string, unknown>, before: ReadonlyMap<string, unknown>): boolean {
  return now.size !== before.size || [...now.keys()].some((k) => !before.has(k));
}
