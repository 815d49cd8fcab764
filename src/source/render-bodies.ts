/**
 * Render every lesson body a compile will ask for and the cache does not hold, before the
 * compile, on every core (I/O edge: worker threads). compile/ stays synchronous and PURE: it
 * then finds each body already rendered (compile/render-cache.ts). Descriptions are short and
 * rendered during the compile, in this thread, and cached the same way.
 */
import { renderDigest } from '../compile/render-cache.js';
import type { RenderResult } from '../compile/render.js';
import { MAX_CONTENT_LENGTH } from '../model/school-rules.js';
import type { SourceTree } from '../model/source-tree.js';
import { renderAll } from './render-pool.js';

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** compile-lesson.ts reports longer Markdown without rendering it (remark takes seconds per MB). */
const MAX_SOURCE_LENGTH = 5 * MAX_CONTENT_LENGTH;

/** A front-matter line saying the body is HTML already (compile checks it properly). */
const HTML_BODY = /^content_format:[ \t]*["']?html\b/m;

/**
 * `known` plus the renderings of the lesson bodies of `source` it lacks (by digest), rendered
 * with up to `threads` threads (`known` itself is not changed), and each body's digest.
 */
export async function renderMissingBodies(
  source: SourceTree,
  known: ReadonlyMap<string, RenderResult>,
  threads: number,
): Promise<{ entries: Map<string, RenderResult>; digests: Map<string, string> }> {
  const sectionDirs = new Set(source.sections.map((f) => dirOf(f.path)));
  const missing = new Map<string, string>();
  const digests = new Map<string, string>();
  for (const lesson of source.lessons) {
    // Only lessons compile renders: in a section folder, front-matter closed, body in Markdown.
    if (!sectionDirs.has(dirOf(lesson.path)) || lesson.frontMatterUnclosed) continue;
    if (lesson.body.text.length > MAX_SOURCE_LENGTH) continue;
    if (lesson.frontMatter && HTML_BODY.test(lesson.frontMatter.text)) continue;
    const digest = renderDigest(lesson.body.text);
    digests.set(lesson.body.text, digest);
    if (!known.has(digest)) missing.set(digest, lesson.body.text);
  }
  const all = new Map(known);
  if (missing.size === 0) return { entries: all, digests };
  const { results } = await renderAll([...missing.values()], threads);
  let i = 0;
  for (const digest of missing.keys()) all.set(digest, results[i++]!);
  return { entries: all, digests };
}
