/**
 * What another site generator's template writes: a link or image whose address starts with an
 * expression (`{{ site.baseurl }}` on a Jekyll site, `{{< ref … >}}` on a Hugo one) is no link
 * to Markdown, and a Hugo shortcode is text to it: learners would read them as written. Each is
 * a warning at its place; coursesync's own `{{ vars.name }}`, code, an address with no blank in
 * it (a link Markdown makes, checked as any other) and a shortcode's closing tag are left alone.
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

describe('what another site generator\'s template writes', () => {
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
    expect(said.filter((d) => d.includes('include/unsupported'))).toEqual([]);
    // The last is a link Markdown makes, to no file: said so, with why.
    expect(said).toContain('p/s/01-pipes.md:13:1 error lesson/missing-file "%7B%7Bsite.baseurl%7D%7D/02-next.md": no file p/s/{{site.baseurl}}/02-next.md in the repo: its {{ … }} is a template expression coursesync does not run');
  });

  it('says each Hugo shortcode once, its closing tag not again, and none in code or already said in a link', async () => {
    const said = await lesson(['{{< youtube dQw4w9WgXcQ >}}', '', '{{% notice tip %}}Save often.{{% /notice %}}', '', 'See [next]({{< relref "02-next.md" >}}).', '', '```go', '{{< highlight go >}}', '```', ''].join('\n'));
    expect(said.filter((d) => d.includes('include/unsupported'))).toEqual([
      'p/s/01-pipes.md:5:1 warning include/unsupported {{< youtube >}} is a Hugo shortcode coursesync does not run: learners would see it as written',
      // The template tag inside `{{% … %}}` is said as one.
      'p/s/01-pipes.md:7:2 warning include/unsupported {% notice %} is a template tag coursesync does not run (it runs {% include "path" %}, {% raw %} and {% comment %}): learners would see it as written',
      'p/s/01-pipes.md:9:10 warning include/unsupported the address holds {{< relref "02-next.md" >}}, a template expression coursesync does not run: learners would see the link as text, not a link',
    ]);
  });

  it('costs a step per link or shortcode on a line of many that never close', async () => {
    const said = await lesson(`{{ ${'](['.repeat(20_000)}]({{ x }}) ${'{{<a'.repeat(20_000)} {{< b >}}\n`);
    expect(said.filter((d) => d.includes('template expression'))).toHaveLength(1);
    expect(said.filter((d) => d.includes('Hugo shortcode'))).toEqual([expect.stringContaining('{{< b >}} is a Hugo shortcode')]);
  });
});
