import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileLesson } from '../../src/compile/compile-lesson.js';
import { findTooDeep, MAX_CONTAINER_DEPTH, MAX_HTML_DEPTH } from '../../src/compile/nesting-depth.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { splitFrontMatter } from '../../src/source/split-front-matter.js';

const EXAMPLES = join(import.meta.dirname, '../../examples');
function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? markdownFiles(p) : n.endsWith('.md') ? [p] : [];
  });
}

const indentedList = (depth: number) => Array.from({ length: depth }, (_, i) => `${' '.repeat(2 * i)}- item ${i}`).join('\n');

describe('nesting-depth pre-check', () => {
  it.each([
    ['block quotes', (n: number) => '>'.repeat(n) + ' x', MAX_CONTAINER_DEPTH],
    ['spaced block quotes', (n: number) => '> '.repeat(n) + 'x', MAX_CONTAINER_DEPTH],
    ['list markers on one line', (n: number) => '- '.repeat(n) + 'x', MAX_CONTAINER_DEPTH],
    ['ordered list markers', (n: number) => '1. '.repeat(n) + 'x', MAX_CONTAINER_DEPTH],
    ['quotes and lists mixed', (n: number) => '> - '.repeat(n / 2) + 'x', MAX_CONTAINER_DEPTH],
    ['lists nested by indentation', indentedList, MAX_CONTAINER_DEPTH],
    ['HTML blocks', (n: number) => '<div>'.repeat(n) + 'x' + '</div>'.repeat(n), MAX_HTML_DEPTH],
    ['inline HTML', (n: number) => 'a ' + '<span class="x">'.repeat(n) + 'x', MAX_HTML_DEPTH],
  ])('%s: the limit passes, one more is refused at the place it is crossed', (_name, make, limit) => {
    expect(findTooDeep(make(limit))).toBeUndefined();
    const over = findTooDeep(make(limit + 2));
    expect(over).toMatchObject({ limit });
    expect(over!.line).toBeGreaterThanOrEqual(1);
  });

  it('places: line and column of the construct that crosses the limit', () => {
    expect(findTooDeep(`# Title\n\ntext\n${'>'.repeat(40)} deep`)).toEqual({ construct: 'block quotes and list items', limit: MAX_CONTAINER_DEPTH, line: 4, column: MAX_CONTAINER_DEPTH + 1 });
    expect(findTooDeep(indentedList(40))).toMatchObject({ line: MAX_CONTAINER_DEPTH + 1, column: 2 * MAX_CONTAINER_DEPTH + 1 });
    expect(findTooDeep(`<p>\n${'<div\n class="a">'.repeat(101)}`)).toMatchObject({ construct: 'HTML elements', line: 102, column: 12 }); // ` class="a"><div` on each line
  });

  it('does not count what does not nest: siblings, closed elements, void and optional-end elements, thematic breaks', () => {
    const siblings = Array.from({ length: 500 }, (_, i) => `- item ${i}\n  - child\n> quote ${i}`).join('\n');
    expect(findTooDeep(siblings)).toBeUndefined();
    expect(findTooDeep('<div><p>x</div>'.repeat(1000))).toBeUndefined();
    expect(findTooDeep('<ul>' + '<li>item<br><img src="a.png">'.repeat(1000) + '</ul>')).toBeUndefined();
    expect(findTooDeep('---\n***\n- - -\n' + '<table><tr><td>1<td>2</table>'.repeat(300))).toBeUndefined();
  });

  it('every example lesson passes', () => {
    const files = markdownFiles(EXAMPLES);
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect(findTooDeep(readFileSync(f, 'utf8')), f).toBeUndefined();
  });

  it('compile reports it at the lesson path:line:col, for the body and the description, without rendering', () => {
    const text = `---\nname: Deep\nlesson_type: text\ndescription: "${'> '.repeat(40)}x"\n---\nIntro\n\n${'<div>'.repeat(150)}\n`;
    const out: Diagnostic[] = [];
    let rendered = 0;
    const result = compileLesson({ path: 'p/s/01-deep.md', text, digest: '', ...splitFrontMatter(text) }, out, () => {
      rendered++;
      return { html: '', problems: [], anchors: [], refs: [] };
    });
    expect(rendered).toBe(0);
    expect(result.fields).toBeUndefined();
    expect(out.map((d) => [d.code, d.line, d.column])).toEqual([
      ['lesson/nested-too-deep', 8, 501],
      ['lesson/nested-too-deep', 4, 14],
    ]);
    expect(out[0]!.message).toBe('HTML elements are nested more than 100 deep in the body; it was not rendered (flatten the nesting)');
    expect(out[1]!.message).toMatch(/^block quotes and list items are nested more than 32 deep in the description/);
  });
});
