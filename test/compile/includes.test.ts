import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCourse } from '../../src/compile/index.js';
import { select } from '../../src/compile/expand-includes.js';
import type { DesiredLesson } from '../../src/model/desired.js';
import { lessonLinkMarker } from '../../src/model/lesson-links.js';
import { readSource } from '../../src/source/read-source.js';
import { loadCourse } from '../../src/load/load-course.js';

const BOOK = path.resolve(__dirname, '../fixtures/repos/includes');
const HELLO = 'book/01-getting-started/01-hello-world.md';
const GAME = 'book/02-guessing-game/01-guessing-game.md';
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** A change to a fixture file: `[file, text it holds, replacement]`, or `[file, whole new text]`. */
type Change = [file: string, from: string, to: string] | [file: string, text: string];

/** Compile the book, as it is or with `changes` made to a copy; its lessons by key. */
async function compileBook(...changes: Change[]) {
  let dir = BOOK;
  if (changes.length > 0) {
    dir = await mkdtemp(path.join(tmpdir(), 'coursesync-include-'));
    dirs.push(dir);
    await cp(BOOK, dir, { recursive: true });
  }
  for (const [file, from, to] of changes) {
    const full = path.join(dir, file);
    if (to === undefined) {
      await writeFile(full, from);
      continue;
    }
    const text = await readFile(full, 'utf8');
    expect(text, file).toContain(from);
    await writeFile(full, text.replace(from, to));
  }
  const result = compileCourse(await readSource(dir));
  const byKey = new Map<string, DesiredLesson>();
  for (const p of result.desired?.programs ?? []) for (const s of p.sections) for (const l of s.lessons) byKey.set(l.key, l);
  return { result, byKey, dir };
}

const SAMPLE = ['// ANCHOR: all', 'fn main() {', '    // ANCHOR: body', '    run();', '    // ANCHOR_END: body', '}', '// ANCHOR_END: all', ''].join('\n');
const take = (selector: string | undefined) => {
  const s = select(SAMPLE, selector);
  return 'lines' in s ? s.lines.map((l) => l.text) : s;
};

describe('mdBook line selection', () => {
  it('takes the whole file, :N, :N:M, ::M and :N: as mdBook does, leaving out anchor lines', () => {
    expect(take(undefined)).toEqual(['fn main() {', '    run();', '}']);
    expect(take('2')).toEqual(['fn main() {']);
    expect(take('2:4')).toEqual(['fn main() {', '    run();']);
    expect(take(':2')).toEqual(['fn main() {']); // `file.rs::2`: what follows the path's colon
    expect(take('4:')).toEqual(['    run();', '}']);
  });

  it('takes the lines between ANCHOR: name and ANCHOR_END: name, nested anchor lines left out', () => {
    expect(take('all')).toEqual(['fn main() {', '    run();', '}']);
    expect(take('body')).toEqual(['    run();']);
  });

  it('cuts a range that only ends past the file at its end, as mdBook does', () => {
    expect(take('4:12')).toEqual(['    run();', '}']);
    expect(take(':12')).toEqual(['fn main() {', '    run();', '}']);
  });

  it('refuses a range that starts past the file or is upside down, and an anchor the file lacks (with the closest name)', () => {
    expect(take('9')).toMatchObject({ code: 'include/missing-lines', problem: 'line 9 is past the end of the file (it has 7 lines)' });
    expect(take('9:12')).toMatchObject({ code: 'include/missing-lines', problem: 'line 9 is past the end of the file (it has 7 lines)' });
    expect(take('5:3')).toMatchObject({ code: 'include/missing-lines', problem: 'the range ends (line 3) before it starts (line 5)' });
    expect(take('0')).toMatchObject({ code: 'include/missing-lines', problem: 'lines count from 1' });
    expect(take('bdy')).toMatchObject({ code: 'include/missing-anchor', problem: 'no line `ANCHOR: bdy` in the file', hint: 'did you mean :body?' });
  });
});

describe('includes in a Rust-book-like course', () => {
  it('expands code listings inside fences, by anchor, line and range, and rustdoc_include shows only the selected part', async () => {
    const { result, byKey } = await compileBook();
    expect(result.diagnostics).toEqual([]);
    // The partial is included, never a lesson of its own.
    expect([...byKey.keys()]).toEqual(['hello-world', 'guessing-game']);
    expect(result.counts.lessons).toBe(2);
    const hello = byKey.get('hello-world')!.fields.body;
    expect(hello).not.toMatch(/\{\{#(rustdoc_)?include \.\./);
    expect(hello).not.toContain('ANCHOR');
    expect(hello).toContain('<pre><code class="language-rust">fn main() {\n    println!("Hello, world!");\n}\n</code></pre>');
    expect(hello).toContain('<pre><code class="language-rust">fn main() {\n}\n</code></pre>');
    expect(hello).toContain('<pre><code class="language-rust">    println!("Hello, world!");\n</code></pre>');
    // `\{{#` keeps a directive as text, without the backslash.
    expect(hello).toContain('<code>{{#include file.rs}}</code>');
    const game = byKey.get('guessing-game')!.fields.body;
    expect(game).toContain('<pre><code class="language-rust,ignore">use std::io;\n</code></pre>');
    expect(game).toContain('<pre><code class="language-rust,ignore">    let mut guess = String::new();\n</code></pre>');
    expect(game).toContain('.read_line(&#x26;mut guess)\n        .expect("Failed to read line");');
    expect(game).toMatch(/<pre><code class="language-rust,ignore">    println!\("Guess the number!"\);\n[^]*println!\("You guessed: \{guess\}"\);\n}\n<\/code><\/pre>/);
  });

  it('resolves the links and images of an included partial from where the partial lies', async () => {
    const { byKey } = await compileBook();
    for (const key of ['hello-world', 'guessing-game']) {
      const lesson = byKey.get(key)!;
      if (key === 'hello-world') expect(lesson.build?.includes?.map((i) => i.path)).toEqual(['book/_partials/install-note.md', 'listings/ch01-hello/src/main.rs']);
      expect(lesson.fields.body).toMatch(/<img src="http:\/\/assets\.test\/book\/ferris\.[0-9a-f]{16}\.png" alt="Ferris the crab, unofficial mascot of Rust">/);
      expect(lesson.fields.body).toContain(`<a href="${lessonLinkMarker('hello-world')}#writing-and-running-a-rust-program">Hello, World!</a>`);
      expect(lesson.assets?.map((a) => a.path)).toEqual(['book/img/ferris.png']);
    }
  });

  it('warns about any other {{#name}} at its place, naming it', async () => {
    const playground = 'The book’s playground buttons are not something a school can show: {{#playground ../../listings/ch02-guessing/src/main.rs}}';
    const { result } = await compileBook([GAME, '*src/main.rs*.\n', `*src/main.rs*.\n\n${playground}\n`]);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({ file: GAME, line: 14, column: 68, code: 'include/unsupported', severity: 'warning', message: expect.stringContaining('{{#playground}}') }),
    ]);
  });

  it('reports a missing file, anchor or line range, a cycle and a path outside the repo at the directive', async () => {
    const { result } = await compileBook(
      [HELLO, 'main.rs:all}}', 'mian.rs:all}}'],
      [HELLO, 'main.rs:2}}', 'main.rs:40}}'],
      [HELLO, 'main.rs:print}}', 'main.rs:prnt}}'],
      [GAME, 'main.rs:io}}', 'main.rs:io}}\n{{#include ../../../outside.rs}}'],
      ['book/_partials/install-note.md', 'See also:\n\n{{#include _more.md}}\n'],
      ['book/_partials/_more.md', 'And:\n{{#include install-note.md}}\n'],
    );
    const errors = result.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.file, d.line, d.column, d.code, d.message, d.hint]);
    expect(errors).toEqual([
      // The cycle is reported once, where it closes, though two lessons include the partial.
      ['book/_partials/_more.md', 2, 1, 'include/cycle', '{{#include install-note.md}} makes a cycle: book/_partials/install-note.md → book/_partials/_more.md → book/_partials/install-note.md', expect.any(String)],
      ['book/01-getting-started/01-hello-world.md', 18, 1, 'include/missing-file', '{{#rustdoc_include ../../listings/ch01-hello/src/mian.rs:all}}: no file listings/ch01-hello/src/mian.rs in the repo', 'did you mean listings/ch01-hello/src/main.rs?'],
      ['book/01-getting-started/01-hello-world.md', 28, 1, 'include/missing-lines', '{{#include ../../listings/ch01-hello/src/main.rs:40}}: line 40 is past the end of the file (it has 7 lines)', expect.any(String)],
      ['book/01-getting-started/01-hello-world.md', 35, 1, 'include/missing-anchor', '{{#include ../../listings/ch01-hello/src/main.rs:prnt}}: no line `ANCHOR: prnt` in the file', 'did you mean :print?'],
      ['book/02-guessing-game/01-guessing-game.md', 23, 1, 'include/outside-repo', '{{#include ../../../outside.rs}}: "../../../outside.rs" points outside the repo', expect.any(String)],
    ]);
    expect(result.desired).toBeUndefined();
  });

  it('replaces {{ vars.name }} in bodies, front-matter and partials, the program value over the repo one, and leaves other {{ … }} alone', async () => {
    const { byKey } = await compileBook();
    const hello = byKey.get('hello-world')!;
    expect(hello.fields.body).toContain('This chapter uses Rust 1.80\n(edition 2021).');
    expect(hello.fields.body).toContain('You need Rust 1.80 installed');
    expect(hello.fields.description).toContain('Your first Rust program in The Rust Programming Language, written');
    // Escaped with a backslash, and text that is not a variable, stay as written.
    expect(hello.fields.body).toContain('<code>{{ user.name }}</code>');
    expect(hello.fields.body).toContain('<code>{{ vars.edition }}</code>');
    expect(hello.build?.vars).toEqual([
      { name: 'book', value: 'The Rust Programming Language' },
      { name: 'edition', value: '2021' },
      { name: 'rust_version', value: '1.80' },
    ]);
  });

  it('reports an undefined variable where it is written, with the closest name', async () => {
    const { result } = await compileBook([HELLO, 'uses Rust {{ vars.rust_version }}', 'uses Rust {{ vars.rust_versoin }}'], ['book/_partials/install-note.md', '{{ vars.rust_version }}', '{{vars.toolchain}}']);
    const errors = result.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.file, d.line, d.column, d.code, d.message, d.hint]);
    expect(errors).toEqual([
      [HELLO, 7, 66, 'vars/undefined', '{{ vars.rust_versoin }} is not defined (defined: book, edition, rust_version)', 'did you mean {{ vars.rust_version }}?'],
      // In a partial: at the directive that brings it into the lesson.
      [HELLO, 10, 1, 'vars/undefined', '{{ vars.toolchain }} is not defined (defined: book, edition, rust_version)', expect.stringContaining('define the variable')],
      [GAME, 6, 1, 'vars/undefined', '{{ vars.toolchain }} is not defined (defined: book, edition, rust_version)', expect.stringContaining('define the variable')],
    ]);
  });

  it('says so when a partial in a program folder is included by no lesson (a `_` file never silently stops being a lesson)', async () => {
    const { result, byKey } = await compileBook(['book/01-getting-started/_draft-notes.md', '---\nname: Draft notes\n---\nNotes for the next chapter.\n']);
    expect(result.diagnostics).toEqual([expect.objectContaining({ file: 'book/01-getting-started/_draft-notes.md', code: 'include/unused-partial', severity: 'warning' })]);
    expect([...byKey.keys()]).toEqual(['hello-world', 'guessing-game']);
  });

  it('keeps the lines after a variable whose value spans lines at their places', async () => {
    const { result } = await compileBook(
      ['coursesync.yaml', 'edition: 2021', 'edition: "2021\\n\\n(the third edition)"'],
      [HELLO, '## Anatomy of a Rust Program', '## Anatomy of a Rust Program\n\nSee {{ vars.missing }}.'],
    );
    expect(result.diagnostics.map((d) => [d.line, d.column, d.code])).toEqual([[25, 5, 'vars/undefined']]);
  });

  it('stops files that include each other many times over, with an error', async () => {
    const many = (file: string) => `{{#include ${file}}}\n`.repeat(100);
    const { result } = await compileBook(
      [HELLO, '{{#include ../_partials/install-note.md}}', many('../_partials/_a.md')],
      ['book/_partials/_a.md', many('_b.md')],
      ['book/_partials/_b.md', many('_c.md')],
      ['book/_partials/_c.md', ''],
    );
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.file, d.code])).toEqual([[HELLO, 'include/too-many']]);
  });

  it('with the caches (stat index, lessons, renderings) warm, an edited listing still shows', async () => {
    const { dir } = await compileBook([HELLO, 'Listing 1-1: A program', 'Listing 1-1: The program']);
    const bodyOf = async () => (await loadCourse(dir, { cache: true, renderThreads: 1 })).desired!.programs[0]!.sections[0]!.lessons[0]!.fields.body;
    expect(await bodyOf()).toContain('println!("Hello, world!");');
    // Kept in the lesson cache by file and expanded text, and answered from there.
    const cache = path.join(dir, '.coursesync/cache/lessons.json');
    const cached = await readFile(cache, 'utf8');
    expect(cached).toMatch(/"book\/01-getting-started\/01-hello-world\.md\\u0000[0-9a-f]{64}\\u0000[0-9a-f]{64}":\{/);
    await writeFile(cache, cached.replaceAll('Hello, world!', 'Hello, cache!'));
    expect(await bodyOf()).toContain('println!("Hello, cache!");');
    const listing = path.join(dir, 'listings/ch01-hello/src/main.rs');
    await writeFile(listing, (await readFile(listing, 'utf8')).replace('Hello, world!', 'Hello, Ferris!'));
    const body = await bodyOf();
    expect(body).toContain('println!("Hello, Ferris!");');
    expect(body).not.toContain('Hello, cache!");');
  });
});
