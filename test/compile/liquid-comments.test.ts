/**
 * Liquid's `{% comment %}` … `{% endcomment %}` (Jekyll sites: the Missing Semester hides its
 * exercise solutions so): what lies between goes whole, tags and includes too, nested comments
 * end at their last `{% endcomment %}`, and the lines after keep their places. In code or in
 * `{% raw %}` the tag is text; a comment never closed hides nothing and is reported.
 */
import { describe, expect, it } from 'vitest';
import { placeOf, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { expandIncludes } from '../../src/compile/expand-includes.js';

const files = {
  textOf: (p: string) => (p === 'p/s/_hint.md' ? 'A hint: {% comment %}not this{% endcomment %}use `cd`.\n' : undefined),
  paths: () => ['p/s/_hint.md'],
};

function expand(text: string) {
  const out: Diagnostic[] = [];
  const expanded = expandIncludes('p/s/shell.md', text, 1, files, out, 'p');
  return { text: expanded.text, lines: expanded.origins.map((o) => o.line), said: out.map((d) => `${placeOf(d)} ${d.severity} ${d.code} ${d.message}`), includes: expanded.includes };
}

const LECTURE = [
  '# Exercises', // 1
  '', // 2
  '1. Write `marco` and `polo`.', // 3
  '', // 4
  '{% comment %}', // 5
  '```bash', // 6
  'marco() { export MARCO=$(pwd); }', // 7
  '```', // 8
  '{% include "missing.md" %} {% if solutions %}', // 9
  '{% endcomment %}', // 10
  '', // 11
  '2. Read `man ls`.', // 12
  '',
].join('\n');

describe('Liquid comments', () => {
  it('drop what lies between, code, tags and includes alike, and the lines after keep their places', () => {
    const got = expand(LECTURE);
    expect(got.text).toBe('# Exercises\n\n1. Write `marco` and `polo`.\n\n\n\n2. Read `man ls`.\n');
    // No include run (no missing-file error), no tag reported: the comment is gone whole.
    expect(got.said).toEqual([]);
    expect(got.lines).toEqual([1, 2, 3, 4, 10, 11, 12, 12]);
  });

  it('nest, as Liquid nests them, and take the whitespace-trimming forms', () => {
    const got = expand('a {%- comment -%} b {% comment %} c {% endcomment %} d {%- endcomment -%} e\n');
    expect(got.text).toBe('a  e\n');
    expect(got.said).toEqual([]);
  });

  it('are text in code and inside raw, and a comment in an included file goes there too', () => {
    const inCode = '`{% comment %}` hides text:\n\n```liquid\n{% comment %}draft{% endcomment %}\n```\n';
    expect(expand(inCode)).toMatchObject({ text: inCode, said: [] });
    expect(expand('{% raw %}{% comment %}x{% endcomment %}{% endraw %}\n').text).toBe('{% comment %}x{% endcomment %}\n');
    const included = expand('Before.\n\n{% include "_hint.md" %}\n');
    expect(included.text).toBe('Before.\n\nA hint: use `cd`.\n');
    expect(included.includes).toEqual(['p/s/_hint.md']);
  });

  it('hide nothing when never closed: the tag and the text after it stay as written, with a warning at the tag', () => {
    const got = expand('Intro.\n\n{% comment %}\nSolution: {% include "_hint.md" %}\n');
    expect(got.text).toBe('Intro.\n\n{% comment %}\nSolution: {% include "_hint.md" %}\n');
    expect(got.said).toEqual(['p/s/shell.md:3:1 warning include/unsupported {% comment %} is never closed by {% endcomment %}: learners would see it, and the text after it, as written']);
    expect(got.includes).toEqual([]);
    // One pass, however many openings never close.
    const many = '{% comment %}'.repeat(20_000);
    expect(expand(many)).toMatchObject({ text: many, said: [expect.stringContaining('is never closed')] });
  });

  it('leave a stray {% endcomment %} as written, as any closing tag', () => {
    expect(expand('Done. {% endcomment %}\n')).toMatchObject({ text: 'Done. {% endcomment %}\n', said: [] });
  });
});
