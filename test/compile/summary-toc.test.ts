/**
 * A book's structure from its SUMMARY.md (program.yaml `toc:`): chapters are sections in order,
 * nested pages their lessons, parts only group; every bad line, missing or repeated file and
 * unknown mapped title is an error at its place. And links as mdBook writes them: `x.html` is
 * the `x.md` beside it, a folder shows its README or index lesson, a link to Markdown that is
 * not a lesson says why.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { placeOf, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { loadCourse } from '../../src/load/load-course.js';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeRepos, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const CONFIG = 'school:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\nassets:\n  base_url: https://cdn.example.com/\n';
const page = (title: string, text = 'Some text.') => `# ${title}\n\n${text}\n`;
const brief = (d: Diagnostic) => `${placeOf(d)} ${d.severity} ${d.code} ${d.message}`;

async function book(summary: string, files: Record<string, string>, program = 'id: prog_book\ntoc: SUMMARY.md\n') {
  const dir = await writeRepo({ 'coursesync.yaml': CONFIG, 'src/program.yaml': program, 'src/SUMMARY.md': summary, ...files });
  return loadCourse(dir, { renderThreads: 1 });
}

const CHAPTERS = {
  'src/title-page.md': page('The Book'),
  'src/ch01-00-start.md': page('Getting Started', 'Read [the install page](ch01-01-install.html#on-linux) first.'),
  'src/ch01-01-install.md': page('Installation', '## On Linux\n\nRun the script.'),
  'src/ch01-02-hello.md': page('Hello, World!'),
  'src/ch02-00-game.md': page('A Guessing Game'),
  'src/appendix/README.md': page('Appendix'),
  'src/appendix/keywords.md': page('Keywords', 'Back to [the appendix](./).'),
  'src/contributors.md': page('Contributors'),
};

describe('SUMMARY.md', () => {
  it('makes one section per chapter, in order, holding its nested pages; parts, separators and draft pages only group', async () => {
    const result = await book(
      [
        '# Summary',
        '',
        '[The Book](title-page.md)',
        '',
        '- [Getting Started](ch01-00-start.md)',
        '    - [Installation](ch01-01-install.md)',
        // The async book's placeholders and a note after a link: mdBook greys out the one and ignores the other.
        '    - [TODO: Uninstalling]()',
        '    - [Hello, World!](ch01-02-hello.md) (a first program)',
        '* [A Guessing `Game`](ch02-00-game.md)',
        '',
        '---',
        '',
        '# Reference',
        '',
        '- [Appendix](appendix/README.md)',
        '\t- [Keywords](appendix/keywords.md)',
        '- [Draft chapter]()',
        '',
        '<!-- suffix chapters',
        '  end here -->',
        '[Contributors](contributors.md)',
      ].join('\n'),
      CHAPTERS,
      'id: prog_book\ntoc: SUMMARY.md\nsections:\n  The Book: sec_title\n',
    );
    expect(result.diagnostics.map(brief)).toEqual([]);
    const sections = result.desired!.programs[0]!.sections;
    expect(sections.map((s) => [s.ref, s.lessons.map((l) => l.path.replace('src/', ''))])).toEqual([
      [{ id: 'sec_title' }, ['title-page.md']],
      [{ name: 'Getting Started' }, ['ch01-00-start.md', 'ch01-01-install.md', 'ch01-02-hello.md']],
      [{ name: 'A Guessing Game' }, ['ch02-00-game.md']],
      [{ name: 'Appendix' }, ['appendix/README.md', 'appendix/keywords.md']],
      [{ name: 'Draft chapter' }, []],
      [{ name: 'Contributors' }, ['contributors.md']],
    ]);
    const lessons = sections.flatMap((s) => s.lessons);
    // .html links are the .md beside them; a folder link is its README lesson.
    expect(lessons.find((l) => l.key === 'ch01-00-start')!.links).toEqual(['ch01-01-install']);
    expect(lessons.find((l) => l.key === 'keywords')!.links).toEqual(['README']);
  });

  it("takes GitBook's links to the headings of a page listed above as links into it, not pages (the Django Girls tutorial)", async () => {
    const result = await book(
      [
        '# Summary',
        '',
        '* [Introduction](ch01-00-start.md)',
        '* [Installation](ch01-01-install.md)',
        '  * [On Linux](ch01-01-install.md#on-linux)',
        '  * [Hello](ch01-02-hello.md#hello-world)',
        '* [On Linux, again](ch01-01-install.md#on-linux)',
        '* [A Guessing Game](ch02-00-game.md)',
      ].join('\n'),
      CHAPTERS,
    );
    // The unlisted pages are the usual warnings; no line is an error, and no chapter is made of a link into a page.
    expect(result.diagnostics.filter((d) => d.severity === 'error').map(brief)).toEqual([]);
    expect(result.desired!.programs[0]!.sections.map((s) => [s.ref, s.lessons.map((l) => l.path.replace('src/', ''))])).toEqual([
      [{ name: 'Introduction' }, ['ch01-00-start.md']],
      // A heading of a page not listed before is that page, listed here.
      [{ name: 'Installation' }, ['ch01-01-install.md', 'ch01-02-hello.md']],
      [{ name: 'A Guessing Game' }, ['ch02-00-game.md']],
    ]);
  });

  it('names a page without a heading by its title in SUMMARY.md, as mdBook\'s sidebar does; name_from: toc names every page so', async () => {
    // The rustc dev guide's autodiff/internals.md opens with a paragraph: it was lesson/no-name.
    const summary = '# Summary\n\n- [Getting Started](start.md)\n    - [Autodiff `internals`](internals.md)\n    - [Named](named.md)\n';
    const files = {
      'src/start.md': page('Getting started with the compiler'),
      'src/internals.md': 'The `std::autodiff` module allows differentiable programming.\n\n```rust\nfn foo(x: f32) -> f32 { x * x }\n```\n',
      'src/named.md': '---\nname: Its own name\n---\n# A heading\n\nText.\n',
    };
    const names = (r: Awaited<ReturnType<typeof book>>) => r.desired!.programs[0]!.sections.flatMap((s) => s.lessons.map((l) => l.fields.name));
    const byHeading = await book(summary, files);
    expect(byHeading.diagnostics.map(brief)).toEqual([]);
    expect(names(byHeading)).toEqual(['Getting started with the compiler', 'Autodiff internals', 'Its own name']);
    const byToc = await book(summary, files, 'id: prog_book\ntoc: SUMMARY.md\nlesson_defaults:\n  name_from: toc\n');
    expect(byToc.diagnostics.map(brief)).toEqual([]);
    expect(names(byToc)).toEqual(['Getting Started', 'Autodiff internals', 'Its own name']);
    // The heading that is not the name stays in the body: nothing the author wrote is lost.
    expect(byToc.desired!.programs[0]!.sections[0]!.lessons[0]!.fields.body).toContain('Getting started with the compiler</h1>');
  });

  it('reports every bad line, missing or repeated file and unknown mapped title at its place, with what is allowed', async () => {
    const result = await book(
      [
        '# Summary',
        '- [Getting Started](ch01-00-start.md)',
        '    - Installation',
        '    - [Hello](ch01-02-helo.md)',
        'Some prose in the table of contents.',
        '- [Again](ch01-00-start.md)',
        '- [Outside](../README.md)',
        '- [A picture](img/ferris.png)',
        '    - [Draft page]()',
      ].join('\n'),
      { ...CHAPTERS, 'src/ch01-02-hello.md': page('Hello') },
      'id: prog_book\ntoc: SUMMARY.md\nsections:\n  Getting Startd: sec_start\n',
    );
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.map(brief)).toEqual([
      'src/appendix/keywords.md warning toc/unlisted Markdown file is not listed in src/SUMMARY.md, so it is not a lesson',
      'src/appendix/README.md warning toc/unlisted Markdown file is not listed in src/SUMMARY.md, so it is not a lesson',
      // A link to a page SUMMARY.md leaves out says so (never a published .md download).
      'src/ch01-00-start.md:3:6 error lesson/link-not-lesson "ch01-01-install.html#on-linux": src/ch01-01-install.md is not listed in src/SUMMARY.md, so it is not a lesson',
      'src/ch01-01-install.md warning toc/unlisted Markdown file is not listed in src/SUMMARY.md, so it is not a lesson',
      'src/ch01-02-hello.md warning toc/unlisted Markdown file is not listed in src/SUMMARY.md, so it is not a lesson',
      'src/ch02-00-game.md warning toc/unlisted Markdown file is not listed in src/SUMMARY.md, so it is not a lesson',
      'src/contributors.md warning toc/unlisted Markdown file is not listed in src/SUMMARY.md, so it is not a lesson',
      'src/program.yaml:4:3 error toc/unknown-chapter "Getting Startd" is not the title or page of a chapter of src/SUMMARY.md',
      'src/SUMMARY.md:3:7 error toc/bad-line a list item of SUMMARY.md must be a link [Title](file.md), a # heading or a --- separator, not "Installation"',
      'src/SUMMARY.md:4:15 error toc/missing-file no file src/ch01-02-helo.md in the repo',
      'src/SUMMARY.md:5:1 error toc/bad-line a line of SUMMARY.md must be a link [Title](file.md), a # heading or a --- separator, not "Some prose in the table of contents."',
      'src/SUMMARY.md:6:11 error toc/duplicate-file ch01-00-start.md is already listed at line 2: a file is one lesson, in one place',
      'src/SUMMARY.md:7:13 error toc/bad-target "../README.md" leaves the book\'s folder src',
      'src/SUMMARY.md:8:15 error toc/bad-target "img/ferris.png" is not a Markdown file (.md)',
      'src/title-page.md warning toc/unlisted Markdown file is not listed in src/SUMMARY.md, so it is not a lesson',
    ]);
    const missing = result.diagnostics.find((d) => d.code === 'toc/missing-file')!;
    expect(missing.hint).toBe('did you mean src/ch01-02-hello.md?');
    expect(result.diagnostics.find((d) => d.code === 'toc/unknown-chapter')!.hint).toBe('did you mean "Getting Started"?');
  });

  describe('chapters with one title (a "Welcome" opening each part, as Comprehensive Rust has)', () => {
    const summary = ['# Day 1', '', '- [Welcome](day1/welcome.md)', '  - [Hello](day1/hello.md)', '', '# Day 2', '', '- [Welcome](./day2/welcome.md)', '  - [More](day2/more.md)', '- [Draft]()', '  - [Notes](notes.md)'].join('\n');
    const files = {
      'src/day1/welcome.md': page('Welcome to day 1', 'Then [day 2](../day2/welcome.md) and its [next page](../day2/more.md).'),
      'src/day1/hello.md': page('Hello'),
      'src/day2/welcome.md': page('Welcome to day 2'),
      'src/day2/more.md': page('More'),
      'src/notes.md': page('Notes'),
    };

    it('are an error at the second, whose hint names each page to map; its pages stay lessons (no cascade)', async () => {
      const result = await book(summary, files);
      expect(result.desired).toBeUndefined();
      expect(result.diagnostics.map(brief)).toEqual(['src/SUMMARY.md:8:3 error repo/duplicate-section chapter "Welcome" has the same title as the chapter at line 3, so both would be one section']);
      expect(result.diagnostics[0]!.hint).toBe('give one of them another title, or map each to its section id by its page under `sections:` in src/program.yaml (day1/welcome.md: <section id>, day2/welcome.md: <section id>)');
    });

    it('map by their pages (relative to SUMMARY.md) to one section each; a title still maps the others', async () => {
      const result = await book(summary, files, 'id: prog_book\ntoc: SUMMARY.md\nsections:\n  day1/welcome.md: sec_d1\n  day2/welcome.md: sec_d2\n  Draft: sec_draft\n');
      expect(result.diagnostics.filter((d) => d.severity === 'error').map(brief)).toEqual([]);
      const sections = result.desired!.programs[0]!.sections;
      expect(sections.map((s) => [s.ref, s.lessons.map((l) => l.path)])).toEqual([
        [{ id: 'sec_d1' }, ['src/day1/welcome.md', 'src/day1/hello.md']],
        [{ id: 'sec_d2' }, ['src/day2/welcome.md', 'src/day2/more.md']],
        [{ id: 'sec_draft' }, ['src/notes.md']],
      ]);
    });

    it('a chapter mapped to the id a section folder of another program names is an error too (both would be one section)', async () => {
      const dir = await writeRepo({
        'coursesync.yaml': CONFIG,
        'src/program.yaml': 'id: prog_book\ntoc: SUMMARY.md\nsections:\n  day1/welcome.md: sec_d1\n  day2/welcome.md: sec_start\n',
        'src/SUMMARY.md': summary,
        ...files,
        'course/program.yaml': 'id: prog_course\n',
        'course/01-start/section.yaml': 'id: sec_start\n',
        'course/01-start/01-hello.md': page('Hello'),
      });
      const result = await loadCourse(dir, { renderThreads: 1 });
      expect(result.diagnostics.filter((d) => d.severity === 'error').map(brief)).toEqual([
        'src/SUMMARY.md:8:3 error repo/duplicate-section chapter "Welcome" is mapped to section id "sec_start", as is the section folder course/01-start, so both would be one section',
      ]);
    });

    it('one title mapped to one id for both, or a page that is no chapter\'s own, is an error at its place', async () => {
      const result = await book(summary, files, 'id: prog_book\ntoc: SUMMARY.md\nsections:\n  Welcome: sec_w\n  day1/hello.md: sec_h\n');
      expect(result.diagnostics.filter((d) => d.severity === 'error').map(brief)).toEqual([
        'src/program.yaml:5:3 error toc/unknown-chapter "day1/hello.md" is not the title or page of a chapter of src/SUMMARY.md',
        'src/SUMMARY.md:8:3 error repo/duplicate-section chapter "Welcome" is mapped to section id "sec_w", as is the chapter at line 3, so both would be one section',
      ]);
    });
  });

  it('a missing SUMMARY.md, and a section.yaml inside a book, are errors that say what to do', async () => {
    const dir = await writeRepo({ 'src/program.yaml': 'id: prog_book\ntoc: summary.md\n', 'src/SUMMARY.md': '- [A](a.md)\n', 'src/a.md': page('A'), 'src/part/section.yaml': 'id: sec_x\n' });
    const result = await loadCourse(dir, { renderThreads: 1 });
    expect(result.diagnostics.filter((d) => d.severity === 'error').map(brief)).toEqual([
      'src/part/section.yaml error toc/section-yaml the program src takes its sections from src/summary.md, not from section folders',
      'src/program.yaml:2:6 error toc/not-found no file src/summary.md in the repo',
    ]);
  });
  it('a SUMMARY.md the reader refused is reported as what it is, not as missing', async () => {
    const dir = await writeRepo({ 'src/program.yaml': 'id: prog_book\ntoc: SUMMARY.md\n', 'src/a.md': page('A') });
    // Saved in Latin-1 by an old editor: \xe9 alone is no UTF-8.
    await writeFile(join(dir, 'src/SUMMARY.md'), Buffer.from('- [Caf\xe9](a.md)\n', 'latin1'));
    const result = await loadCourse(dir, { renderThreads: 1 });
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['file/not-utf8']);
  });
});

describe('links as books and courses write them', () => {
  it('say why a linked Markdown file is not a lesson, when a folder has no lesson, and that x.html looked for x.md', async () => {
    const dir = await writeRepo({
      'coursesync.yaml': CONFIG,
      'README.md': '# The course\n',
      'course/program.yaml': 'id: prog_intro\n',
      'course/notes.md': '# Notes\n',
      'course/extra/tips.md': '# Tips\n',
      'course/01-basics/section.yaml': 'id: sec_start\n',
      'course/01-basics/README.md': [
        '# Basics',
        '',
        '[course](../../README.md) [notes](../notes.md) [tips](../extra/tips.md)',
        '[code](code/) [install](instal.html) [home](../02-more/index.html) [more](../02-more/)',
      ].join('\n'),
      'course/01-basics/code/main.js': 'console.log(1);\n',
      'course/01-basics/install.md': '# Install\n',
      'course/02-more/section.yaml': 'id: sec_types\n',
      'course/02-more/index.md': '# More\n',
    });
    const result = await loadCourse(dir, { renderThreads: 1 });
    const stray = (d: Diagnostic) => d.code !== 'repo/stray-markdown' && d.code !== 'section/missing-yaml';
    expect(result.diagnostics.filter(stray).map((d) => `${brief(d)} | ${d.hint}`)).toEqual([
      'course/01-basics/README.md:3:1 error lesson/link-not-lesson "../../README.md": README.md is outside every program folder (no program.yaml above it), so it is not a lesson | link a lesson instead, or make the file a lesson (a section\'s Markdown file, or listed in SUMMARY.md), or link its page on the web (https://…; `repo_url:` in coursesync.yaml sends every such link to the repo\'s page of the file)',
      'course/01-basics/README.md:3:27 error lesson/link-not-lesson "../notes.md": course/notes.md is directly in the program folder course, not in a section folder, so it is not a lesson | link a lesson instead, or make the file a lesson (a section\'s Markdown file, or listed in SUMMARY.md), or link its page on the web (https://…; `repo_url:` in coursesync.yaml sends every such link to the repo\'s page of the file)',
      'course/01-basics/README.md:3:48 error lesson/link-not-lesson "../extra/tips.md": course/extra/tips.md is in the folder course/extra, which has no section.yaml, so it is not a lesson | link a lesson instead, or make the file a lesson (a section\'s Markdown file, or listed in SUMMARY.md), or link its page on the web (https://…; `repo_url:` in coursesync.yaml sends every such link to the repo\'s page of the file)',
      'course/01-basics/README.md:4:1 error lesson/folder-without-lesson "code/": the folder course/01-basics/code has no README.md or index.md lesson to show | link a lesson file of the folder, or add a README.md lesson to it, or set `repo_url:` in coursesync.yaml (the repo\'s folder URL on GitHub, say) to link the folder\'s page there',
      'course/01-basics/README.md:4:15 error lesson/missing-file "instal.html": neither course/01-basics/instal.html nor course/01-basics/instal.md is in the repo | an .html link shows the .md file beside it (as in mdBook): did you mean install.html?',
    ]);
  });

  it('a link with no extension goes to the .md lesson of that name, as GitHub Pages serves it; a file or folder of that very name comes first', async () => {
    // Practical Python Programming links its pages both ways: `02_Hello_world.md` and `../07_Advanced_Topics/00_Overview`.
    const dir = await writeRepo({
      'coursesync.yaml': CONFIG,
      'Notes/program.yaml': 'id: prog_pp\n',
      'Notes/01_Introduction/section.yaml': 'id: sec_intro\n',
      'Notes/01_Introduction/01_Python.md': '# 1.1 Python\n\n[Next](02_Hello_world) [Exercises](../02_Data/01_Types#exercises) [data](../02_Data) [notes](notes) [gone](03_Numbrs)\n',
      'Notes/01_Introduction/02_Hello_world.md': '# 1.2 A First Program\n',
      'Notes/01_Introduction/03_Numbers.md': '# 1.3 Numbers\n',
      'Notes/02_Data/README.md': '# 2 Working with data\n',
      'Notes/01_Introduction/notes': 'plain text\n',
      'Notes/02_Data/section.yaml': 'id: sec_data\n',
      'Notes/02_Data/01_Types.md': '# 2.1 Types\n\n## Exercises\n',
    });
    const result = await loadCourse(dir, { renderThreads: 1 });
    expect(result.diagnostics.map((d) => `${brief(d)} | ${d.hint}`)).toEqual([
      'Notes/01_Introduction/01_Python.md:3:101 error lesson/missing-file "03_Numbrs": neither Notes/01_Introduction/03_Numbrs nor Notes/01_Introduction/03_Numbrs.md is in the repo | a link with no extension shows the .md file of that name (as on GitHub Pages): did you mean 03_Numbers.md?',
    ]);
    const fixed = await loadCourse(await writeRepo({ 'Notes/01_Introduction/01_Python.md': '# 1.1 Python\n\n[Next](02_Hello_world) [Exercises](../02_Data/01_Types#exercises) [data](../02_Data) [notes](notes)\n' }, dir), { renderThreads: 1 });
    expect(fixed.diagnostics).toEqual([]);
    const python = fixed.desired!.programs[0]!.sections[0]!.lessons.find((l) => l.path.endsWith('01_Python.md'))!;
    expect(python.links).toEqual(['Hello_world', 'Types', 'README']);
    // A plain file of that name is the file itself (an asset), never the lesson.
    expect(python.assets?.map((a) => a.path)).toEqual(['Notes/01_Introduction/notes']);
  });

  it('with repo_url:, a folder without a lesson, Markdown that is not a lesson and what ignore: leaves out are linked at their pages in the repo; a missing file is still an error', async () => {
    // A GitHub course's module README links its code folder and the course README, as GitHub shows them.
    const files = {
      'coursesync.yaml': `${CONFIG}repo_url: https://github.com/acme/zoomcamp/tree/main\nignore: [drafts/, cohorts/]\n`,
      'README.md': '# The course\n',
      'course/program.yaml': 'id: prog_intro\n',
      'course/01-basics/section.yaml': 'id: sec_start\n',
      'course/01-basics/README.md': '# Basics\n\n[course](../../README.md#syllabus) [code](code/) [data](<../../data sets/>) [gone](code/missing.py)\n\n[ci](../../.github/) ![plan](../../drafts/plan.png)\n\n[2024](../../cohorts/2024/) [homework](../../cohorts/2024/01-basics/homework.md#q1) [notebook](../../cohorts/2024/01-basics/nb.ipynb)\n',
      'course/01-basics/homework.md': '# Homework\n\nSee [the module](./).\n',
      'course/01-basics/code/main.py': 'print(1)\n',
      'data sets/taxi.csv': 'a,b\n',
      '.github/workflows/ci.yml': 'on: push\n',
      'drafts/README.md': '# Not yet\n',
      'drafts/plan.png': 'PNG',
      'cohorts/2024/01-basics/homework.md': '# Homework 2024\n\n## Q1\n',
      'cohorts/2024/01-basics/nb.ipynb': '{}\n',
    };
    const dir = await writeRepo(files);
    const result = await loadCourse(dir, { renderThreads: 1 });
    // Only what the repo holds: a typo stays an error, a hidden folder is never read, and a page is no image.
    expect(result.diagnostics.map(brief)).toEqual([
      'course/01-basics/README.md:3:77 error lesson/missing-file "code/missing.py": no file course/01-basics/code/missing.py in the repo',
      'course/01-basics/README.md:5:1 error lesson/missing-file "../../.github/": .github is hidden (its name starts with a dot): coursesync never reads nor publishes such files, which may be secrets (.env, .git)',
      'course/01-basics/README.md:5:22 error lesson/missing-file "../../drafts/plan.png": drafts/plan.png is left out by `ignore:` in coursesync.yaml',
    ]);
    const fixed = await writeRepo({ ...files, 'course/01-basics/README.md': files['course/01-basics/README.md'].replace(/ \[gone\]\([^)]*\)/, '').replace(/\n\n\[ci\][^\n]*/, '') });
    const lessons = (await loadCourse(fixed, { renderThreads: 1 })).desired!.programs[0]!.sections[0]!.lessons;
    const readme = lessons.find((l) => l.key === 'README')!;
    expect(readme.fields.body).toContain('href="https://github.com/acme/zoomcamp/tree/main/README.md#syllabus"');
    expect(readme.fields.body).toContain('href="https://github.com/acme/zoomcamp/tree/main/course/01-basics/code/"');
    expect(readme.fields.body).toContain('href="https://github.com/acme/zoomcamp/tree/main/data%20sets/"');
    // Past cohorts are left out of the course, not of the repo: their pages, a folder's with its slash.
    expect(readme.fields.body).toContain('href="https://github.com/acme/zoomcamp/tree/main/cohorts/2024/"');
    expect(readme.fields.body).toContain('href="https://github.com/acme/zoomcamp/tree/main/cohorts/2024/01-basics/homework.md#q1"');
    expect(readme.fields.body).toContain('href="https://github.com/acme/zoomcamp/tree/main/cohorts/2024/01-basics/nb.ipynb"');
    // Nothing of those is published as an asset; the lesson is recorded with each page it links (known-lesson-check.test.ts).
    expect(readme.assets ?? []).toEqual([]);
    expect(readme.build?.deps.filter((d) => d.kind === 'page').map((d) => d.path)).toEqual(['README.md', 'cohorts/2024', 'cohorts/2024/01-basics/homework.md', 'cohorts/2024/01-basics/nb.ipynb', 'course/01-basics/code', 'data sets']);
    // The folder link of a lesson beside a README is still the README lesson.
    expect(lessons.find((l) => l.key === 'homework')!.links).toEqual(['README']);
    expect(lessons.find((l) => l.key === 'homework')!.build).toBeDefined();
  });
});
