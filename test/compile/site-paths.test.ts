/**
 * Links written as addresses on the course's own site (a Gatsby or Jekyll permalink such as
 * `/en/part1/javascript#variables`, `/2020/editors/`): program.yaml `site_paths:` maps an
 * address to the page's Markdown file, or to the folder the site serves under it. Such a link
 * then goes to that lesson (its fragment checked there) or file; an address it does not map is
 * a missing file whose hint names the key; a mapping to nothing is an error at its line.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { placeOf, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { loadCourse } from '../../src/load/load-course.js';
import { lessonLinkMarker } from '../../src/model/lesson-links.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const brief = (d: Diagnostic) => `${placeOf(d)} ${d.severity} ${d.code} ${d.message}`;

/** A part of a Full-Stack-Open-like course: Gatsby's front-matter, a content div, the site's own addresses. */
const PART1A = `---
mainImage: ../../../images/part-1.svg
part: 1
letter: a
lang: en
---

<div class="content">

We will now start getting familiar with [React](https://react.dev/). The basics of the
language are in [the next part](/en/part1/java_script#variables), and how the web works was
covered in [part 0](/en/part0/).

![The tool's first question](../../images/1/1-create-vite.png)

\`\`\`js
const App = () => <p>Hello world</p>
\`\`\`

| command | what it does |
|---|---|
| \`npm run dev\` | starts the app |

</div>
`;

const PART1B = `---
part: 1
letter: b
lang: en
---

<div class="content">

### Variables

In JavaScript there are a few ways to define variables:

\`\`\`js
const x = 1
let y = 5
\`\`\`

### Arrays

See [the introduction](/en/part1/introduction_to_react/) again.

</div>
`;

const PART0 = `---
part: 0
lang: en
---

<div class="intro">

In this part, we will familiarize ourselves with the practicalities of taking the course.

</div>
`;

const FILES = {
  'coursesync.yaml': 'front_matter:\n  ignore: [mainImage, part, letter, lang]\nlesson_defaults:\n  lesson_type: text\n  name_from: toc\nschool:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\nassets:\n  base_url: https://cdn.example.com/\n',
  'src/content/program.yaml': [
    'id: prog_fso',
    'toc: coursesync-toc.md',
    'site_paths:',
    '  /en/part0: 0/en/part0.md',
    '  /en/part1/introduction_to_react: 1/en/part1a.md',
    '  /en/part1/java_script: 1/en/part1b.md',
    '',
  ].join('\n'),
  'src/content/coursesync-toc.md': '# Full Stack open\n\n- [Part 0](0/en/part0.md)\n- [Part 1](1/en/part1a.md)\n  - [JavaScript](1/en/part1b.md)\n',
  'src/content/0/en/part0.md': PART0,
  'src/content/1/en/part1a.md': PART1A,
  'src/content/1/en/part1b.md': PART1B,
  'src/content/images/1/1-create-vite.png': 'PNG',
};

async function compile(files: Record<string, string>) {
  const dir = await writeRepo(files);
  const result = await loadCourse(dir, { renderThreads: 1 });
  const lessons = new Map((result.desired?.programs ?? []).flatMap((p) => p.sections.flatMap((s) => s.lessons)).map((l) => [l.path, l]));
  return { said: result.diagnostics.map(brief), hints: result.diagnostics.map((d) => d.hint), lessons };
}

describe('links written as addresses on the course site (program.yaml site_paths:)', () => {
  it('go to the lesson mapped at the address, with its fragment, a trailing / or not', async () => {
    const { said, lessons } = await compile(FILES);
    expect(said).toEqual([]);
    const a = lessons.get('src/content/1/en/part1a.md')!;
    const b = lessons.get('src/content/1/en/part1b.md')!;
    const zero = lessons.get('src/content/0/en/part0.md')!;
    expect(a.fields.body).toContain(`href="${lessonLinkMarker(b.key)}#variables"`);
    expect(a.fields.body).toContain(`href="${lessonLinkMarker(zero.key)}"`);
    expect(b.fields.body).toContain(`href="${lessonLinkMarker(a.key)}"`);
    // What it shows otherwise is resolved as in any lesson.
    expect(a.fields.body).toMatch(/src="https:\/\/cdn\.example\.com\/1-create-vite\.[0-9a-f]{16}\.png"/);
  });

  it("check the fragment against the mapped lesson's headings", async () => {
    const { said } = await compile({ ...FILES, 'src/content/1/en/part1a.md': PART1A.replace('java_script#variables', 'java_script#varibles') });
    expect(said).toEqual(['src/content/1/en/part1a.md:11:17 error lesson/missing-anchor #varibles: no heading or anchor with this id in src/content/1/en/part1b.md']);
  });

  it("map a folder the site serves under an address: a Jekyll collection's pages and files", async () => {
    const { said, lessons } = await compile({
      'coursesync.yaml': 'lesson_defaults:\n  lesson_type: text\nschool:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\nassets:\n  base_url: https://cdn.example.com/\n',
      'program.yaml': 'id: prog_ms\nsite_paths:\n  /2020/: _2020/\n',
      '_2020/section.yaml': 'id: sec_2020\n',
      '_2020/editors.md': '# Editors (Vim)\n\n## Advanced Vim\n\nGet [the vimrc](/2020/files/vimrc) and read [the shell lecture](/2020/shell/#exercises).\n',
      '_2020/shell.md': '# The Shell\n\n## Exercises\n\n1. Use [Vim](/2020/editors/#advanced-vim).\n',
      '_2020/files/vimrc': 'set nocompatible\n',
    });
    expect(said).toEqual([]);
    const editors = lessons.get('_2020/editors.md')!;
    expect(editors.fields.body).toContain(`href="${lessonLinkMarker(lessons.get('_2020/shell.md')!.key)}#exercises"`);
    expect(editors.fields.body).toMatch(/href="https:\/\/cdn\.example\.com\/vimrc\.[0-9a-f]{16}"/);
    expect(lessons.get('_2020/shell.md')!.fields.body).toContain(`href="${lessonLinkMarker(editors.key)}#advanced-vim"`);
  });

  it("send an address of a page `ignore:` leaves out (a past year's lecture) to that page in the repo", async () => {
    const files = {
      'coursesync.yaml': 'ignore: [_2019/]\nrepo_url: https://github.com/missing-semester/missing-semester/tree/master/\nlesson_defaults:\n  lesson_type: text\nschool:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\n',
      'program.yaml': 'id: prog_ms\nsite_paths:\n  /2020/: _2020/\n  /2019/: _2019/\n',
      '_2020/section.yaml': 'id: sec_2020\n',
      '_2020/security.md': '# Security and Cryptography\n\nLast year\'s [security lecture](/2019/security/) covers more on passwords.\n',
      '_2019/section.yaml': 'id: sec_2019\n',
      '_2019/security.md': '# Security and Privacy\n\nPasswords.\n',
    };
    const linked = await compile(files);
    expect(linked.said).toEqual([]);
    expect(linked.lessons.get('_2020/security.md')!.fields.body).toContain('href="https://github.com/missing-semester/missing-semester/tree/master/_2019/security.md"');
    // Without repo_url: an error naming the page ignore: leaves out.
    const unlinked = await compile({ ...files, 'coursesync.yaml': files['coursesync.yaml'].replace(/repo_url: .*\n/, '') });
    expect(unlinked.said).toEqual(['_2020/security.md:3:13 error lesson/missing-file "/2019/security/": _2019/security.md is left out by `ignore:` in coursesync.yaml']);
  });

  it('leave an address they do not map a missing file, whose hint names site_paths:', async () => {
    const { said, hints } = await compile({ ...FILES, 'src/content/1/en/part1b.md': PART1B.replace('/en/part1/introduction_to_react/', '/en/part2/forms') });
    expect(said).toEqual(['src/content/1/en/part1b.md:20:5 error lesson/missing-file "/en/part2/forms": neither en/part2/forms nor en/part2/forms.md is in the repo']);
    expect(hints[0]).toContain('`site_paths:` in program.yaml');
  });

  it('report a mapping to no file or folder at its line, and the links to that address where they are', async () => {
    const program = FILES['src/content/program.yaml'].replace('1/en/part1b.md', '1/en/part1c.md');
    const { said } = await compile({ ...FILES, 'src/content/program.yaml': program });
    expect(said).toEqual([
      'src/content/1/en/part1a.md:11:17 error lesson/missing-file "/en/part1/java_script#variables": neither en/part1/java_script nor en/part1/java_script.md is in the repo',
      'src/content/program.yaml:6:26 error program/site-path-not-found /en/part1/java_script is mapped to "1/en/part1c.md", and the repo has no Markdown file or folder src/content/1/en/part1c.md',
    ]);
  });

  it('refuse an address that does not start with /, at its key, with what would be right', async () => {
    const { said } = await compile({ ...FILES, 'src/content/program.yaml': FILES['src/content/program.yaml'] + '  en/part2: 2/en/part2.md\n' });
    expect(said).toContain('src/content/program.yaml:7:3 error program/invalid-field "site_paths.en/part2" is not a valid key: it must start with / and hold no blank, ? or # (an address as a link writes it: /en/part1/intro)');
  });
});
