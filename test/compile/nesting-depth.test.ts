import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileLesson } from '../../src/compile/compile-lesson.js';
import { findTooDeep, MAX_CONTAINER_DEPTH, MAX_HTML_DEPTH } from '../../src/compile/nesting-depth.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { renderMarkdown } from '../../src/compile/render.js';
import { splitFrontMatter } from '../../src/source/split-front-matter.js';

/** Containers before parsing, then HTML elements in the raw HTML the parser found (as compile does). */
const tooDeep = (text: string) => findTooDeep(text) ?? renderMarkdown(text).tooDeep;

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
    expect(tooDeep(make(limit))).toBeUndefined();
    const over = tooDeep(make(limit + 2));
    expect(over).toMatchObject({ limit });
    expect(over!.line).toBeGreaterThanOrEqual(1);
  });

  it('places: line and column of the construct that crosses the limit', () => {
    expect(tooDeep(`# Title\n\ntext\n${'>'.repeat(40)} deep`)).toEqual({ construct: 'block quotes and list items', limit: MAX_CONTAINER_DEPTH, line: 4, column: MAX_CONTAINER_DEPTH + 1 });
    expect(tooDeep(indentedList(40))).toMatchObject({ line: MAX_CONTAINER_DEPTH + 1, column: 2 * MAX_CONTAINER_DEPTH + 1 });
    expect(tooDeep(`<p>\n${'<div\n class="a">'.repeat(101)}`)).toMatchObject({ construct: 'HTML elements', line: 102, column: 12 }); // ` class="a"><div` on each line
  });

  it('does not count what does not nest: siblings, closed elements, void and optional-end elements, thematic breaks', () => {
    const siblings = Array.from({ length: 500 }, (_, i) => `- item ${i}\n  - child\n> quote ${i}`).join('\n');
    expect(tooDeep(siblings)).toBeUndefined();
    expect(tooDeep('<div><p>x</div>'.repeat(1000))).toBeUndefined();
    expect(tooDeep('<ul>' + '<li>item<br><img src="a.png">'.repeat(1000) + '</ul>')).toBeUndefined();
    expect(tooDeep('---\n***\n- - -\n' + '<table><tr><td>1<td>2</table>'.repeat(300))).toBeUndefined();
  });

  it('every example lesson passes', () => {
    const files = markdownFiles(EXAMPLES);
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect(tooDeep(readFileSync(f, 'utf8')), f).toBeUndefined();
  });

  it('compile reports it at the lesson path:line:col, for the body and the description, never building the deep tree', () => {
    const text = `---\nname: Deep\nlesson_type: text\ndescription: "${'> '.repeat(40)}x"\n---\nIntro\n\n${'<div>'.repeat(150)}\n`;
    const out: Diagnostic[] = [];
    const rendered: string[] = [];
    const result = compileLesson({ path: 'p/s/01-deep.md', text, digest: '', ...splitFrontMatter(text) }, out, (markdown) => {
      rendered.push(markdown);
      return renderMarkdown(markdown);
    });
    // The description's containers are refused before parsing; the body's HTML before it nests.
    expect(rendered).toHaveLength(1);
    expect(result.fields).toBeUndefined();
    expect(out.map((d) => [d.code, d.line, d.column])).toEqual([
      ['lesson/nested-too-deep', 8, 501],
      ['lesson/nested-too-deep', 4, 14],
    ]);
    expect(out[0]!.message).toBe('HTML elements are nested more than 100 deep in the body; it was not rendered (flatten the nesting)');
    expect(out[1]!.message).toMatch(/^block quotes and list items are nested more than 32 deep in the description/);
  });

  it('does not count generics in code: a Rust lesson with 101 `Vec<T>` in code blocks and inline code passes', () => {
    const fence = Array.from({ length: 60 }, (_, i) => `    let v${i}: Vec<T> = Vec::new();`).join('\n');
    const inline = Array.from({ length: 41 }, (_, i) => `Call \`push\` on a \`Vec<T>\` (step ${i}).`).join('\n\n');
    const text = `# Vectors\n\n\`\`\`rust\nfn main() {\n${fence}\n}\n\`\`\`\n\n${inline}\n`;
    expect((text.match(/Vec<T>/g) ?? []).length).toBe(101);
    expect(tooDeep(text)).toBeUndefined();
    const out: Diagnostic[] = [];
    const lesson = `---\nname: Vectors\nlesson_type: text\n---\n${text}`;
    const result = compileLesson({ path: 'rust/ch08/01-vectors.md', text: lesson, digest: '', ...splitFrontMatter(lesson) }, out, renderMarkdown);
    expect(out).toEqual([]);
    expect(result.fields?.body).toContain('Vec&#x3C;T>');
  });

});
