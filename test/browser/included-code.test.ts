/**
 * Included code and partials as a learner sees them: the Rust-book-like fixture (listings
 * included by anchor and line range, a partial with an image and a lesson link, variables) is
 * published, applied with the built CLI to the emulator, and each lesson page opened in headless
 * Chromium: the code blocks hold the listings (no directive, no ANCHOR line), the partial's
 * image loads and its link lands on the right lesson and heading, variables show their values.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { courseInChromium } from './course-in-chromium.js';

const BOOK = path.resolve(import.meta.dirname, '../fixtures/repos/includes');

const course = courseInChromium({ fixture: BOOK, prefix: 'coursesync-browser-include-', assetsUrl: 'http://assets.test/book/' });

describe('a book with includes after one apply, in Chromium', () => {
  it('shows the included code, the partial with its image and link, and the variables', async () => {
    const { browser } = course;
    const lessons = await course.publishAndApply();

    const page = await browser.newPage();
    const codeOf = async (key: string) => {
      await course.visit(page, lessons[key]!);
      const text = await page.$eval('main', (m) => (m as unknown as { innerText: string }).innerText);
      expect(text).not.toMatch(/\{\{#(rustdoc_)?include \.\./);
      expect(text).not.toContain('ANCHOR');
      expect(text).toContain('You need Rust 1.80 installed');
      // The partial's image, resolved from the partial's folder, loaded.
      const images = await page.$$eval('img', (els) => els.map((i) => i.complete && i.naturalWidth > 0));
      expect(images).toEqual([true]);
      // The partial's link lands on the first lesson, at its heading.
      const href = await page.$eval('blockquote a', (a) => (a as unknown as { href: string }).href);
      const target = await browser.newPage();
      expect((await target.goto(href, { waitUntil: 'load' }))?.status()).toBe(200);
      expect(await target.$eval('main', (m) => m.getAttribute('data-lesson-id'))).toBe(lessons['hello-world']!.id);
      expect(await target.$(`[id="${new URL(href).hash.slice(1)}"]`)).not.toBeNull();
      await target.close();
      return { text, code: await page.$$eval('pre code', (els) => els.map((e) => e.textContent ?? '')) };
    };

    const hello = await codeOf('hello-world');
    // mdBook's hidden lines (`# fn main() {`) are not shown, as in the book.
    expect(hello.code).toEqual(['fn main() {\n    println!("Hello, world!");\n}\n', 'fn main() {\n}\n', '    println!("Hello, world!");\n', 'let x = 5;\nprintln!("x is {x}");\n']);
    expect(hello.text).toContain('This chapter uses Rust 1.80 (edition 2021).');

    const game = await codeOf('guessing-game');
    expect(game.code[0]).toContain('use std::io;\n\nfn main() {\n    println!("Guess the number!");');
    expect(game.code[0]).toContain('println!("You guessed: {guess}");\n}\n');
    expect(game.code.slice(1, 4)).toEqual(['use std::io;\n', '    let mut guess = String::new();\n', 'use std::io;\n']);
    await page.close();
  });
});
