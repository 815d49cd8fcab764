/**
 * Pandoc's attribute blocks after images and links, as the Carpentries and Quarto write them
 * (compile/attribute-blocks.ts, through renderMarkdown): the block goes, its alt text, size,
 * title and classes go on the element; anything that is not such a block stays text.
 */
import { describe, expect, it } from 'vitest';
import { REF_MARKER, renderMarkdown } from '../../src/compile/render.js';

// Local references are markers in the HTML (resolved by compile): shown here as their index.
const html = (markdown: string) => renderMarkdown(markdown).html.replace(REF_MARKER, '$1');

describe('an attribute block right after an image or a link', () => {
  it("gives an image its alt text (the Carpentries' figures have no other), its size and classes", () => {
    expect(html(`![](fig/filesystem.svg){alt='The file system: a root with "bin", "data" and pnas\\_final' width="60%"}\n`)).toBe(
      '<p><img src="0" alt="The file system: a root with &#x22;bin&#x22;, &#x22;data&#x22; and pnas_final" width="60%"></p>\n',
    );
    // An id is left out: links to #fragments are checked against the page's headings.
    expect(html('See ![Caption](fig/a.png){#fig-a .wide height=200} and go on.\n')).toBe('<p>See <img src="0" alt="Caption" class="wide" height="200"> and go on.</p>\n');
    // In a link, as a badge is.
    expect(html('[![build](fig/badge.svg){alt="Build passing"}](https://ci.example.org)\n')).toBe('<p><a href="https://ci.example.org"><img src="0" alt="Build passing"></a></p>\n');
  });

  it("gives a link its title and classes; what HTML has no place for here (a target, a style) is left out with the block", () => {
    expect(html(`[the site](https://carpentries.org){target="_blank" .external title='Opens the site'}\n`)).toBe('<p><a href="https://carpentries.org" title="Opens the site" class="external">the site</a></p>\n');
    expect(html('![x](a.png){style="border: 0" .plain}\n')).toBe('<p><img src="0" alt="x" class="plain"></p>\n');
  });

  it('works in headings, table cells and emphasis; the image keeps its place for references', () => {
    const result = renderMarkdown('| Figure |\n| --- |\n| ![](fig/b.png){alt="B"} |\n\n*![](fig/c.png){alt="C"}*\n');
    expect(result.html.replace(REF_MARKER, '$1')).toContain('<td><img src="0" alt="B"></td>');
    expect(result.html.replace(REF_MARKER, '$1')).toContain('<em><img src="1" alt="C"></em>');
    expect(result.refs.map((r) => [r.line, r.column])).toEqual([
      [3, 3],
      [5, 2],
    ]);
  });

  it('stays text when it is no attribute block: a space before it, words in braces, empty braces, never closed, not after an image or link, in code', () => {
    expect(html("![x](a.png) {alt='space first'}")).toBe(`<p><img src="0" alt="x"> {alt='space first'}</p>\n`);
    expect(html('![x](a.png){not an attribute}')).toBe('<p><img src="0" alt="x">{not an attribute}</p>\n');
    expect(html('![x](a.png){}')).toBe('<p><img src="0" alt="x">{}</p>\n');
    expect(html("![x](a.png){alt='never closed")).toBe(`<p><img src="0" alt="x">{alt='never closed</p>\n`);
    expect(html("Text {alt='x'} alone")).toBe(`<p>Text {alt='x'} alone</p>\n`);
    expect(html('`![x](a.png){alt="code"}`')).toBe('<p><code>![x](a.png){alt="code"}</code></p>\n');
  });

  it('reads a long or hostile block in linear time', () => {
    const long = `![x](a.png){${'.c '.repeat(50_000)}}`;
    expect(html(long)).toContain('class="c c c');
    const hostile = `![x](a.png){${"a='".repeat(50_000)}`;
    expect(html(hostile)).toContain("{a='a='");
  });
});
