/**
 * A Carpentries lesson as a learner sees it: the Workbench-like fixture (episodes named by
 * their front-matter `title:`, objectives, questions, callouts, challenges and key points in
 * `:::` fences, solutions inside challenges, notes for instructors, figures whose alt text is a
 * Pandoc attribute block) is published, applied with the built CLI to the emulator, and each
 * episode opened in headless Chromium: titled boxes and no fence, solutions folded until
 * opened, no instructor note, figures loaded with their alt text and no braces shown.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCli } from '../e2e/helpers.js';
import { courseInChromium } from './course-in-chromium.js';

const LESSON = path.resolve(import.meta.dirname, '../fixtures/repos/carpentries');

const course = courseInChromium({ fixture: LESSON, prefix: 'coursesync-browser-carpentries-', assetsUrl: 'http://assets.test/carpentries/' });

/** What a learner reads on the page: the whole text, the boxes by class and title, folded parts, images. */
async function seen(page: Page) {
  return page.$eval('main', (m) => {
    const el = m as unknown as HTMLElement;
    return {
      text: el.innerText,
      boxes: Array.from(el.querySelectorAll('.admonition')).map((b) => `${b.classList[1]}: ${(b.querySelector(':scope > .admonition-title, :scope > summary')?.textContent ?? '').trim()}`),
      folded: Array.from(el.querySelectorAll('details.admonition')).map((d) => (d as HTMLDetailsElement).open),
      images: Array.from(el.querySelectorAll('img')).map((i) => ({ alt: i.alt, loaded: i.complete && i.naturalWidth > 0 })),
    };
  });
}

describe('a Carpentries lesson after one apply, in Chromium', () => {
  it('shows titled boxes, folded solutions, figures with their alt text, and no fence, brace block or instructor note', async () => {
    const { workspace, browser } = course;
    expect((await runCli(['assets', workspace.repo, '--out', workspace.published])).code).toBe(0);
    // What an instructor note references is not published: learners never get it.
    expect((await readdir(workspace.published)).map((f) => f.replace(/\.[0-9a-f]{16}\./, '.')).sort()).toEqual(['directory-tree.png', 'shell-prompt.png']);
    const applied = await runCli(['apply', workspace.repo, '--yes'], course.env());
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    const lessons = await course.lessons();
    expect(Object.keys(lessons).sort()).toEqual(['files', 'intro']);

    const page = await browser.newPage();
    const open = async (key: string, name: string) => {
      await course.visit(page, lessons[key]!);
      // The school prints the lesson's name, from its title:, above the body.
      expect(await page.$eval('body', (b) => (b as unknown as HTMLElement).innerText)).toContain(name);
      const view = await seen(page);
      expect(view.text.split('\n').filter((line) => line.trim().startsWith(':::'))).toEqual([]);
      expect(view.text).not.toMatch(/\{(alt|target)=/);
      expect(view.images.every((i) => i.loaded && i.alt.length > 20)).toBe(true);
      return view;
    };

    const intro = await open('intro', 'Introducing the Shell');
    expect(intro.boxes).toEqual(['admonition-questions: Questions', 'admonition-objectives: Objectives', 'admonition-callout: Callout', 'admonition-challenge: Challenge', 'admonition-solution: Solution', 'admonition-keypoints: Key Points']);
    expect(intro.images).toEqual([{ alt: 'A terminal window with a dollar sign prompt and a blinking cursor after it', loaded: true }]);
    expect(intro.text).not.toContain('live demo');
    expect(intro.text).toContain('Follow the prompt');
    // The solution is folded: its code shows once the learner opens it.
    expect(intro.folded).toEqual([false]);
    expect(await page.isVisible('details.admonition-solution pre')).toBe(false);
    await page.click('details.admonition-solution > summary');
    expect(await page.isVisible('details.admonition-solution pre')).toBe(true);
    expect(await page.$eval('details.admonition-solution pre code', (c) => c.textContent)).toBe('ls -lh\n');

    const files = await open('files', 'Navigating Files and Directories');
    expect(files.boxes).toEqual(['admonition-objectives: Objectives', 'admonition-callout: Callout', 'admonition-challenge: Challenge', 'admonition-solution: Solution', 'admonition-keypoints: Key Points']);
    expect(files.images).toEqual([{ alt: 'A tree of directories: the root holds bin, data, Users and tmp; Users holds one folder per person', loaded: true }]);
    expect(await page.$eval('main img', (i) => i.className)).toBe('figure');
    expect(await page.$eval('main a[href^="https://www.gnu.org"]', (a) => [a.getAttribute('title'), a.getAttribute('target')])).toEqual(['The Bash manual', null]);
    // The challenge's list and the table came through whole.
    expect(await page.$$eval('main .admonition-challenge ol > li', (l) => l.length)).toBe(5);
    expect(await page.$$eval('main table tbody tr', (r) => r.length)).toBe(3);
    await page.close();
  });
});
