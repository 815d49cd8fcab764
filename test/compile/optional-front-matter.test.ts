/**
 * Front-matter is optional: a Markdown file without it is a lesson named by its first heading,
 * and a body opening with a heading equal to the lesson's name does not send it (the school
 * prints the name above the body), unless `keep_title:` says to.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { placeOf } from '../../src/diagnostics/diagnostic.js';
import { loadCourse } from '../../src/load/load-course.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const SMART_POINTERS = [
  '# Using `Box<T>` to Point to Data on the Heap',
  '',
  'The most straightforward smart pointer is a _box_, whose type is written `Box<T>`.',
  '',
  '| Pointer | Owns | Heap |',
  '| --- | --- | --- |',
  '| `&T` | no | no |',
  '| `Box<T>` | yes | yes |',
  '',
  '```rust',
  'fn main() {',
  '    let b = Box::new(5);',
  '    println!("b = {b}");',
  '}',
  '```',
  '',
  '## Enabling Recursive Types with Boxes',
  '',
  'A value of a recursive type can have another value of the same type as part of itself.',
].join('\n');

async function compileFiles(files: Record<string, string>) {
  const dir = await writeRepo({ 'book/program.yaml': 'id: prog_intro\n', 'book/s/section.yaml': 'id: sec_start\n', ...files });
  return loadCourse(dir, { renderThreads: 1 });
}

describe('a lesson without front-matter', () => {
  it('is named by its first heading, as plain text, and that heading is not sent in the body', async () => {
    const result = await compileFiles({ 'book/s/ch15-01-box.md': SMART_POINTERS });
    expect(result.diagnostics).toEqual([]);
    const lesson = result.desired!.programs[0]!.sections[0]!.lessons[0]!;
    expect(lesson.key).toBe('ch15-01-box');
    expect(lesson.fields.name).toBe('Using Box<T> to Point to Data on the Heap');
    expect(lesson.fields.body).not.toContain('<h1');
    expect(lesson.fields.body).toMatch(/^<p>The most straightforward smart pointer/);
    expect(lesson.fields.body).toContain('<h2 id="enabling-recursive-types-with-boxes">Enabling Recursive Types with Boxes</h2>');
  });

  it('takes the first heading of any level, after other text, and keeps it in the body then', async () => {
    const result = await compileFiles({ 'book/s/notes.md': 'Some words first.\n\n## Notes on ownership\n\nMore.\n' });
    const lesson = result.desired!.programs[0]!.sections[0]!.lessons[0]!;
    expect(lesson.fields.name).toBe('Notes on ownership');
    expect(lesson.fields.body).toContain('<h2 id="notes-on-ownership">Notes on ownership</h2>');
  });

  it('without any heading is an error at its first line that says how to name it', async () => {
    const result = await compileFiles({ 'book/s/notes.md': 'Just words, no title.\n' });
    expect(result.desired).toBeUndefined();
    expect(result.diagnostics.map((d) => `${placeOf(d)} ${d.code} ${d.message}`)).toEqual([
      'book/s/notes.md:1:1 lesson/no-name lesson has no front-matter and no heading to take its name from',
    ]);
    expect(result.diagnostics[0]!.hint).toMatch(/^start the body with a heading/);
  });
});

describe('name_from: file (The Odin Project: every page opens with ### Introduction)', () => {
  const ODIN_PAGE = ['### Introduction', '', 'Things are about to get *really* exciting.', '', '### Lesson overview', '', '- How to define functions.', '', '```javascript', 'function favoriteAnimal(animal) {', '  return animal + " is my favorite animal!"', '}', '```', ''].join('\n');

  it('names each lesson without name: by its file (a README by its folder); the heading stays in the body; name: still wins', async () => {
    const result = await compileFiles({
      'book/s/section.yaml': 'id: sec_start\nlesson_defaults:\n  name_from: file\n',
      'book/s/02-function_basics.md': ODIN_PAGE,
      'book/s/DOM-manipulation_and_events.md': ODIN_PAGE,
      'book/s/README.md': ODIN_PAGE,
      'book/s/named.md': `---\nname: Clean code\n---\n${ODIN_PAGE}`,
    });
    expect(result.diagnostics.map((d) => `${placeOf(d)} ${d.code}`)).toEqual([]);
    const lessons = result.desired!.programs[0]!.sections[0]!.lessons;
    expect(lessons.map((l) => [l.path, l.fields.name])).toEqual([
      ['book/s/README.md', 'S'],
      ['book/s/02-function_basics.md', 'Function basics'],
      ['book/s/DOM-manipulation_and_events.md', 'DOM manipulation and events'],
      ['book/s/named.md', 'Clean code'],
    ]);
    expect(lessons[1]!.fields.body).toContain('<h3 id="introduction">Introduction</h3>');
  });

  it('a lesson of its own may say name_from: file; without it the first heading names it, as before', async () => {
    const result = await compileFiles({ 'book/s/function_basics.md': `---\nname_from: file\n---\n${ODIN_PAGE}`, 'book/s/loops.md': ODIN_PAGE });
    expect(result.desired!.programs[0]!.sections[0]!.lessons.map((l) => l.fields.name)).toEqual(['Function basics', 'Introduction']);
  });
});

describe("name_from: title (Jekyll, Hugo, Docusaurus, Quarto and the Carpentries name a page by its title:)", () => {
  const EPISODE = (title: string) => `---\n${title}teaching: 5\n---\n\n::: objectives\n\n- Explain what the shell is.\n\n:::\n\n### What is the Shell?\n\nA **shell** is a program that lets you type commands.\n`;
  const config = 'front_matter:\n  ignore: [teaching]\nlesson_defaults:\n  name_from: title\n';

  it("names each lesson without name: by its title:, which is no unknown key then; name: still wins; without a title:, the first heading", async () => {
    const result = await compileFiles({
      'coursesync.yaml': config,
      'book/s/01-intro.md': EPISODE('title: Introducing the Shell\n'),
      'book/s/02-year.md': EPISODE('title: 2024\n'),
      'book/s/03-named.md': EPISODE('title: Theirs\nname: Ours\n'),
      'book/s/04-untitled.md': EPISODE(''),
      'book/s/05-toml.md': '+++\ntitle = "Usage"\n+++\n\nRun it.\n',
    });
    expect(result.diagnostics).toEqual([]);
    const lessons = result.desired!.programs[0]!.sections[0]!.lessons;
    expect(lessons.map((l) => l.fields.name)).toEqual(['Introducing the Shell', '2024', 'Ours', 'What is the Shell?', 'Usage']);
    expect(lessons[0]!.fields.body).toContain('<h3 id="what-is-the-shell">What is the Shell?</h3>');
  });

  it('without it, title: is an unknown key whose hint names both ways; a title that is no text stays one under it', async () => {
    const without = await compileFiles({ 'coursesync.yaml': 'front_matter:\n  ignore: [teaching]\n', 'book/s/01-intro.md': EPISODE('title: Introducing the Shell\n') });
    expect(without.diagnostics.map((d) => [placeOf(d), d.code, d.hint])).toEqual([
      ['book/s/01-intro.md:2:1', 'lesson/unknown-key', 'coursesync calls it "name": name: "Introducing the Shell"; or, to leave the files as they are, `lesson_defaults: { name_from: title }` in coursesync.yaml takes every lesson\'s title: as its name'],
    ]);
    const list = await compileFiles({ 'coursesync.yaml': config, 'book/s/01-intro.md': EPISODE('title: [a, b]\n') });
    expect(list.diagnostics.map((d) => [placeOf(d), d.code])).toEqual([['book/s/01-intro.md:2:1', 'lesson/unknown-key']]);
  });
});

describe('a leading heading equal to the name', () => {
  it('is dropped when front-matter gives the same name, kept when the name differs', async () => {
    const result = await compileFiles({
      'book/s/01-same.md': '---\nname: Getting   started\n---\n# Getting started\n\nHello.\n',
      'book/s/02-other.md': '---\nname: Setup\n---\n# Installing Rust\n\nHello.\n',
    });
    const [same, other] = result.desired!.programs[0]!.sections[0]!.lessons;
    expect(same!.fields.body).toBe('<p>Hello.</p>\n');
    expect(other!.fields.body).toBe('<h1 id="installing-rust">Installing Rust</h1>\n<p>Hello.</p>\n');
  });

  it('is kept with keep_title, in front-matter or as a lesson default, and a link to its anchor still resolves', async () => {
    const result = await compileFiles({
      'book/program.yaml': 'id: prog_intro\nlesson_defaults:\n  keep_title: true\n',
      'book/s/01-kept.md': '# Kept\n\nSee [below](#kept).\n',
      'book/s/02-dropped.md': '---\nkeep_title: false\n---\n# Dropped\n\nBack to [the top](#dropped).\n',
    });
    expect(result.diagnostics).toEqual([]);
    const [kept, dropped] = result.desired!.programs[0]!.sections[0]!.lessons;
    expect(kept!.fields.body).toMatch(/^<h1 id="kept">Kept<\/h1>/);
    expect(dropped!.fields.body).toBe('<p>Back to <a href="#dropped">the top</a>.</p>\n');
  });
});

describe('a title in the banner a GitHub course opens its pages with', () => {
  it('is dropped from the banner, whose badges and author line stay', async () => {
    // 30 Days Of Python: every day opens so, and learners saw the title twice on each page.
    const banner = [
      '<div align="center">',
      '  <h1> 30 Days Of Python: Day 2 - Variables, Builtin Functions</h1>',
      '  <a class="header-badge" target="_blank" href="https://twitter.com/Asabeneh">',
      '  <img alt="Twitter Follow" src="https://img.shields.io/twitter/follow/asabeneh?style=social">',
      '  </a>',
      '',
      '<sub>Author: Asabeneh Yetayeh</sub>',
      '',
      '</div>',
      '',
      '# 📘 Day 2',
      '',
      'Built-in functions are globally available.',
    ].join('\n');
    const result = await compileFiles({ 'book/s/02_variables.md': banner, 'book/s/03_notes.md': '<div class="note">\n\nRead this first.\n\n</div>\n\n# Notes\n\nMore.\n' });
    expect(result.diagnostics).toEqual([]);
    const [day, notes] = result.desired!.programs[0]!.sections[0]!.lessons;
    expect(day!.fields.name).toBe('30 Days Of Python: Day 2 - Variables, Builtin Functions');
    expect(day!.fields.body).not.toContain('<h1> 30 Days');
    expect(day!.fields.body).toMatch(/^<div align="center">\s*<a class="header-badge"/);
    expect(day!.fields.body).toContain('<sub>Author: Asabeneh Yetayeh</sub>');
    expect(day!.fields.body).toContain('Day 2</h1>');
    // A block with text before the heading is something to read: the heading stays.
    expect(notes!.fields.name).toBe('Notes');
    expect(notes!.fields.body).toContain('<h1 id="notes">Notes</h1>');
  });
});

describe('TOML front-matter, between +++ lines (Hugo, Zola)', () => {
  it('is read like YAML front-matter: its keys, their errors at their lines, the keys of other tools left alone', async () => {
    const result = await compileFiles({
      'coursesync.yaml': 'front_matter:\n  ignore: [weight]\n',
      'book/s/01-usage.md': '+++\nname = "Usage"\nweight = 2\ndrip_delay = 3\n+++\n\nSome text.\n\n## Install\n',
      'book/s/02-setup.md': '+++\nweight = 1\n# a comment\n"lesson_type" = "video"\ndrip_delay = "soon"\n+++\n# Setup\n',
    });
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual(['book/s/02-setup.md:5:14 lesson/invalid-field']);
    const fixed = await compileFiles({
      'coursesync.yaml': 'front_matter:\n  ignore: [weight]\n',
      'book/s/01-usage.md': '+++\nname = "Usage"\nweight = 2\ndrip_delay = 3\n+++\n\nSome text.\n\n## Install\n',
    });
    const usage = fixed.desired!.programs[0]!.sections[0]!.lessons[0]!;
    expect(usage.fields.name).toBe('Usage');
    expect(usage.fields.drip_delay).toBe(3);
    // Never shown to learners: the block is front-matter, not a paragraph.
    expect(usage.fields.body).toBe('<p>Some text.</p>\n<h2 id="install">Install</h2>\n');
  });

  it('says where TOML is invalid, with the line under a caret, and that a +++ block is never closed', async () => {
    const result = await compileFiles({
      'book/s/01-bad.md': '+++\nname = "Usage\n+++\n\nText.\n',
      'book/s/02-open.md': '+++\nname = "Open"\n\nText.\n',
      'book/s/03-unknown.md': '+++\ntitle = "Usage"\n+++\n\n# Usage\n',
      'book/s/04-dotted.md': '+++\nname = "Video"\nvideo.host_x = "abc"\n+++\n',
      'book/s/05-table.md': '+++\nname = "Table"\n\n[video]\nhost_y = "abc"\n+++\n',
    });
    const brief = result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`);
    expect(brief).toEqual([
      expect.stringMatching(/^book\/s\/01-bad\.md:2:\d+ toml\/syntax the TOML front-matter is invalid: /),
      'book/s/02-open.md:1:1 lesson/front-matter-unclosed front-matter opened with +++ is never closed',
      expect.stringMatching(/^book\/s\/03-unknown\.md:2:1 lesson\/unknown-key unknown key "title"/),
      // A dotted key is found by its first part.
      expect.stringMatching(/^book\/s\/04-dotted\.md:3:1 lesson\/unknown-key unknown key "host_x" in "video"/),
      // A table's keys: at its header.
      expect.stringMatching(/^book\/s\/05-table\.md:4:1 lesson\/unknown-key unknown key "host_y" in "video"/),
    ]);
    expect(result.diagnostics[0]!.excerpt).toMatch(/^2 \| name = "Usage\n {2}\| +\^$/);
  });
});

describe('a title under the navigation a course writes above its pages', () => {
  it('is dropped, and the navigation stays; a paragraph with words of its own before the heading keeps it', async () => {
    // Practical Python Programming: every page opens with a line of links, then its title; learners saw the title twice.
    const nav = '[Contents](../Contents.md) \\| [Previous (1.1 Python)](01-python.md) \\| [Next (1.3 Numbers)](03-numbers.md)';
    const result = await compileFiles({
      'book/s/01-python.md': '# 1.1 Python\n\nText.\n',
      'book/s/02-hello.md': `${nav}\n\n# 1.2 A First Program\n\nThis section discusses your first program.\n\n${nav}\n`,
      'book/s/03-numbers.md': '[Back](01-python.md) · [Next](02-hello.md)\n\n# 1.3 Numbers\n',
      'book/s/04-notes.md': 'Read [the first page](01-python.md) before this one.\n\n# 1.4 Notes\n',
      'book/Contents.md': '# Contents\n',
      'coursesync.yaml': 'school:\n  lesson_url: https://academy.example.com/products/{program_id}/lessons/{lesson_id}\nrepo_url: https://github.com/acme/course/tree/main/\n',
    });
    expect(result.diagnostics.filter((d) => d.code !== 'repo/stray-markdown')).toEqual([]);
    const [, hello, numbers, notes] = result.desired!.programs[0]!.sections[0]!.lessons;
    expect(hello!.fields.name).toBe('1.2 A First Program');
    expect(hello!.fields.body).not.toContain('<h1');
    expect(hello!.fields.body).toMatch(/^<p><a href="[^"]*">Contents<\/a> \| <a href="[^"]*">Previous \(1\.1 Python\)<\/a> \| <a href="[^"]*">Next \(1\.3 Numbers\)<\/a><\/p>\n<p>This section discusses/);
    expect(numbers!.fields.body).toMatch(/^<p><a href="[^"]*">Back<\/a> · <a href="[^"]*">Next<\/a><\/p>\n?$/);
    expect(notes!.fields.name).toBe('1.4 Notes');
    expect(notes!.fields.body).toContain('<h1 id="14-notes">1.4 Notes</h1>');
  });
});

describe('a running head: a page opening with two level-1 headings in a row', () => {
  it('is named by the second, which goes from the body; the first stays, and so does a name given to it', async () => {
    // You Don't Know JS opens each chapter with the book's title, then the chapter's: all 47 pages were named by the book.
    const chapter = "# You Don't Know JS Yet: Get Started - 2nd Edition\n# Chapter 1: What *Is* JavaScript?\n\nYou don't know JS, yet.\n\n## About This Book\n\nA journey.\n";
    const result = await compileFiles({
      'book/s/ch1.md': chapter,
      'book/s/ch2.md': `---\nname: "You Don't Know JS Yet: Get Started - 2nd Edition"\n---\n${chapter.replace('Chapter 1: What *Is* JavaScript?', 'Chapter 2: Surveying JS')}`,
      'book/s/ch3.md': '# Chapter 3\n\nText.\n\n# Chapter 3, again\n',
    });
    expect(result.diagnostics).toEqual([]);
    const [ch1, ch2, ch3] = result.desired!.programs[0]!.sections[0]!.lessons;
    expect(ch1!.fields.name).toBe('Chapter 1: What Is JavaScript?');
    expect(ch1!.fields.body).toMatch(/^<h1 id="you-dont-know-js-yet-get-started---2nd-edition">You Don't Know JS Yet: Get Started - 2nd Edition<\/h1>\n<p>You don't know JS, yet.<\/p>/);
    // A name that is the first heading's drops that one, as on any page.
    expect(ch2!.fields.name).toBe("You Don't Know JS Yet: Get Started - 2nd Edition");
    expect(ch2!.fields.body).toMatch(/^<h1 id="chapter-2-surveying-js">Chapter 2: Surveying JS<\/h1>/);
    // Text between two level-1 headings: the first titles the page.
    expect(ch3!.fields.name).toBe('Chapter 3');
  });
});

describe('a title after an old heading\'s anchor', () => {
  it('is dropped, and the comment and the anchor before it stay (links to the old id keep working)', async () => {
    const result = await compileFiles({
      'book/s/ch06-02-match.md': '<!-- Old headings. Do not remove or links may break. -->\n\n<a id="the-match-control-flow-operator"></a>\n\n## The `match` Control Flow Construct\n\nRust has a control flow construct called `match`.\n',
    });
    expect(result.diagnostics).toEqual([]);
    const lesson = result.desired!.programs[0]!.sections[0]!.lessons[0]!;
    expect(lesson.fields.name).toBe('The match Control Flow Construct');
    expect(lesson.fields.body).toContain('<a id="the-match-control-flow-operator"></a>');
    expect(lesson.fields.body).not.toContain('<h2');
  });
});
