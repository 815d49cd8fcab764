/**
 * Keys of lessons whose file names repeat across modules (docs/course-repo.md#lesson-keys):
 * qualified by their folder, a key the state tracks at the path kept, `lessons:` by file-name
 * key; and a book's links out of its folder to its site (`site_url:`).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadCourse } from '../../src/load/load-course.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const MODULES = {
  'c/program.yaml': 'id: prog_intro\n',
  'c/01-basics/section.yaml': 'id: sec_start\nlessons: [homework, README, notes]\n',
  'c/01-basics/README.md': '# Basics\n',
  'c/01-basics/homework.md': '# Homework 1\n',
  'c/01-basics/notes.md': '# Notes\n',
  'c/02-functions/section.yaml': 'id: sec_types\n',
  'c/02-functions/homework.md': '# Homework 2\n',
  'c/02-functions/README.md': '# Functions\n',
};

const keysOf = (result: Awaited<ReturnType<typeof loadCourse>>) => result.desired!.programs[0]!.sections.map((s) => s.lessons.map((l) => l.key));

/** A course of a program `c` with these files, compiled. */
const compiled = async (files: Record<string, string>) => loadCourse(await writeRepo({ 'c/program.yaml': 'id: prog_intro\n', ...files }), { renderThreads: 1 });

describe('repeated file names', () => {
  it('give folder-qualified keys; lessons: lists them by their file name; README first otherwise', async () => {
    const result = await loadCourse(await writeRepo(MODULES), { renderThreads: 1 });
    expect(result.diagnostics).toEqual([]);
    expect(keysOf(result)).toEqual([
      ['basics.homework', 'basics.README', 'notes'],
      ['functions.README', 'functions.homework'],
    ]);
  });

  it('keep the key the state tracks at their path, when no key: claims it', async () => {
    const dir = await writeRepo(MODULES);
    const keyAt = (path: string) => (path === 'c/01-basics/homework.md' ? 'homework' : undefined);
    const result = await loadCourse(dir, { renderThreads: 1, known: { lessons: new Map(), placeOf: () => undefined, keyAt } });
    expect(keysOf(result)[0]).toEqual(['homework', 'basics.README', 'notes']);
    expect(keysOf(result)[1]).toEqual(['functions.README', 'functions.homework']);
  });

  it('fall back to the whole path when the folders repeat too', async () => {
    const result = await compiled({ 'c/01-a/section.yaml': 'id: sec_start\n', 'c/01-a/x.md': '# X\n', 'c/02-a/section.yaml': 'id: sec_types\n', 'c/02-a/x.md': '# X\n' });
    expect(keysOf(result)).toEqual([['c.01-a.x'], ['c.02-a.x']]);
  });

  it('named with spaces, give their words; names of one folder that give one key, the names as written (Security-101 lays its quizzes out so)', async () => {
    const result = await compiled({
      'c/01-basics/section.yaml': 'id: sec_start\n',
      'c/01-basics/1.1 The CIA triad.md': '# The CIA triad\n',
      'c/01-basics/1.7 End of module quiz.md': '# Quiz\n',
      'c/01-basics/2.4 End of module quiz.md': '# Quiz\n',
      'c/01-basics/Week 1 - Intro.md': '# Week 1\n',
    });
    expect(result.diagnostics).toEqual([]);
    expect(keysOf(result)).toEqual([['The-CIA-triad', 'c.01-basics.1.7-End-of-module-quiz', 'c.01-basics.2.4-End-of-module-quiz', 'Week-1-Intro']]);
  });

  it('qualified by folders named with spaces, stay the keys they were (a changed key would be a second lesson)', async () => {
    const result = await compiled({
      'c/01 - Basics/section.yaml': 'id: sec_start\n',
      'c/01 - Basics/homework.md': '# Homework 1\n',
      'c/Module 2/section.yaml': 'id: sec_types\n',
      'c/Module 2/homework.md': '# Homework 2\n',
    });
    expect(keysOf(result)).toEqual([['01---Basics.homework'], ['Module-2.homework']]);
  });
});

describe('site_url: of a book', () => {
  it('sends a link out of the book to a page the repo does not hold to that page of the site', async () => {
    const dir = await writeRepo({
      'src/program.yaml': 'id: prog_book\ntoc: SUMMARY.md\nsite_url: https://doc.rust-lang.org/book\n',
      'src/SUMMARY.md': '- [Types](ch03.md)\n',
      'src/ch03.md': '# Types\n\nSee [`Vec`](../std/vec/struct.Vec.html#method.push) and [missing](nope.html).\n',
    });
    const result = await loadCourse(dir, { renderThreads: 1 });
    // Inside the book, a missing page is still an error.
    expect(result.diagnostics.map((d) => d.message)).toEqual(['"nope.html": neither src/nope.html nor src/nope.md is in the repo']);
    await writeRepo({ 'src/ch03.md': '# Types\n\nSee [`Vec`](../std/vec/struct.Vec.html#method.push).\n' }, dir);
    const fixed = await loadCourse(dir, { renderThreads: 1 });
    expect(fixed.desired!.programs[0]!.sections[0]!.lessons[0]!.fields.body).toContain('href="https://doc.rust-lang.org/std/vec/struct.Vec.html#method.push"');
  });
});

describe('a book at the repo root', () => {
  it('links its site above its own folder too, and sections: without toc: is an error', async () => {
    const dir = await writeRepo({
      'program.yaml': 'id: prog_book\ntoc: SUMMARY.md\nsite_url: https://doc.rust-lang.org/book/\n',
      'SUMMARY.md': '- [Types](ch03.md)\n',
      'ch03.md': '# Types\n\nSee [the reference](../reference/types.html).\n',
    });
    const result = await loadCourse(dir, { renderThreads: 1 });
    expect(result.diagnostics).toEqual([]);
    expect(result.desired!.programs[0]!.sections[0]!.lessons[0]!.fields.body).toContain('href="https://doc.rust-lang.org/reference/types.html"');
    await writeRepo({ 'program.yaml': 'id: prog_book\nsections:\n  Types: sec_types\n' }, dir);
    const flat = await loadCourse(dir, { renderThreads: 1 });
    expect(flat.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toContain('program.yaml:2:1 toc/sections-without-toc');
  });
});
