import { describe, expect, it } from 'vitest';
import { isLocalUrl, plainHtml, refMarker, renderMarkdown } from '../../src/compile/render.js';

describe('heading ids: the slugs GitHub gives', () => {
  it('lower case, punctuation dropped, spaces as -, duplicates -1 and -2', () => {
    const r = renderMarkdown('# Hello, World!\n\n## Step\n\n## Step\n\n### Step\n\n## Über `code` & more\n');
    expect(r.html).toBe(
      '<h1 id="hello-world">Hello, World!</h1>\n<h2 id="step">Step</h2>\n<h2 id="step-1">Step</h2>\n<h3 id="step-2">Step</h3>\n<h2 id="über-code--more">Über <code>code</code> &#x26; more</h2>\n',
    );
    expect(r.anchors).toEqual(['hello-world', 'step', 'step-1', 'step-2', 'über-code--more']);
  });

  it('keeps an id written in raw HTML, and counts <span id> and <a name> as anchors', () => {
    const r = renderMarkdown('<h2 id="custom">Custom</h2>\n\nText <span id="here">here</span> and <a name="old-style"></a>.\n');
    expect(r.html).toContain('<h2 id="custom">Custom</h2>');
    expect(r.anchors).toEqual(['custom', 'here', 'old-style']);
  });
});

describe('local references', () => {
  it('lists images, links, srcset and #anchors in Markdown and raw HTML, with their places', () => {
    const md = [
      '![a](img/a.png) [b](b.md#part) [c](#top) [d](https://x.org) [e](mailto:a@b.c) [f](//cdn.x/y)',
      '',
      '<img src="img/b.png" srcset="img/b.png 1x, img/b@2x.png 2x"> <a href="/shared/c.pdf">c</a>',
      '',
      '[ref link][r]',
      '',
      '[r]: ../other.md',
      '',
    ].join('\n');
    const r = renderMarkdown(md);
    expect(r.refs).toEqual([
      { url: 'img/a.png', image: true, line: 1, column: 1 },
      { url: 'b.md#part', image: false, line: 1, column: 17 },
      { url: '#top', image: false, line: 1, column: 32 },
      { url: 'img/b.png', image: true, line: 3, column: 1 },
      { url: 'img/b.png', image: true, line: 3, column: 1 },
      { url: 'img/b@2x.png', image: true, line: 3, column: 1 },
      { url: '/shared/c.pdf', image: false, line: 3, column: 62 },
      { url: '../other.md', image: false, line: 5, column: 1 },
    ]);
    // The HTML holds a marker where each local URL was; external ones are untouched.
    expect(r.html).toContain(`<img src="${refMarker(0)}" alt="a">`);
    expect(r.html).toContain(`srcset="${refMarker(4)} 1x, ${refMarker(5)} 2x"`);
    expect(r.html).toContain('<a href="https://x.org">d</a>');
    expect(r.html).toContain('<a href="mailto:a@b.c">e</a>');
    expect(r.html).toContain('<a href="//cdn.x/y">f</a>');
    // Outside a repo, the references go back as written.
    expect(plainHtml(r)).toContain('<img src="img/b.png" srcset="img/b.png 1x, img/b@2x.png 2x">');
    expect(plainHtml(r)).not.toMatch(/\uE000/);
  });

  it.each([
    ['img/a.png', true],
    ['/root.md', true],
    ['#x', true],
    ['https://x.org', false],
    ['HTTP://X.ORG', false],
    ['mailto:x@y.z', false],
    ['//cdn.example.com/a.png', false],
    ['data:image/png;base64,AAAA', false],
    ['', false],
    ['?q=1', false],
  ])('isLocalUrl(%j) is %s', (url, local) => {
    expect(isLocalUrl(url)).toBe(local);
  });
});
