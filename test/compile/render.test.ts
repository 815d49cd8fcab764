import { describe, expect, it } from 'vitest';
import { checkHtml } from '../../src/compile/check-html.js';
import { renderMarkdown } from '../../src/compile/render.js';

describe('renderMarkdown: Markdown → HTML', () => {
  const cases: Array<{ name: string; md: string; html: string }> = [
    { name: 'heading and paragraph', md: '# Title\n\nSome *em* and **strong**.\n', html: '<h1 id="title">Title</h1>\n<p>Some <em>em</em> and <strong>strong</strong>.</p>\n' },
    { name: 'blockquote stays a blockquote', md: '> quoted\n> text\n', html: '<blockquote>\n<p>quoted\ntext</p>\n</blockquote>\n' },
    { name: 'ordered and task lists (GFM)', md: '1. a\n2. b\n\n- [x] done\n', html: '<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n<ul class="contains-task-list">\n<li class="task-list-item"><input type="checkbox" checked disabled> done</li>\n</ul>\n' },
    {
      name: 'table (GFM) with alignment',
      md: '| a | b |\n|---|--:|\n| 1 | 2 |\n',
      html: '<table>\n<thead>\n<tr>\n<th>a</th>\n<th align="right">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td align="right">2</td>\n</tr>\n</tbody>\n</table>\n',
    },
    { name: 'code is escaped', md: '```html\n<script>x</script>\n```\n\n`<iframe>`\n', html: '<pre><code class="language-html">&#x3C;script>x&#x3C;/script>\n</code></pre>\n<p><code>&#x3C;iframe></code></p>\n' },
    { name: 'image and link', md: '![Map](https://e.x/m.png "T") [site](https://e.x)\n', html: '<p><img src="https://e.x/m.png" alt="Map" title="T"> <a href="https://e.x">site</a></p>\n' },
    { name: 'strikethrough and autolink (GFM)', md: '~~old~~ www.example.com\n', html: '<p><del>old</del> <a href="http://www.example.com">www.example.com</a></p>\n' },
    {
      name: 'literal autolinks in nested text, any case (GFM)',
      md: '- See *HTTPS://E.X/a* or **mail me@e.x**\n\n| WWW.E.X | [ok](https://e.x) |\n|---|---|\n',
      html:
        '<ul>\n<li>See <em><a href="HTTPS://E.X/a">HTTPS://E.X/a</a></em> or <strong>mail <a href="mailto:me@e.x">me@e.x</a></strong></li>\n</ul>\n' +
        '<table>\n<thead>\n<tr>\n<th><a href="http://WWW.E.X">WWW.E.X</a></th>\n<th><a href="https://e.x">ok</a></th>\n</tr>\n</thead>\n</table>\n',
    },
    { name: 'no literal autolink without @, http(s):// or www. in text', md: 'e.x and `www.e.x` and [w](https://e.x)\n', html: '<p>e.x and <code>www.e.x</code> and <a href="https://e.x">w</a></p>\n' },
    { name: 'allowed raw HTML passes through', md: '<details><summary>More</summary>\n\nHidden\n\n</details>\n', html: '<details><summary>More</summary>\n<p>Hidden</p>\n</details>\n' },
    { name: 'empty body', md: '', html: '' },
    // mdBook's heading attributes (Rust by Example's `## Options {#options}`): the id and classes, not text.
    { name: 'heading attributes {#id .class}', md: '## Options {#options}\n\n## Notes { #note .warn .big }\n', html: '<h2 id="options">Options</h2>\n<h2 id="note" class="warn big">Notes</h2>\n' },
    { name: 'heading attributes after code, and on a setext heading', md: '## `asm!` {#asm}\n\nSetext {#set}\n---\n', html: '<h2 id="asm"><code>asm!</code></h2>\n<h2 id="set">Setext</h2>\n' },
    { name: 'a heading attribute id holding a dot', md: '## Version 1.2 {#v1.2 .new}\n', html: '<h2 id="v1.2" class="new">Version 1.2</h2>\n' },
    // GitHub's alerts (the data engineering zoomcamp has 28): learners read "Note", not "[!NOTE]".
    {
      name: 'GitHub alerts: the marker becomes its title, the quote gets GitHub\'s classes',
      md: '> [!NOTE]\n> Useful **information**.\n\n> [!warning]\n>\n> Be careful.\n> Really.\n',
      html:
        '<blockquote class="markdown-alert markdown-alert-note">\n<p class="markdown-alert-title"><strong>Note</strong></p>\n<p>Useful <strong>information</strong>.</p>\n</blockquote>\n' +
        '<blockquote class="markdown-alert markdown-alert-warning">\n<p class="markdown-alert-title"><strong>Warning</strong></p>\n<p>Be careful.\nReally.</p>\n</blockquote>\n',
    },
    {
      name: 'what is no GitHub alert stays a quote: another word, nothing after the marker, text after it on its line',
      md: '> [!TODO]\n> later\n\n> [!NOTE]\n\n> [!TIP] **also**\n> text\n',
      html: '<blockquote>\n<p>[!TODO]\nlater</p>\n</blockquote>\n<blockquote>\n<p>[!NOTE]</p>\n</blockquote>\n<blockquote>\n<p>[!TIP] <strong>also</strong>\ntext</p>\n</blockquote>\n',
    },
    { name: 'braces that are no attribute block stay text', md: '## Braces {not attrs}\n\n## Set {#}\n', html: '<h2 id="braces-not-attrs">Braces {not attrs}</h2>\n<h2 id="set-">Set {#}</h2>\n' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const result = renderMarkdown(c.md);
      expect(result.html).toBe(c.html);
      expect(result.problems).toEqual([]);
    });
  }

  it("a heading's attribute id is its anchor, and taken: a heading slugged to it, before or after, gets the next free id", () => {
    expect(renderMarkdown('## Options {#options}\n\n## Options\n').anchors).toEqual(['options', 'options-1']);
    const before = renderMarkdown('## Options\n\n## Flags {#options}\n\n## Options\n');
    expect(before.html).toBe('<h2 id="options-1">Options</h2>\n<h2 id="options">Flags</h2>\n<h2 id="options-2">Options</h2>\n');
  });

  it('is deterministic', () => {
    const md = '# A\n\n| x |\n|---|\n| 1 |\n\n> q\n';
    expect(renderMarkdown(md).html).toBe(renderMarkdown(md).html);
  });
});

describe('forbidden HTML and warnings, placed in the Markdown', () => {
  const cases: Array<{ name: string; md: string; want: Array<[string, number, number]> }> = [
    { name: 'inline script, any case', md: 'a <ScRiPt>x</ScRiPt>\n', want: [['forbidden', 1, 3]] },
    { name: 'iframe nested in a block', md: 'x\n\n<div>\n<section>\n  <iframe src=x></iframe>\n</section>\n</div>\n', want: [['forbidden', 5, 3]] },
    { name: 'object and embed', md: '<object data=x></object>\n\n<p><embed src=y></p>\n', want: [['forbidden', 1, 1], ['forbidden', 3, 4]] },
    { name: 'script inside svg', md: '<svg><script>1</script></svg>\n', want: [['forbidden', 1, 6]] },
    { name: 'script inside a template', md: '<template><script>1</script></template>\n', want: [['forbidden', 1, 11]] },
    { name: 'signed attachment only', md: '<action-text-attachment sgid="s"></action-text-attachment>\n\n<action-text-attachment url="u"></action-text-attachment>\n', want: [['forbidden', 1, 1]] },
    { name: 'script in a comment is not an element', md: '<!-- <script>x</script> -->\n', want: [] },
    { name: 'event handler attribute', md: '<img src="a.png" onerror="x()">\n', want: [['event-handler', 1, 1]] },
    { name: 'javascript: link, whitespace and case ignored', md: '[a](JavaScript:alert(1))\n\n<a href=" java\tscript:x">b</a>\n', want: [['javascript-url', 1, 1], ['javascript-url', 3, 1]] },
    // Reported once, where the URL is written: the definition, not each reference to it.
    { name: 'javascript: in a definition', md: '[a][r]\n\n[r]: javascript:void(0)\n', want: [['javascript-url', 3, 1]] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = renderMarkdown(c.md).problems.map((p) => [p.kind, p.line, p.column]);
      expect(got).toEqual(c.want);
    });
  }
});

describe('checkHtml: html-format bodies', () => {
  const cases: Array<{ name: string; html: string; want: Array<[string, number, number]> }> = [
    { name: 'clean', html: '<p>ok</p>\n<blockquote>q</blockquote>', want: [] },
    { name: 'self-closing odd script', html: '<p>a</p>\n<script/x>alert(1)</script>', want: [['forbidden', 2, 1]] },
    { name: 'uppercase iframe deep inside', html: '<div>\n<ul><li><IFRAME SRC=x></IFRAME></li></ul></div>', want: [['forbidden', 2, 9]] },
    { name: 'onclick attribute', html: '<button onClick="x()">b</button>', want: [['event-handler', 1, 1]] },
    { name: 'escaped text is fine', html: '<pre>&lt;script&gt;</pre>', want: [] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(checkHtml(c.html).map((p) => [p.kind, p.line, p.column])).toEqual(c.want);
    });
  }
});
