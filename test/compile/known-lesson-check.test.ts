/**
 * The frame's check of the lessons a state knows (course-frame.ts, lesson-builds.ts knownEntry):
 * on a checkout of a Rust-book-like course (a partial included by two lessons, with an image
 * and a link; code listings; variables; a third lesson referencing nothing), the state recorded
 * as apply records it vouches for every lesson; each input a digest covers, changed in turn,
 * sends exactly the lessons that take it in back to compile: the file, an included file, a
 * variable's value (or its removal), an image, the place of a linked lesson, an inherited
 * setting, the addresses only lessons with references depend on, a referenced file removed,
 * the site a book's links out of it go to, the pages its site serves at addresses (`site_paths:`).
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCourse, frameCourse } from '../../src/compile/compile-course.js';
import { knownLessonsOf } from '../../src/compile/known-lessons.js';
import type { LessonEntry } from '../../src/compile/course-parts.js';
import { recordBuilds } from '../../src/compile/lesson-builds.js';
import { digestMatches, lessonDigest } from '../../src/compile/lesson-digest.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { DEFAULT_LESSON_FIELDS } from '../../src/school-api/school-rules.js';
import { renderMarkdown } from '../../src/compile/render.js';
import type { StateData } from '../../src/model/state/schema.js';
import { parseState } from '../../src/model/state/parse-state.js';
import { readSource } from '../../src/source/read-source.js';
import { appliedState as recordedState } from './applied-state.js';

const BOOK = path.resolve(import.meta.dirname, '../fixtures/repos/includes');
const HELLO = 'book/01-getting-started/01-hello-world.md';
const GAME = 'book/02-guessing-game/01-guessing-game.md';
const PLAIN = 'book/02-guessing-game/02-plain.md';
const COMPILER = 'abcdef0123456789';

let work: string;
let base: string;
let recorded: StateData;

/** A copy of the course (or of a variant of it) to change. */
async function checkout(from = base): Promise<string> {
  const dir = await mkdtemp(path.join(work, 'repo-'));
  await cp(from, dir, { recursive: true });
  return dir;
}

/** Replace `from` (which the file must hold) by `to` in `file` of `dir`. */
async function change(dir: string, file: string, from: string, to: string): Promise<void> {
  const text = await readFile(path.join(dir, file), 'utf8');
  expect(text, file).toContain(from);
  await writeFile(path.join(dir, file), text.replace(from, to));
}

/** The state as apply records it after applying `dir`: every lesson placed, its build recorded. */
const appliedState = (dir: string): Promise<StateData> => recordedState(dir, COMPILER);

/** The lesson files the frame sends to compile, given what `state` knows. */
async function toCompile(dir: string, state = recorded): Promise<string[]> {
  const frame = frameCourse(await readSource(dir), knownLessonsOf(state, COMPILER));
  return frame.toCompile.map((l) => l.path).sort();
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'coursesync-known-check-'));
  base = path.join(work, 'base');
  await cp(BOOK, base, { recursive: true });
  await writeFile(path.join(base, PLAIN), '---\nname: Ownership in plain words\n---\nEach value has one owner; when the owner goes out of scope, the value is dropped.\n');
  recorded = await appliedState(base);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the frame takes a known lesson only while every input of its digest is unchanged', () => {
  it('an unchanged checkout: every lesson known, none compiled; each recorded its include, variables, image and link', async () => {
    expect(await toCompile(await checkout())).toEqual([]);
    const game = Object.values(recorded.lessons).find((l) => l.path === GAME)!;
    expect(game.inputs?.some((i) => i.startsWith('include:book/_partials/install-note.md@'))).toBe(true);
    expect(game.deps?.map((d) => d.slice(0, d.indexOf('@')))).toEqual(expect.arrayContaining([HELLO, 'book/img/ferris.png']));
    const hello = Object.values(recorded.lessons).find((l) => l.path === HELLO)!;
    expect(hello.inputs?.filter((i) => i.startsWith('var:')).map((i) => i.slice(4, i.indexOf('@'))).sort()).toEqual(['book', 'edition', 'rust_version']);
  });

  it('the file: only the edited lesson', async () => {
    const dir = await checkout();
    await change(dir, GAME, 'guess', 'Guess');
    expect(await toCompile(dir)).toEqual([GAME]);
  });

  it('an included file: every lesson including it, and a listing only the lesson including it', async () => {
    const partial = await checkout();
    await change(partial, 'book/_partials/install-note.md', 'keep Ferris close by', 'keep Ferris near');
    expect(await toCompile(partial)).toEqual([HELLO, GAME]);
    const listing = await checkout();
    await writeFile(path.join(listing, 'listings/ch02-guessing/src/main.rs'), `${await readFile(path.join(listing, 'listings/ch02-guessing/src/main.rs'), 'utf8')}\n// one more line\n`);
    expect(await toCompile(listing)).toEqual([GAME]);
  });

  it("a variable's value: only the lessons using it; a variable no longer defined: those lessons too", async () => {
    const value = await checkout();
    await change(value, 'coursesync.yaml', 'book: The Rust Programming Language', 'book: The Rust Book');
    expect(await toCompile(value)).toEqual([HELLO]);
    const program = await checkout();
    await change(program, 'book/program.yaml', 'rust_version: "1.80"', 'rust_version: "1.81"');
    expect(await toCompile(program)).toEqual([HELLO, GAME]);
    const gone = await checkout();
    await change(gone, 'coursesync.yaml', '  book: The Rust Programming Language\n', '');
    expect(await toCompile(gone)).toEqual([HELLO]);
  });

  it('an image: the lessons showing it; removed: they compile (and report it)', async () => {
    const edited = await checkout();
    await writeFile(path.join(edited, 'book/img/ferris.png'), Buffer.concat([await readFile(path.join(edited, 'book/img/ferris.png')), Buffer.from([0])]));
    expect(await toCompile(edited)).toEqual([HELLO, GAME]);
    const removed = await checkout();
    await rm(path.join(removed, 'book/img/ferris.png'));
    expect(await toCompile(removed)).toEqual([HELLO, GAME]);
  });

  it("a linked lesson's place in the school: the lessons linking to it, not the others", async () => {
    const moved = structuredClone(recorded);
    const hello = Object.values(moved.lessons).find((l) => l.path === HELLO)!;
    hello.id = 'les_99';
    // Both lessons link to Hello (through the partial both include); a lesson not linking to it stays known.
    expect(await toCompile(await checkout(), moved)).toEqual([HELLO, GAME]);
    const other = structuredClone(recorded);
    Object.values(other.lessons).find((l) => l.path === GAME)!.id = 'les_98';
    expect(await toCompile(await checkout(), other)).toEqual([]);
  });

  it('an inherited setting: only the lessons of the section whose defaults changed', async () => {
    const dir = await checkout();
    await change(dir, 'book/02-guessing-game/section.yaml', 'id: sec_types', 'id: sec_types\nlesson_defaults:\n  is_progression_locked: true');
    expect(await toCompile(dir)).toEqual([GAME, PLAIN]);
  });

  it("a book with `site_url:`: its lessons known like any others; the address changed or added, every lesson of its program", async () => {
    const sited = await checkout();
    await change(sited, 'book/program.yaml', 'id: prog_intro\n', 'id: prog_intro\nsite_url: https://doc.example.com/book/\n');
    // Links that leave the book go to the site: a lesson's HTML depends on it, so its digest does.
    await change(sited, PLAIN, 'is dropped.', 'is dropped (see [the standard library](../../std/mem/fn.drop.html)).');
    const state = await appliedState(sited);
    expect(await toCompile(sited, state)).toEqual([]);
    const moved = await checkout(sited);
    await change(moved, 'book/program.yaml', 'https://doc.example.com/book/', 'https://docs.example.com/book/');
    expect(await toCompile(moved, state)).toEqual([HELLO, GAME, PLAIN]);
    // The recorded state of the book without a site: the address added sends every lesson back too.
    expect(await toCompile(sited)).toEqual([HELLO, GAME, PLAIN]);
  });

  it('`site_paths:`: a lesson linking a site address is known like any other; the page there edited, it compiles; the mapping changed, every lesson of its program', async () => {
    const sited = await checkout();
    await change(sited, 'book/program.yaml', 'id: prog_intro\n', 'id: prog_intro\nsite_paths:\n  /book/guessing-game/: 02-guessing-game/01-guessing-game.md\n');
    await change(sited, PLAIN, 'is dropped.', 'is dropped (as [the game](/book/guessing-game/) shows).');
    const state = await appliedState(sited);
    expect(await toCompile(sited, state)).toEqual([]);
    // Its digest covers the lesson at the address, as for a link by path.
    const edited = await checkout(sited);
    await change(edited, GAME, 'guess', 'Guess');
    expect(await toCompile(edited, state)).toEqual([GAME, PLAIN]);
    const remapped = await checkout(sited);
    await change(remapped, 'book/program.yaml', '02-guessing-game/01-guessing-game.md', '01-getting-started/01-hello-world.md');
    expect(await toCompile(remapped, state)).toEqual([HELLO, GAME, PLAIN]);
  });

  it("a book page's title in SUMMARY.md: only that page, which may take its name from it", async () => {
    const dir = await mkdtemp(path.join(work, 'book-'));
    const files: Record<string, string> = {
      'coursesync.yaml': '',
      'src/program.yaml': 'id: prog_book\ntoc: SUMMARY.md\n',
      'src/SUMMARY.md': '# Summary\n\n- [Start](start.md)\n    - [Internals](internals.md)\n    - [Other](other.md)\n',
      'src/start.md': '# Start\n\nText.\n',
      'src/internals.md': 'A page that opens with a paragraph, named by its title in SUMMARY.md.\n',
      'src/other.md': '# Other\n\nText.\n',
    };
    await mkdir(path.join(dir, 'src'));
    for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
    const state = await appliedState(dir);
    expect(await toCompile(dir, state)).toEqual([]);
    await change(dir, 'src/SUMMARY.md', '[Internals]', '[Autodiff internals]');
    expect(await toCompile(dir, state)).toEqual(['src/internals.md']);
    const { desired } = compileCourse(await readSource(dir), { render: renderMarkdown, known: knownLessonsOf(state, COMPILER) });
    expect(desired!.programs[0]!.sections[0]!.lessons.map((l) => l.fields.name)).toEqual(['Start', 'Autodiff internals', 'Other']);
  });

  it('the front-matter keys left to other tools: every lesson, and one taken off the list is an error again', async () => {
    const tooled = await checkout();
    await change(tooled, 'coursesync.yaml', 'vars:', 'front_matter:\n  ignore: [minutes]\nvars:');
    await change(tooled, PLAIN, 'name: Ownership in plain words\n', 'name: Ownership in plain words\nminutes: 5\n');
    const state = await appliedState(tooled);
    expect(await toCompile(tooled, state)).toEqual([]);
    // Whether a front-matter is valid depends on the list, so the digests cover it.
    const strict = await checkout(tooled);
    await change(strict, 'coursesync.yaml', 'front_matter:\n  ignore: [minutes]\n', '');
    expect(await toCompile(strict, state)).toEqual([HELLO, GAME, PLAIN]);
    const { diagnostics } = compileCourse(await readSource(strict), { render: renderMarkdown, known: knownLessonsOf(state, COMPILER) });
    expect(diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.file} ${d.code}`)).toEqual([`${PLAIN} lesson/unknown-key`]);
  });

  it('a warning on an included file: recorded with each lesson including it, reported once while they are taken unread, once when one compiles', async () => {
    const dir = await checkout();
    await change(dir, 'book/_partials/install-note.md', 'keep Ferris close by.', 'keep Ferris close by.\n>\n> {{#playground ../../listings/ch02-guessing/src/main.rs}}');
    const cold = compileCourse(await readSource(dir), { render: renderMarkdown }).diagnostics;
    expect(cold.map((d) => `${d.file} ${d.code}`)).toEqual(['book/_partials/install-note.md include/unsupported']);
    const state = await appliedState(dir);
    for (const path of [HELLO, GAME]) expect(Object.values(state.lessons).find((l) => l.path === path)?.warnings, path).toEqual([{ code: 'include/unsupported', file: 'book/_partials/install-note.md', line: cold[0]!.line, column: cold[0]!.column, message: cold[0]!.message, hint: cold[0]!.hint }]);
    // Through the file as written and read back.
    const back = parseState(JSON.parse(JSON.stringify(state)));
    expect(back.success).toBe(true);
    expect(await toCompile(dir, back.data!)).toEqual([]);
    expect(compileCourse(await readSource(dir), { render: renderMarkdown, known: knownLessonsOf(back.data!, COMPILER) }).diagnostics).toEqual(cold);
    // One of them edited: it compiles and finds the warning, which the other's record does not say again.
    await change(dir, GAME, '## Processing a Guess', '## Processing a Guess, Step by Step');
    expect(await toCompile(dir, back.data!)).toEqual([GAME]);
    expect(compileCourse(await readSource(dir), { render: renderMarkdown, known: knownLessonsOf(back.data!, COMPILER) }).diagnostics).toEqual(cold);
  });

  it('a warning on an included file that is also a lesson with problems of its own: the lesson including it is not recorded', async () => {
    const dir = await checkout();
    await change(dir, PLAIN, 'is dropped.', 'is dropped.\n\n{% set edition = 2021 %}\n\n<Listing number="4-2">x</Listing>');
    await change(dir, GAME, '## Processing a Guess', '{{#include 02-plain.md}}\n\n## Processing a Guess');
    const cold = compileCourse(await readSource(dir), { render: renderMarkdown }).diagnostics;
    expect(cold.filter((d) => d.file === PLAIN).map((d) => d.code).sort()).toEqual(['include/unsupported', 'lesson/unknown-element']);
    const state = await appliedState(dir);
    expect(Object.values(state.lessons).find((l) => l.path === PLAIN)?.digest).toBeDefined();
    expect(await toCompile(dir, state)).toEqual([GAME]);
    expect(compileCourse(await readSource(dir), { render: renderMarkdown, known: knownLessonsOf(state, COMPILER) }).diagnostics).toEqual(cold);
  });

  it("warnings of a lesson's own HTML: recorded with its build, reported again while it is taken unread", async () => {
    const dir = await checkout();
    await change(dir, PLAIN, 'Each value has one owner;', '<Listing number="4-1">Each value has one owner;</Listing>');
    const read = await readSource(dir);
    const cold = compileCourse(read, { render: renderMarkdown }).diagnostics;
    expect(cold.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([`${PLAIN}:4:1 lesson/unknown-element`]);
    const state = await appliedState(dir);
    expect(Object.values(state.lessons).find((l) => l.path === PLAIN)?.warnings).toEqual([{ code: 'lesson/unknown-element', line: 4, column: 1, message: cold[0]!.message, hint: cold[0]!.hint }]);
    expect(await toCompile(dir, state)).toEqual([]);
    const known = compileCourse(await readSource(dir), { render: renderMarkdown, known: knownLessonsOf(state, COMPILER) });
    expect(known.unchanged).toContain(PLAIN);
    expect(known.diagnostics).toEqual(cold);
    // Its build as the next apply records it: the warnings kept.
    expect(known.desired!.programs.flatMap((p) => p.sections.flatMap((s) => s.lessons)).find((l) => l.path === PLAIN)?.build?.warnings).toEqual(state.lessons[Object.keys(state.lessons).find((k) => state.lessons[k]!.path === PLAIN)!]!.warnings);
    // The tag removed: compiled again, no warning.
    await change(dir, PLAIN, '<Listing number="4-1">Each value has one owner;</Listing>', 'Each value has one owner;');
    expect(await toCompile(dir, state)).toEqual([PLAIN]);
  });

  it("a tag of its own text that is not run: recorded, reported again while it is taken unread, once when it compiles for another lesson's sake", async () => {
    const dir = await checkout();
    await change(dir, PLAIN, 'is dropped.', 'is dropped.\n\n{{#playground ../../listings/ch02-guessing/src/main.rs}}\n\n{% filename %}src/main.rs{% endfilename %}\n\n## Moves');
    const cold = compileCourse(await readSource(dir), { render: renderMarkdown }).diagnostics;
    expect(cold.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual([`${PLAIN}:6:1 include/unsupported`, `${PLAIN}:8:1 include/unsupported`]);
    const state = await appliedState(dir);
    expect(Object.values(state.lessons).find((l) => l.path === PLAIN)?.warnings?.map((w) => w.code)).toEqual(['include/unsupported', 'include/unsupported']);
    expect(await toCompile(dir, state)).toEqual([]);
    expect(compileCourse(await readSource(dir), { render: renderMarkdown, known: knownLessonsOf(state, COMPILER) }).diagnostics).toEqual(cold);
    // Another lesson edited to link one of its headings: it compiles for its anchors, and says each warning once.
    await change(dir, GAME, '## Processing a Guess', 'See [moves](02-plain.md#moves).\n\n## Processing a Guess');
    const anchored = compileCourse(await readSource(dir), { render: renderMarkdown, known: knownLessonsOf(state, COMPILER) });
    expect(anchored.compiledAnyway).toContain(PLAIN);
    expect(anchored.diagnostics.filter((d) => d.file === PLAIN)).toEqual(cold);
  });

  it('a warning code this coursesync does not record (written by a later one): the state reads, the lesson compiles', async () => {
    const state = structuredClone(recorded);
    const plain = Object.values(state.lessons).find((l) => l.path === PLAIN)!;
    plain.warnings = [{ code: 'lesson/not-yet-invented', line: 1, column: 1, message: 'a later check' }];
    const back = parseState(JSON.parse(JSON.stringify(state)));
    expect(back.success).toBe(true);
    expect(await toCompile(await checkout(), back.data!)).toEqual([PLAIN]);
    // Still of a code's form: anything else is no warning coursesync wrote.
    const one = (code: string) => parseState({ ...JSON.parse(JSON.stringify(state)), lessons: { x: { ...plain, warnings: [{ code, message: 'm' }] } } }).success;
    expect([one('lesson/not-yet-invented'), one('Not A Code'), one('lesson/'), one('')]).toEqual([true, false, false, false]);
  });

  it('the assets address: only the lessons with references, not one referencing nothing', async () => {
    const dir = await checkout();
    await change(dir, 'coursesync.yaml', 'base_url: http://assets.test/book/', 'base_url: http://cdn.test/book/');
    expect(await toCompile(dir)).toEqual([HELLO, GAME]);
  });
});

describe('a lesson linking pages in the repo (repo_url:) is known while what decides those links is unchanged', () => {
  const README = 'course/01-basics/README.md';
  const GITHUB_COURSE = {
    'coursesync.yaml': 'school:\n  base_url: http://school.test/api/v1\n  lesson_url: http://school.test/p/{program_id}/l/{lesson_id}\nassets:\n  base_url: http://assets.test/\nrepo_url: https://github.com/acme/zoomcamp/tree/main/\nignore: [cohorts/]\n',
    'README.md': '# The course\n\nSix modules, one a week.\n',
    'course/program.yaml': 'id: prog_intro\n',
    'course/01-basics/section.yaml': 'id: sec_start\n',
    // A module README as GitHub courses write them: the course, its code, the next module, past cohorts.
    [README]: '# Basics\n\n[The course](../../README.md) · [code](code/) · [next module](../02-next/) · [2024 homework](../../cohorts/2024/) · [its page](../../cohorts/2024/homework)\n',
    'course/01-basics/homework.md': '# Homework\n\nAnswer the questions.\n',
    'course/01-basics/code/main.py': 'print("hello")\n',
    'course/02-next/run.py': 'print("next")\n',
    'cohorts/2024/homework.md': '# Homework 2024\n',
    'cohorts/2024/solutions.py': 'print(42)\n',
  };
  let course: string;
  let state: StateData;
  beforeAll(async () => {
    course = path.join(work, 'github-course');
    for (const [file, text] of Object.entries(GITHUB_COURSE)) {
      await mkdir(path.dirname(path.join(course, file)), { recursive: true });
      await writeFile(path.join(course, file), text);
    }
    // Through state.json as written and read back (its paths relative to each lesson's folder).
    const { writeStateFile, readStateFile } = await import('../../src/state/state-file.js');
    await writeStateFile(course, await appliedState(course));
    state = (await readStateFile(course)).state;
  });

  it('an unchanged checkout: none compiled; the README recorded each path it links at its page', async () => {
    expect(await toCompile(await checkout(course), state)).toEqual([]);
    const readme = Object.values(state.lessons).find((l) => l.path === README)!;
    expect(readme.deps?.map((d) => d.replace(/@[0-9a-f]{4}@page$/, ' page'))).toEqual(['README.md page', 'cohorts/2024 page', 'cohorts/2024/homework page', 'course/01-basics/code page', 'course/02-next page']);
  });

  it("the linked page's text: nothing (the page is the repo's own, not sent)", async () => {
    const dir = await checkout(course);
    await change(dir, 'README.md', 'one a week', 'one every two weeks');
    expect(await toCompile(dir, state)).toEqual([]);
  });

  it('the linked folder becomes a section with a README lesson: the lesson linking it, which now links that lesson', async () => {
    const dir = await checkout(course);
    await writeFile(path.join(dir, 'course/02-next/section.yaml'), 'id: sec_next\n');
    await writeFile(path.join(dir, 'course/02-next/README.md'), '# Next\n');
    expect(await toCompile(dir, state)).toEqual([README, 'course/02-next/README.md']);
  });

  it('a README in the linked code folder (a file, not a lesson): the lesson linking the folder, whose link now goes to that file', async () => {
    const dir = await checkout(course);
    await writeFile(path.join(dir, 'course/01-basics/code/README.md'), '# How to run\n');
    expect(await toCompile(dir, state)).toEqual([README]);
  });

  it('ignore: no longer leaving the linked folder out, repo_url: changed, a linked file or ignored folder removed: the lesson linking it', async () => {
    for (const [file, from, to] of [
      ['coursesync.yaml', 'ignore: [cohorts/]', 'ignore: [cohorts/2023/]'],
      ['coursesync.yaml', 'tree/main/', 'tree/trunk/'],
    ] as const) {
      const dir = await checkout(course);
      await change(dir, file, from, to);
      expect(await toCompile(dir, state), `${from} → ${to}`).toEqual([README]);
    }
    // cohorts/2024/homework.md: the page the extension-less link names, ignored, gone (the folder stays, ignored).
    for (const gone of ['README.md', 'cohorts/2024', 'course/01-basics/code', 'cohorts/2024/homework.md']) {
      const dir = await checkout(course);
      await rm(path.join(dir, gone), { recursive: true });
      expect(await toCompile(dir, state), gone).toEqual([README]);
    }
  });
});

describe('digestMatches', () => {
  const build = {
    file: 'a'.repeat(64),
    settings: '{"defaults":{"lesson_type":"text"},"assets":null,"lesson_url":null}',
    deps: [
      { path: 'p/s/img/a.png', kind: 'file' as const, digest: 'b'.repeat(64) },
      { path: 'p/s/2.md', kind: 'lesson' as const, digest: 'c'.repeat(64) },
    ],
    includes: [{ path: 'p/_partials/x.md', digest: 'd'.repeat(64) }],
    vars: [{ name: 'year', value: '2026' }],
  };
  const placeOf = (p: string) => (p === 'p/s/2.md' ? 'prog_1/les_2' : undefined);
  const digest = lessonDigest('p/s/1.md', build, placeOf);

  it("is lessonDigest's answer, part by part: any one part (8 hex) or the length differing is no match", () => {
    expect(digestMatches(digest, 'p/s/1.md', build, placeOf)).toBe(true);
    for (let part = 0; part < 4; part++) {
      const other = digest.slice(0, part * 8) + (digest[part * 8] === '0' ? '1' : '0') + digest.slice(part * 8 + 1);
      expect(digestMatches(other, 'p/s/1.md', build, placeOf), `part ${part}`).toBe(false);
    }
    expect(digestMatches(`${digest}0`, 'p/s/1.md', build, placeOf)).toBe(false);
    // Each input in turn: another variable, include, linked lesson's place, settings, file bytes, path.
    expect(digestMatches(digest, 'p/s/1.md', { ...build, vars: [...build.vars, { name: 'other', value: 'x' }] }, placeOf)).toBe(false);
    expect(digestMatches(digest, 'p/s/1.md', { ...build, includes: [] }, placeOf)).toBe(false);
    expect(digestMatches(digest, 'p/s/1.md', build, () => 'prog_1/les_9')).toBe(false);
    expect(digestMatches(digest, 'p/s/1.md', { ...build, settings: '{}' }, placeOf)).toBe(false);
    expect(digestMatches(digest, 'p/s/1.md', { ...build, file: 'e'.repeat(64) }, placeOf)).toBe(false);
    expect(digestMatches(digest, 'p/s/01.md', build, placeOf)).toBe(false);
  });
});

describe('recordBuilds', () => {
  /** The build recordBuilds gives a resolved lesson at `path` whose compile said `said`. */
  const buildWith = (said: Array<Partial<Diagnostic>>) => {
    const path = 'p/s/1.md';
    const fields = { ...DEFAULT_LESSON_FIELDS, name: 'One' };
    const entry = { source: { path, digest: 'a'.repeat(64) }, compiled: { fields }, resolved: { fields, assets: [], links: [], deps: [] }, defaults: {} } as unknown as LessonEntry;
    const out = said.map((d) => ({ file: path, severity: 'warning', code: 'lesson/unknown-element', message: 'm', ...d }) as Diagnostic);
    recordBuilds([entry], { of: () => undefined, pageDigest: () => '' }, { removed_lessons: 'keep' }, out, new Set(), () => undefined);
    return entry.build;
  };

  it('records an HTML warning with its place; not a lesson with an error, another warning, or a place the state could not read back', () => {
    expect(buildWith([])?.warnings).toBeUndefined();
    expect(buildWith([{ line: 3, column: 1, hint: 'h' }])?.warnings).toEqual([{ code: 'lesson/unknown-element', line: 3, column: 1, message: 'm', hint: 'h' }]);
    expect(buildWith([{ line: 3, column: 1 }, { severity: 'error', code: 'lesson/forbidden-html' }])).toBeUndefined();
    expect(buildWith([{ code: 'lesson/link-not-lesson', line: 3, column: 1 }])).toBeUndefined();
    expect(buildWith([{ line: 0, column: 1 }])).toBeUndefined();
    expect(buildWith([{ line: 3, column: 1.5 }])).toBeUndefined();
  });
});
