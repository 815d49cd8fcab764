/**
 * A link or image whose address a site generator's template writes (`{{ site.baseurl }}` on a
 * Jekyll site, `{{< ref … >}}` on a Hugo one) is no link to Markdown: learners would read it as
 * text. Each is a warning at its place; coursesync's own `{{ vars.name }}`, code, and an
 * address with no blank in it (a link Markdown makes, checked as any other) are left alone.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { placeOf, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { loadCourse } from '../../src/load/load-course.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const brief = (d: Diagnostic) => `${placeOf(d)} ${d.severity} ${d.code} ${d.message}`;

async function lesson(body: string) {
  const dir = await writeRepo({
    'coursesync.yaml': 'vars:\n  book: /book\nassets:\n  base_url: https://cdn.example.com/\n',
    'p/program.yaml': 'id: prog_a\n',
    'p/s/section.yaml': 'id: sec_a\n',
    'p/s/01-pipes.md': `---\nname: Pipes\nlesson_type: text\n---\n${body}`,
    'p/s/02-next.md': '---\nname: Next\nlesson_type: text\n---\nNext.\n',
    'p/s/img/pipes.png': 'PNG',
  });
  return (await loadCourse(dir, { renderThreads: 1 })).diagnostics.map(brief);
}

describe('links whose address a template writes', () => {
  it('are a warning at each, with the expression named: Jekyll base URLs and filters, Hugo refs', async () => {
    const said = await lesson(['![Pipes]({{ site.baseurl }}/img/pipes.png)', '', 'Read [the next lecture]({{ "/2020/next/" | relative_url }}) and [this]({{< ref "02-next.md" >}}).', ''].join('\n'));
    expect(said).toEqual([
      'p/s/01-pipes.md:5:8 warning include/unsupported the address holds {{ site.baseurl }}, a template expression coursesync does not run: learners would see the link as text, not a link',
      'p/s/01-pipes.md:7:23 warning include/unsupported the address holds {{ "/2020/next/" | relative_url }}, a template expression coursesync does not run: learners would see the link as text, not a link',
      'p/s/01-pipes.md:7:70 warning include/unsupported the address holds {{< ref "02-next.md" >}}, a template expression coursesync does not run: learners would see the link as text, not a link',
    ]);
  });

  it('leave alone coursesync variables, code, and an address Markdown takes as one', async () => {
    const said = await lesson(['[Next]({{ vars.book }}/02-next.md) is a variable.', '', '`[x]({{ site.baseurl }}/a)` in code, and in a fence:', '', '```markdown', '![Pipes]({{ site.baseurl }}/img/pipes.png)', '```', '', '[Broken]({{site.baseurl}}/02-next.md)', ''].join('\n'));
    expect(said.filter((d) => d.includes('template expression'))).toEqual([]);
    // The last is a link to a file the repo does not have, said as any such link is.
    expect(said.some((d) => d.includes('lesson/missing-file') && d.includes('{{site.baseurl}}'))).toBe(true);
  });

  it('costs a step per link on a line of many that never close', async () => {
    const said = await lesson(`{{ ${'](['.repeat(40_000)}]({{ x }})\n`);
    expect(said.filter((d) => d.includes('template expression'))).toHaveLength(1);
  });
});
