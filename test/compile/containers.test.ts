/**
 * Containers (compile/containers.ts, through renderMarkdown): `:::` fences as Docusaurus,
 * VitePress, Pandoc/Quarto and the Carpentries write them, and `!!!` admonitions as MkDocs
 * writes them. A box with a title in place of the markers, folded for solutions, details and
 * `???`, left out for instructors; markers in code, never closed or too deep stay text; every
 * line and column keeps its place; any input in linear time.
 */
import { describe, expect, it } from 'vitest';
import { findContainers, MAX_NESTING } from '../../src/compile/containers.js';
import { renderMarkdown } from '../../src/compile/render.js';

const html = (markdown: string) => renderMarkdown(markdown).html;
const box = (name: string, title: string, inner: string) => `<blockquote class="admonition admonition-${name}">\n<p class="admonition-title"><strong>${title}</strong></p>\n${inner}</blockquote>\n`;

describe('a :::container', () => {
  it.each([
    ['Docusaurus, no title', ':::tip\nUse **this**.\n:::\n', box('tip', 'Tip', '<p>Use <strong>this</strong>.</p>\n')],
    ['Docusaurus, a title in brackets', ':::warning[Mind the gap]\nText.\n:::\n', box('warning', 'Mind the gap', '<p>Text.</p>\n')],
    ['Docusaurus, a title attribute', ':::note{title="From attributes"}\nText.\n:::\n', box('note', 'From attributes', '<p>Text.</p>\n')],
    ['VitePress, a space and a title', '::: danger Do not run this\nText.\n:::\n', box('danger', 'Do not run this', '<p>Text.</p>\n')],
    ['Quarto, a class and a title', '::: {.callout-note title="Heads up"}\nText.\n:::\n', box('callout-note', 'Heads up', '<p>Text.</p>\n')],
    ['Quarto, a class alone', '::: {.callout-important}\nText.\n:::\n', box('callout-important', 'Important', '<p>Text.</p>\n')],
    ['pymdownx blocks, a title after a bar', '/// tip | Installing Python\n\nUse **Colab**.\n\n///\n', box('tip', 'Installing Python', '<p>Use <strong>Colab</strong>.</p>\n')],
    ['pymdownx blocks, the type an option', '/// admonition | Careful\n    type: warning\n\nHot.\n///\n', box('warning', 'Careful', '<p>Hot.</p>\n')],
    ['the Carpentries, long fences', ':::::::::::::::: keypoints\n\n- One.\n- Two.\n\n::::::::::::::::::::::::\n', box('keypoints', 'Key Points', '<ul>\n<li>One.</li>\n<li>Two.</li>\n</ul>\n')],
  ])('%s', (_, markdown, expected) => {
    expect(html(markdown)).toBe(expected);
  });

  it('ends the blocks around it: lists in two boxes side by side stay two lists, a paragraph does not run into the fence', () => {
    const out = html('::: objectives\n\n- Learn.\n\n:::\n\n::: questions\n\n- Why?\n\n:::\n\nText right\n:::tip\nafter\n:::\n');
    expect(out).toBe(box('objectives', 'Objectives', '<ul>\n<li>Learn.</li>\n</ul>\n') + box('questions', 'Questions', '<ul>\n<li>Why?</li>\n</ul>\n') + '<p>Text right</p>\n' + box('tip', 'Tip', '<p>after</p>\n'));
  });

  it('nests: a challenge holding its solution, which is folded; a details block is folded with its title as summary', () => {
    const out = html(':::::: challenge\n\n## Try it\n\nCount the files.\n\n::: solution\n\n```bash\nls | wc -l\n```\n\n:::\n::::::\n\n::: details Why?\nBecause.\n:::\n');
    expect(out).toBe(
      '<blockquote class="admonition admonition-challenge">\n<p class="admonition-title"><strong>Challenge</strong></p>\n<h2 id="try-it">Try it</h2>\n<p>Count the files.</p>\n' +
        '<details class="admonition admonition-solution">\n<summary>Solution</summary>\n<pre><code class="language-bash">ls | wc -l\n</code></pre>\n</details>\n</blockquote>\n' +
        '<details class="admonition admonition-details">\n<summary>Why?</summary>\n<p>Because.</p>\n</details>\n',
    );
  });

  it("leaves an instructor's note out, images and links in it with it", () => {
    const result = renderMarkdown('Before.\n\n::: instructor\n\nTell them about ![the map](img/map.png) and [the key](key.md).\n\n:::\n\nAfter.\n');
    expect(result.html).toBe('<p>Before.</p>\n<p>After.</p>\n');
    expect(result.refs).toEqual([]);
  });

  it("pymdownx's details are folded, open with `open: True`; ::: and /// close their own kind", () => {
    expect(html('/// details | Show the answer\n    open: True\n\nIt is 42.\n///\n')).toBe('<details class="admonition admonition-details" open>\n<summary>Show the answer</summary>\n<p>It is 42.</p>\n</details>\n');
    expect(html('/// details | Hidden\nIt is 42.\n///\n')).toBe('<details class="admonition admonition-details">\n<summary>Hidden</summary>\n<p>It is 42.</p>\n</details>\n');
    expect(html(':::tip\n/// note\nInner.\n///\n:::\n')).toBe(box('tip', 'Tip', box('note', 'Note', '<p>Inner.</p>\n')));
  });

  it('stays text: in code, never closed, no name, a closing fence with nothing open, indented', () => {
    expect(html('/// This is a comment, not a block\n\nText\n')).toBe('<p>/// This is a comment, not a block</p>\n<p>Text</p>\n');
    expect(html('```rust\n/// doc\nfn a() {}\n```\n')).toBe('<pre><code class="language-rust">/// doc\nfn a() {}\n</code></pre>\n');
    expect(html('/// tip\n    type: x\nnever closed\n')).toBe('<p>/// tip\ntype: x\nnever closed</p>\n');
    expect(html('```\n:::tip\nin code\n:::\n```\n')).toBe('<pre><code>:::tip\nin code\n:::\n</code></pre>\n');
    expect(html('~~~md\n:::tip\n~~~\n\n:::\n')).toBe('<pre><code class="language-md">:::tip\n</code></pre>\n<p>:::</p>\n');
    expect(html(':::tip\nnever closed\n')).toBe('<p>:::tip\nnever closed</p>\n');
    expect(html(':::\nno name\n:::\n')).toBe('<p>:::\nno name\n:::</p>\n');
    expect(html('  :::tip\n  indented\n  :::\n')).toBe('<p>:::tip\nindented\n:::</p>\n');
    expect(html('Time: 10:30, a::b, `:::tip`.\n')).toBe('<p>Time: 10:30, a::b, <code>:::tip</code>.</p>\n');
  });

  it('keeps every other line at its place: problems and references inside a box point where they are written', () => {
    const result = renderMarkdown('# Title\n\n:::tip\nSee ![x](img/x.png)\n\n<div onclick="go()">x</div>\n:::\n');
    expect(result.refs.map((r) => [r.line, r.column])).toEqual([[4, 5]]);
    expect(result.problems.map((p) => [p.kind, p.line])).toEqual([['event-handler', 6]]);
  });

  it(`nests ${MAX_NESTING} deep at most: a fence deeper in is text, and its closing fence closes the one around it`, () => {
    const deep = MAX_NESTING + 2;
    const markdown = `${Array.from({ length: deep }, (_, i) => `:::level${i}\n`).join('')}core\n${':::\n'.repeat(deep)}`;
    const out = html(markdown);
    expect(out.match(/<blockquote class="admonition /g)).toHaveLength(MAX_NESTING);
    expect(out).toContain(':::level16');
    expect(out).not.toContain(':::level15');
  });

  it('takes linear time on hostile input: many fences never closed, many closing fences, long fence lines', () => {
    // Never closed, or closing with nothing open: no container.
    expect(findContainers(':::a\n'.repeat(100_000))).toBeUndefined();
    expect(findContainers(':::\n'.repeat(100_000))).toBeUndefined();
    // Found, and the text to parse keeps every line and offset.
    for (const [markdown, count] of [[`:::a${' x'.repeat(100_000)}\n${':'.repeat(200_000)}\n`, 1], [':::a\n:::\n'.repeat(50_000), 50_000]] as const) {
      const found = findContainers(markdown)!;
      expect(found.containers).toHaveLength(count);
      expect(found.text.length).toBe(markdown.length);
      expect(found.text.split('\n').length).toBe(markdown.split('\n').length);
    }
    const many = renderMarkdown(':::a\nx\n:::\n'.repeat(5_000));
    expect(many.html.match(/admonition-title/g)).toHaveLength(5_000);
  });
});

describe('a !!! admonition (MkDocs, Python-Markdown)', () => {
  it.each([
    ['a title in quotes, blocks under it', '!!! note "Read this first"\n    Some **text**.\n\n    - a list\n    - item\n\nAfter.\n', box('note', 'Read this first', '<p>Some <strong>text</strong>.</p>\n<ul>\n<li>a list</li>\n<li>item</li>\n</ul>\n') + '<p>After.</p>\n'],
    ['no title: its name', '!!! warning\n    Careful.\n', box('warning', 'Warning', '<p>Careful.</p>\n')],
    ['an empty title: none shown', '!!! note ""\n    No title.\n', '<blockquote class="admonition admonition-note">\n<p>No title.</p>\n</blockquote>\n'],
    ['more classes: the first is its name', '!!! danger highlight "Two classes"\n    x\n', box('danger', 'Two classes', '<p>x</p>\n')],
    ['code under it, indented with a tab', '!!! example\n\t```python\n\tprint(1)\n\t```\n', box('example', 'Example', '<pre><code class="language-python">print(1)\n</code></pre>\n')],
  ])('%s', (_, markdown, expected) => {
    expect(html(markdown)).toBe(expected);
  });

  it('??? is folded, ???+ folded open; one inside another, and ::: fences inside one, nest', () => {
    expect(html('??? tip "Click to open"\n    Hidden.\n\n???+ example\n    Shown.\n')).toBe(
      '<details class="admonition admonition-tip">\n<summary>Click to open</summary>\n<p>Hidden.</p>\n</details>\n<details class="admonition admonition-example" open>\n<summary>Example</summary>\n<p>Shown.</p>\n</details>\n',
    );
    expect(html('!!! note\n    Outer.\n\n    !!! tip\n        Inner.\n\n    Outer again.\n')).toBe(box('note', 'Note', '<p>Outer.</p>\n' + box('tip', 'Tip', '<p>Inner.</p>\n') + '<p>Outer again.</p>\n'));
    expect(html('!!! note\n    :::tip\n    fenced inside\n    :::\n')).toBe(box('note', 'Note', box('tip', 'Tip', '<p>fenced inside</p>\n')));
  });

  it('keeps columns as written: references and problems under it point past its indent', () => {
    const result = renderMarkdown('!!! note\n    A ![x](img/a.png) and\n\n    <div onclick="go()">y</div>\n');
    expect(result.refs.map((r) => [r.line, r.column])).toEqual([[2, 7]]);
    expect(result.problems.map((p) => [p.kind, p.line, p.column])).toEqual([['event-handler', 4, 5]]);
  });

  it('stays text: in code, in running text, with no name, and an indented block after other text is what it was', () => {
    expect(html('```\n!!! note\n    in code\n```\n')).toBe('<pre><code>!!! note\n    in code\n</code></pre>\n');
    expect(html('Text !!! note inline\n')).toBe('<p>Text !!! note inline</p>\n');
    expect(html('!!!\n    no name\n')).toBe('<p>!!!\nno name</p>\n');
    expect(html('Wow!!!\n\n    code\n')).toBe('<p>Wow!!!</p>\n<pre><code>code\n</code></pre>\n');
  });

  it(`nests ${MAX_NESTING} deep at most, and takes linear time on many markers`, () => {
    const deep = Array.from({ length: MAX_NESTING + 2 }, (_, i) => `${'    '.repeat(i)}!!! level${i}\n`).join('') + `${'    '.repeat(MAX_NESTING + 2)}core\n`;
    expect(html(deep).match(/<blockquote class="admonition /g)).toHaveLength(MAX_NESTING);
    const many = renderMarkdown('!!! note\n    x\n\n'.repeat(5_000));
    expect(many.html.match(/admonition-title/g)).toHaveLength(5_000);
    expect(findContainers('!!! a\n'.repeat(100_000))?.containers).toHaveLength(100_000);
  });
});
