/**
 * Rendering by content digest (PURE): a RenderFn that answers from known results and renders
 * only Markdown it has not seen, so a plan of an unchanged repo renders nothing. The entries
 * come from, and go back to, storage the caller owns (load/render-cache-file.ts keeps them
 * under `.coursesync/cache/`). An entry holds only what rendering Markdown gives: HTML and
 * the problems found in it, never settings, connection details or tokens.
 */
import { createHash } from 'node:crypto';
import type { HtmlProblem } from './check-html.js';
import type { RenderFn } from './compile-lesson.js';
import { defaultRender } from './markdown-renderer.js';
import type { RenderResult } from './rendered-html.js';

/**
 * The cache key of a Markdown text: its sha256. Which renderer made an entry is the cache
 * file's tag (the compiler id, load/compiler-id.ts), so a new renderer misses every entry.
 */
export function renderDigest(markdown: string): string {
  return createHash('sha256').update(markdown).digest('hex');
}

export interface CachedRender {
  /** Use as compileCourse's `render`. */
  render: RenderFn;
  /** Digest → result of every text rendered or looked up in this run: what is worth keeping. */
  used: Map<string, RenderResult>;
  /** Texts rendered in this run (not found in the entries). */
  readonly misses: number;
  /** Texts answered from the entries. */
  readonly hits: number;
}

/**
 * A renderer that answers from `entries` (digest → result) and renders the rest with `render`.
 * `digests` (text → renderDigest(text)) spares hashing texts whose digest is already known.
 * Results are shared, not copied: callers must not mutate them (compile/ does not).
 */
export function createCachedRender(entries: ReadonlyMap<string, RenderResult>, render: RenderFn = defaultRender, digests?: ReadonlyMap<string, string>): CachedRender {
  const used = new Map<string, RenderResult>();
  const counts = { hits: 0, misses: 0 };
  const cached = (markdown: string): RenderResult => {
    const digest = digests?.get(markdown) ?? renderDigest(markdown);
    const seen = used.get(digest);
    if (seen) return seen;
    let result = entries.get(digest);
    if (result) counts.hits++;
    else {
      counts.misses++;
      result = render(markdown);
    }
    // A stopped rendering may finish next time (on a less loaded machine): never kept.
    if (!result.stopped) used.set(digest, result);
    return result;
  };
  return {
    render: cached,
    used,
    get misses() {
      return counts.misses;
    },
    get hits() {
      return counts.hits;
    },
  };
}

const PROBLEM_KINDS: ReadonlySet<string> = new Set<HtmlProblem['kind']>(['forbidden', 'event-handler', 'javascript-url', 'unknown-element']);

/** Whether a stored value has the shape of a RenderResult (a damaged entry is ignored, not trusted). */
export function isRenderResult(value: unknown): value is RenderResult {
  if (typeof value !== 'object' || value === null) return false;
  const { html, problems, anchors, refs } = value as { html?: unknown; problems?: unknown; anchors?: unknown; refs?: unknown };
  if (typeof html !== 'string' || !Array.isArray(problems) || !Array.isArray(anchors) || !Array.isArray(refs)) return false;
  if (!anchors.every((a: unknown) => typeof a === 'string')) return false;
  const isRef = (r: unknown): boolean => {
    if (typeof r !== 'object' || r === null) return false;
    const { url, image, line, column } = r as Record<string, unknown>;
    return typeof url === 'string' && typeof image === 'boolean' && Number.isInteger(line) && Number.isInteger(column);
  };
  if (!refs.every(isRef)) return false;
  return problems.every((p: unknown) => {
    if (typeof p !== 'object' || p === null) return false;
    const { kind, message, line, column } = p as Record<string, unknown>;
    return typeof kind === 'string' && PROBLEM_KINDS.has(kind) && typeof message === 'string' && Number.isInteger(line) && Number.isInteger(column);
  });
}
