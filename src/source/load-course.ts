/** The composer: read a course repo from disk and compile it (I/O at the edge, then PURE). */
import { compileCourse, type CompileResult } from '../compile/index.js';
import { createCachedRender } from '../compile/render-cache.js';
import type { RenderResult } from '../compile/render.js';
import { readSource } from './read-source.js';
import { renderMissingBodies } from './render-bodies.js';
import { readRenderCache, writeRenderCache } from './render-cache-file.js';
import { defaultRenderThreads } from './render-pool.js';

export interface LoadCourseOptions {
  /**
   * Reuse renderings kept by content digest in `.coursesync/cache/render.json` and keep this
   * run's there (default false), so unchanged Markdown is never rendered again.
   */
  cache?: boolean;
  /** Threads rendering the lesson bodies not cached; default every core, 1 = this thread only. */
  renderThreads?: number;
}

/**
 * Read and compile the course repo at `dir`, coursesync.yaml included (its problems are
 * diagnostics). Throws a CoursesyncError only when `dir` itself cannot be read.
 */
export async function loadCourse(dir: string, options: LoadCourseOptions = {}): Promise<CompileResult> {
  const source = await readSource(dir);
  const stored = options.cache ? await readRenderCache(dir) : new Map<string, RenderResult>();
  const known = await renderMissingBodies(source, stored, options.renderThreads ?? defaultRenderThreads());
  const cached = createCachedRender(known.entries, undefined, known.digests);
  const result = compileCourse(source, { render: cached.render });
  if (options.cache && (cached.used.size !== stored.size || [...cached.used.keys()].some((d) => !stored.has(d)))) {
    await writeRenderCache(dir, cached.used);
  }
  return result;
}
