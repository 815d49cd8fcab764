import { describe, expect, it } from 'vitest';
import { fromHtml } from 'hast-util-from-html';
import type { Element } from 'hast';
import { findForbiddenElements, findForbiddenMarkup, hasForbiddenMarkup, isForbiddenElement } from '../../src/school-api/body-rules.js';

describe('findForbiddenMarkup', () => {
  it.each([
    ['<p>Hello <strong>world</strong></p>', []],
    ['<blockquote><p>quoted</p></blockquote>', []],
    ['<p>&lt;script&gt; is text</p>', []],
    ['<!-- <script>in a comment</script> -->', []],
    ['<pre><code>&lt;iframe src=x&gt;</code></pre>', []],
    ['<action-text-attachment content-type="image/png"></action-text-attachment>', []],
    ['<script>alert(1)</script>', ['script']],
    ['<SCRIPT SRC="x.js"></SCRIPT>', ['script']],
    ['<p>a</p><iframe src="https://x"></iframe>', ['iframe']],
    ['<object data="x"></object><embed src="y">', ['object', 'embed']],
    ['<action-text-attachment sgid="BAh7CEkiCG"></action-text-attachment>', ['action-text-attachment']],
    ['<div><svg><script>x</script></svg></div>', ['script']],
    ['<template><iframe></iframe></template>', ['iframe']],
  ])('%s → %j', (html, tags) => {
    expect(findForbiddenMarkup(html).map((f) => f.tagName)).toEqual(tags);
    expect(hasForbiddenMarkup(html)).toBe(tags.length > 0);
  });

  it('reports line and column of each element and describes it for a user', () => {
    const found = findForbiddenMarkup('<p>ok</p>\n  <script>x</script>\n<action-text-attachment sgid="s"></action-text-attachment>');
    expect(found).toEqual([
      { tagName: 'script', description: 'a <script> tag', line: 2, column: 3 },
      { tagName: 'action-text-attachment', description: 'signed attachment markup (<action-text-attachment sgid=…>)', line: 3, column: 1 },
    ]);
  });
});

describe('isForbiddenElement on hast trees (as the course validator uses it)', () => {
  const el = (tagName: string, properties: Element['properties'] = {}): Element => ({ type: 'element', tagName, properties, children: [] });
  it.each([
    [el('script'), true],
    [el('embed'), true],
    [el('div'), false],
    [el('action-text-attachment', { sgid: 'x' }), true],
    [el('action-text-attachment', {}), false],
  ])('%j → %s', (node, expected) => {
    expect(isForbiddenElement(node)).toBe(expected);
  });

  it('finds elements in a tree without positions', () => {
    const tree = fromHtml('<p><iframe></iframe></p>', { fragment: true });
    const strip = (n: { position?: unknown; children?: unknown[] }): void => {
      delete n.position;
      for (const c of (n.children ?? []) as Array<{ position?: unknown; children?: unknown[] }>) strip(c);
    };
    strip(tree as never);
    expect(findForbiddenElements(tree)).toEqual([{ tagName: 'iframe', description: 'an <iframe> tag' }]);
  });
});
