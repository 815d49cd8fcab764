/**
 * Render every lesson body and description a compile will ask for and the cache does not
 * hold, before the compile, on every core and each within the budget of one lesson (I/O edge:
 * worker threads, load/render-pool.ts). compile/ stays synchronous and PURE: it then finds
 * each text already rendered (compile/render-cache.ts). Texts nested too deep are left out:
 * compile refuses them before rendering (compile/nesting-depth.ts).
 */
import { findTooDeep } from '../compile/nesting-depth.js';
import { parseFrontMatter } from '../compile/parse-front-matter.js';
import { renderDigest } from '../compile/render-cache.js';
import type { RenderResult } from '../compile/rendered-html.js';
import { MAX_CONTENT_LENGTH } from '../school-api/school-rules.js';
import type { FrontMatterBlock, SourceTree } from '../model/source-tree.js';
import { renderAll, type RenderAllOptions } from './render-pool.js';

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** compile-lesson.ts reports longer Markdown without rendering it (remark takes seconds per MB). */
const MAX_SOURCE_LENGTH = 5 * MAX_CONTENT_LENGTH;

/** A front-matter line saying the body is HTML already (compile checks it properly), in YAML or TOML. */
const HTML_BODY = /^content_format[ \t]*[:=][ \t]*["']?html\b/m;
/** A front-matter line that may start a description (then the block is parsed to find it), in YAML or TOML. */
const DESCRIPTION = /^description[ \t]*[:=]/m;

/** The description compile will render from `frontMatter`, if any. */
function descriptionOf(frontMatter: FrontMatterBlock): string | undefined {
  if (!DESCRIPTION.test(frontMatter.text)) return undefined;
  const value = parseFrontMatter(frontMatter, '', []).value;
  const description = typeof value === 'object' && value !== null ? (value as { description?: unknown }).description : undefined;
  return typeof description === 'string' && description !== '' ? description : undefined;
}

/**
 * `known` plus the renderings of the lesson bodies of `source` it lacks (by digest), rendered
 * with up to `threads` threads (`known` itself is not changed), and each body's digest.
 */
export async function renderMissingBodies(
  source: SourceTree,
  known: ReadonlyMap<string, RenderResult>,
  threads: number,
  options?: RenderAllOptions,
): Promise<{ entries: Map<string, RenderResult>; digests: Map<string, string> }> {
  const sectionDirs = new Set(source.sections.map((f) => dirOf(f.path)));
  const missing = new Map<string, string>();
  const digests = new Map<string, string>();
  const want = (text: string) => {
    if (text.length > MAX_SOURCE_LENGTH || digests.has(text) || findTooDeep(text)) return;
    const digest = renderDigest(text);
    digests.set(text, digest);
    if (!known.has(digest)) missing.set(digest, text);
  };
  for (const lesson of source.lessons) {
    // Only lessons compile renders: in a section folder, front-matter closed, body in Markdown.
    if (!sectionDirs.has(dirOf(lesson.path)) || lesson.frontMatterUnclosed) continue;
    const description = lesson.frontMatter ? descriptionOf(lesson.frontMatter) : undefined;
    if (description !== undefined) want(description);
    if (lesson.frontMatter && HTML_BODY.test(lesson.frontMatter.text)) continue;
    want(lesson.body.text);
  }
  const all = new Map(known);
  if (missing.size === 0) return { entries: all, digests };
  const { results } = await renderAll([...missing.values()], threads, options);
  let i = 0;
  for (const digest of missing.keys()) all.set(digest, results[i++]!);
  return { entries: all, digests };
}
