import { describe, expect, it } from 'vitest';
import { createCachedRender, isRenderResult, renderDigest } from '../../src/compile/render-cache.js';
import { renderMarkdown, type RenderResult } from '../../src/compile/render.js';

describe('createCachedRender: rendering by content digest', () => {
  it('answers a known text from the entries without rendering, and the same HTML', () => {
    const md = '# Title\n\n> quoted\n';
    const entries = new Map([[renderDigest(md), renderMarkdown(md)]]);
    const cached = createCachedRender(entries, () => {
      throw new Error('rendered a cached text');
    });
    expect(cached.render(md)).toEqual(renderMarkdown(md));
    expect([cached.hits, cached.misses]).toEqual([1, 0]);
  });

  it('renders a text it does not know, once per run, and keeps it among the used entries', () => {
    const calls: string[] = [];
    const cached = createCachedRender(new Map(), (md) => (calls.push(md), renderMarkdown(md)));
    cached.render('a *b*');
    cached.render('a *b*');
    cached.render('c');
    expect(calls).toEqual(['a *b*', 'c']);
    expect(cached.misses).toBe(2);
    expect(cached.used.get(renderDigest('a *b*'))?.html).toBe('<p>a <em>b</em></p>\n');
  });

  it('keys on the text (the cache file is tagged with the renderer: load/compiler-id.ts)', () => {
    expect(renderDigest('x')).not.toBe(renderDigest('x '));
    expect(renderDigest('x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('isRenderResult: stored entries are checked, not trusted', () => {
  const good: RenderResult = { html: '<p>x</p>', problems: [{ kind: 'forbidden', message: 'm', line: 1, column: 2 }], anchors: ['x'], refs: [{ url: 'a.png', image: true, line: 1, column: 1 }] };
  it('accepts a result', () => expect(isRenderResult(good)).toBe(true));
  it.each([
    ['null', null],
    ['a string', '<p>x</p>'],
    ['html not a string', { html: 42, problems: [] }],
    ['problems missing', { html: '' }],
    ['a problem of an unknown kind', { html: '', problems: [{ kind: 'other', message: 'm', line: 1, column: 1 }] }],
    ['a problem without a line', { html: '', problems: [{ kind: 'forbidden', message: 'm', column: 1 }] }],
  ])('rejects %s', (_name, value) => expect(isRenderResult(value)).toBe(false));
});
