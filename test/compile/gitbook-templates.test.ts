/**
 * A GitBook book as its authors wrote it: `{% include "path" %}` brings in a file (relative to
 * the page, `/…` from the book's root), `{% raw %}` … `{% endraw %}` keeps text as written and
 * the tags go, any other tag is a warning at its place, and code is left as written (GitBook
 * escapes it). A file a page includes is not an unlisted page. And where code is, for that.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { codeRanges, inCode } from '../../src/compile/code-ranges.js';
import { expandIncludes } from '../../src/compile/expand-includes.js';
import { placeOf, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { loadCourse } from '../../src/load/load-course.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';
import { createRng } from '../reliability/random.js';

afterAll(removeRepos);

const CONFIG = 'school:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\nassets:\n  base_url: https://cdn.example.com/\n';
const brief = (d: Diagnostic) => `${placeOf(d)} ${d.severity} ${d.code} ${d.message}`;

const SUMMARY = ['# Summary', '', '* [Introduction](README.md)', '* [Deploy!](deploy/README.md)', '* [Django templates](django_templates/README.md)', ''].join('\n');

const DEPLOY = [
  '# Deploy!',
  '',
  'First, Git.',
  '',
  '{% include "/deploy/install_git.md" %}',
  '',
  'Then an account:',
  '',
  "{% include './signup.md' %}",
  '',
].join('\n');

const TEMPLATES = [
  '# Django templates',
  '',
  '{% raw %}Everything between `{% for %}` and `{% endfor %}` is repeated.{% endraw %}',
  '',
  '{% filename %}blog/templates/blog/post_list.html{% endfilename %}',
  '```html',
  '{% for post in posts %}',
  '    {% include "./post.html" %}',
  '{% endfor %}',
  '```',
  '',
  'Inline code is left as written too: `{% csrf_token %}`.',
  '',
].join('\n');

const FILES: Record<string, string> = {
  'coursesync.yaml': CONFIG,
  'en/program.yaml': 'id: prog_girls\ntoc: SUMMARY.md\n',
  'en/SUMMARY.md': SUMMARY,
  'en/README.md': '# Django Girls Tutorial\n\nWelcome.\n',
  'en/deploy/README.md': DEPLOY,
  'en/deploy/install_git.md': '## Installing Git\n\nDownload [Git](https://git-scm.com/).\n',
  'en/deploy/signup.md': '## Create an account\n\n![Sign-up page](images/signup.png)\n',
  'en/deploy/images/signup.png': 'PNG',
  'en/django_templates/README.md': TEMPLATES,
};

async function book(changes: Record<string, string> = {}) {
  const dir = await writeRepo({ ...FILES, ...changes });
  const result = await loadCourse(dir, { renderThreads: 1 });
  const lessons = new Map(result.desired?.programs.flatMap((p) => p.sections.flatMap((s) => s.lessons.map((l) => [l.path, l] as const))) ?? []);
  return { result, lessons };
}

describe('GitBook templates', () => {
  it('includes files by path (relative, or from the book root) and they are not unlisted pages', async () => {
    const { result, lessons } = await book();
    expect(result.diagnostics.map(brief)).toEqual([
      'en/django_templates/README.md:5:1 warning include/unsupported {% filename %} is a template tag coursesync does not run (it runs {% include "path" %}, {% raw %} and {% comment %}): learners would see it as written',
    ]);
    const deploy = lessons.get('en/deploy/README.md')!;
    expect(deploy.fields.body).not.toContain('{%');
    expect(deploy.fields.body).toContain('<h2 id="installing-git">Installing Git</h2>');
    expect(deploy.fields.body).toContain('<h2 id="create-an-account">Create an account</h2>');
    // The included file's image resolves from where that file lies.
    expect(deploy.assets?.map((a) => a.path)).toEqual(['en/deploy/images/signup.png']);
    expect(deploy.build?.includes?.map((i) => i.path)).toEqual(['en/deploy/install_git.md', 'en/deploy/signup.md']);
  });

  it('drops the raw tags and keeps what lies between, and leaves code (fenced and inline) as written', async () => {
    const { lessons } = await book();
    const body = lessons.get('en/django_templates/README.md')!.fields.body;
    expect(body).toContain('<p>Everything between <code>{% for %}</code> and <code>{% endfor %}</code> is repeated.</p>');
    expect(body).not.toContain('raw %}');
    expect(body).toContain('<pre><code class="language-html">{% for post in posts %}\n    {% include "./post.html" %}\n{% endfor %}\n</code></pre>');
    expect(body).toContain('<code>{% csrf_token %}</code>');
    // The tag coursesync does not run is shown as written, as the warning says.
    expect(body).toContain('{% filename %}blog/templates/blog/post_list.html{% endfilename %}');
  });

  it('reports a missing include at its place, with the closest name, and an unclosed raw keeps the rest as written', async () => {
    const { result, lessons } = await book({
      'en/deploy/README.md': DEPLOY.replace('/deploy/install_git.md', '/deploy/instal_git.md'),
      'en/README.md': '# Django Girls Tutorial\n\n{% raw %}Welcome to {% if %} and {{#include x.md}}.\n',
    });
    expect(result.diagnostics.map(brief)).toContain(
      'en/deploy/README.md:5:1 error include/missing-file {% include "/deploy/instal_git.md" %}: no file en/deploy/instal_git.md in the repo',
    );
    expect(result.diagnostics.find((d) => d.code === 'include/missing-file')?.hint).toBe('did you mean en/deploy/install_git.md?');
    expect(lessons.size).toBe(0);
    const fixed = await book({ 'en/README.md': '# Django Girls Tutorial\n\n{% raw %}Welcome to {% if %} and {{#include x.md}}.\n' });
    expect(fixed.result.diagnostics.filter((d) => d.file === 'en/README.md')).toEqual([]);
    expect(fixed.lessons.get('en/README.md')!.fields.body).toContain('<p>Welcome to {% if %} and {{#include x.md}}.</p>');
  });

  it('leaves the tags of a file brought into code as written, however deep: a Jinja listing in a fence is code', async () => {
    const listing = '{% extends "base.html" %}\n{% block content %}\n    {% include "nav.html" %}\n{% endblock %}\n';
    const { result, lessons } = await book({
      'en/django_templates/README.md': '# Django templates\n\n```html\n{{#include ../../templates/post_list.html}}\n```\n\n```html\n{{#include ../../templates/_wrapper.md}}\n```\n',
      'templates/post_list.html': listing,
      'templates/_wrapper.md': 'Wrapped:\n{{#include post_list.html}}\n',
    });
    expect(result.diagnostics.map(brief)).toEqual([]);
    const body = lessons.get('en/django_templates/README.md')!.fields.body;
    expect(body).toContain(`<pre><code class="language-html">${listing}</code></pre>`);
    expect(body).toContain(`<pre><code class="language-html">Wrapped:\n${listing}</code></pre>`);
  });

  it('says an included file that is also listed nowhere and included by no page is unlisted', async () => {
    const { result } = await book({ 'en/deploy/README.md': '# Deploy!\n\nNothing included.\n' });
    expect(result.diagnostics.map(brief)).toContain('en/deploy/install_git.md warning toc/unlisted Markdown file is not listed in en/SUMMARY.md, so it is not a lesson');
    expect(result.diagnostics.map(brief)).toContain('en/deploy/signup.md warning toc/unlisted Markdown file is not listed in en/SUMMARY.md, so it is not a lesson');
  });
});

describe('directives and tags in hostile bodies', () => {
  const none = { textOf: () => undefined, paths: () => [] };
  const expand = (text: string) => {
    const out: Diagnostic[] = [];
    return { text: expandIncludes('p/s/a.md', text, 1, none, out).text, codes: out.map((d) => d.code) };
  };

  it('costs one pass for many openings that never close (each of these took seconds to minutes, one scan per opening)', () => {
    // 200 KB each, the size of the largest lesson a school takes.
    for (const text of ['\\{{#'.repeat(50_000), '\\{{#x\n'.repeat(30_000), '{{#a b '.repeat(30_000), `{% ${'a'.repeat(200_000)}`, '{% a '.repeat(40_000)]) {
      expect(expand(text)).toEqual({ text, codes: [] });
    }
    expect(expand(`${'{% raw %}'.repeat(20_000)}x`).text).toBe(`${'{% raw %}'.repeat(19_999)}x`);
  });

  it('takes any mix of tags, directives, fences and backticks without throwing, a line origin for every line', () => {
    const rng = createRng(27);
    const parts = ['{% raw %}', '{% endraw %}', '{% comment %}', '{% endcomment %}', '{% include "a.md" %}', "{%- include '/b.md' -%}", '{% if x %}', '{%', '%}', '`', '``', '```', '~~~', '\n', '\n\n', ' ', '> ', '\\{{#', '}}', '{{#include a.md}}', '{{#x', 'text'];
    const files = { textOf: (p: string) => (p === 'p/s/a.md' ? '{% include "b.md" %} `{% raw %}`' : p === 'p/b.md' ? 'b {% endraw %}' : undefined), paths: () => ['p/s/a.md', 'p/b.md'] };
    for (let n = 0; n < 2000; n++) {
      let text = '';
      for (let i = rng.int(0, 40); i > 0; i--) text += rng.pick(parts);
      const ranges = codeRanges(text);
      ranges.forEach(([a, b], i) => expect(0 <= a && a < b && b <= text.length && (i === 0 || ranges[i - 1]![1] <= a)).toBe(true));
      const expanded = expandIncludes('p/s/lesson.md', text, 1, files, [], 'p');
      expect(expanded.origins).toHaveLength(expanded.text.split('\n').length);
    }
  });

  it('keeps mdBook\'s escape to its line\'s last }}, and a directive split over lines', () => {
    expect(expand('x \\{{#include a.rs}} y }} z\n\\{{#nope\n').text).toBe('x {{#include a.rs}} y }} z\n\\{{#nope\n');
    expect(expand('{{#include\nb.rs}}').codes).toEqual(['include/missing-file']);
  });
});

describe('code ranges', () => {
  const code = (text: string) => codeRanges(text).map(([a, b]) => text.slice(a, b));

  it('finds fences of backticks and tildes, closed by a fence at least as long, or open to the end', () => {
    expect(code('a\n```js\nx\n```\nb')).toEqual(['```js\nx\n```']);
    expect(code('~~~~\nx\n~~~\n~~~~~\ny')).toEqual(['~~~~\nx\n~~~\n~~~~~']);
    expect(code('> ```\n> {% raw %}\n> ```\n')).toEqual(['> ```\n> {% raw %}\n> ```']);
    expect(code('text\n````\nnever closed\n```')).toEqual(['````\nnever closed\n```']);
  });

  it('pairs a run of backticks with the next run of its length in the same paragraph', () => {
    expect(code('a `b` c ``d ` e`` f')).toEqual(['`b`', '``d ` e``']);
    expect(code('a `b\nc` d')).toEqual(['`b\nc`']);
    // A blank line ends the paragraph: the run has no partner.
    expect(code('a `b\n\nc` d')).toEqual([]);
    expect(code('\\`not code` `code`')).toEqual(['` `']);
    expect(code('``` `inline` ```')).toEqual(['``` `inline` ```']);
  });

  it('answers whether an offset is in code, and stays linear on runs that never pair', () => {
    const text = 'x `a` y';
    expect([0, 2, 4, 5].map((i) => inCode(codeRanges(text), i))).toEqual([false, true, true, false]);
    // 2,000 runs of distinct lengths with no partner: each run is looked at a bounded number of times.
    let hostile = '';
    for (let n = 1; n <= 2000; n++) hostile += `${'`'.repeat(n)} `;
    expect(codeRanges(hostile)).toEqual([]);
  });
});
