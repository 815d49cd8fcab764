/**
 * An mdBook book as its authors keep it (test/fixtures/repos/mdbook: SUMMARY.md, chapters flat
 * in src/, nested pages, a part title, unnumbered chapters, images, `.html` links between
 * chapters, `{{#include}}` lines), with only coursesync.yaml and src/program.yaml added: the
 * built CLI validates it, applies it to the emulator (chapters are the school sections of the
 * same name, one mapped by id), re-plans to "No changes", and in Chromium every learner page
 * shows its title once, the code its {{#include}}s select and no directive, and every link
 * between chapters lands on a lesson page.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { SECRET, schoolSections } from '../apply/helpers.js';
import { courseInChromium } from '../browser/course-in-chromium.js';
import { runCli } from './helpers.js';

const MDBOOK = path.resolve(import.meta.dirname, '../fixtures/repos/mdbook');

/** A school whose program has a section per chapter, named as the book's SUMMARY.md titles them ("Foreword" is "Preface" there). */
const SECTIONS = [
  ['sec_title', 'The Rust Programming Language'],
  ['sec_preface', 'Preface'],
  ['sec_intro', 'Introduction'],
  ['sec_start', 'Getting Started'],
  ['sec_game', 'Programming a Guessing Game'],
  ['sec_common', 'Common Programming Concepts'],
  ['sec_appendix', 'Appendix'],
] as const;

const course = courseInChromium({
  fixture: MDBOOK,
  prefix: 'coursesync-mdbook-e2e-',
  assetsUrl: 'http://assets.test/course/',
  emulator: () =>
    startEmulator({
      port: 0,
      seed: {
        api_keys: [{ token: SECRET, programs: 'all' }],
        programs: [
          {
            id: 'prog_book',
            name: 'The Rust Programming Language',
            section_groups: [{ id: 'grp_book', name: 'Book', position: 1 }],
            sections: SECTIONS.map(([id, name], i) => ({ id, name, section_group_id: 'grp_book', position: i + 1 })),
          },
        ],
      },
    }),
});

describe('an mdBook book, unedited', () => {
  it('validates, applies in SUMMARY order, re-plans to No changes, shows each title once and the included code, never a directive', async () => {
    const { workspace: { repo, published }, emu, browser } = course;
    const validated = await runCli(['validate', repo]);
    expect(validated.stdout).toContain('1 program, 7 sections, 12 lessons: valid');
    expect(validated.code).toBe(0);

    expect((await runCli(['assets', repo, '--out', published])).code).toBe(0);
    const applied = await runCli(['apply', repo, '--yes'], course.env());
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/Apply complete: 12 created/);

    const again = await runCli(['plan', repo], course.env());
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^No changes\. 12 lessons unchanged\./m);

    // Each chapter is the section of its name (Foreword through program.yaml's sections:), its pages in SUMMARY order.
    const school = await schoolSections(emu);
    const names = (id: string) => (school.get(id) ?? []).map((l) => l.name);
    expect(names('sec_title')).toEqual(['The Rust Programming Language']);
    expect(names('sec_preface')).toEqual(['Foreword']);
    expect(names('sec_start')).toEqual(['Getting Started', 'Installation', 'Hello, World!']);
    expect(names('sec_common')).toEqual(['Common Programming Concepts', 'Variables and Mutability', 'Data Types']);
    expect(names('sec_appendix')).toEqual(['Appendix', 'Appendix A: Keywords']);

    // No file of the book was touched: only coursesync.yaml, program.yaml and the state are new.
    expect(await readFile(path.join(repo, 'src/ch01-00-getting-started.md'), 'utf8')).toBe(await readFile(path.join(MDBOOK, 'src/ch01-00-getting-started.md'), 'utf8'));

    const lessons = Object.values(await course.lessons());
    const ids = new Set(lessons.map((l) => l.id));
    const page = await browser.newPage();
    const code = new Map<string, string[]>();
    try {
      for (const lesson of lessons) {
        expect(lesson.program_id).toBe('prog_book');
        await page.goto(course.pageOf(lesson));
        const seen = await page.evaluate(() => {
          const name = document.querySelector('h1.lesson-name')?.textContent ?? '';
          const body = document.querySelector('main.lesson-body')!;
          const texts = Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6')).map((h) => (h.textContent ?? '').trim());
          const links = Array.from(body.querySelectorAll('a[href]')).map((a) => (a as HTMLAnchorElement).href);
          const images = Array.from(body.querySelectorAll('img')).map((img) => ({ src: img.src, loaded: img.complete && img.naturalWidth > 0 }));
          return { name, titles: texts.filter((t) => t === name).length, links, images, text: body.textContent ?? '', code: Array.from(body.querySelectorAll('pre code')).map((c) => c.textContent ?? '') };
        });
        expect(seen.titles, `${lesson.path}: "${seen.name}" shown once`).toBe(1);
        // Includes arrive expanded: no directive and no ANCHOR line reaches a learner.
        expect(seen.text, lesson.path).not.toContain('{{#');
        expect(seen.text, lesson.path).not.toContain('ANCHOR');
        code.set(lesson.path, seen.code);
        for (const img of seen.images) expect(img.loaded, `${lesson.path}: ${img.src}`).toBe(true);
        for (const href of seen.links) {
          // Every .html link between chapters is now a link to that chapter's lesson page.
          expect(href, lesson.path).not.toMatch(/\.html(#|$)/);
          const m = /\/products\/prog_book\/lessons\/([^/#]+)/.exec(href);
          if (m) expect(ids.has(m[1]!), `${lesson.path} → ${href}`).toBe(true);
        }
      }
    } finally {
      await page.close();
    }
    // The included code itself: a whole file, an anchor, a single line.
    expect(code.get('src/ch01-02-hello-world.md')).toContain('fn main() {\n    println!("Hello, world!");\n}\n');
    const game = code.get('src/ch02-00-guessing-game-tutorial.md') ?? [];
    expect(game).toContain('use std::io;\n');
    expect(game).toContain('    let mut guess = String::new();\n');
    expect(game.some((c) => c.includes('.expect("Failed to read line");') && c.startsWith('use std::io;'))).toBe(true);
  });
});
