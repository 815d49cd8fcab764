/**
 * A Jekyll course site as a learner sees it: the Missing-Semester-like fixture (lectures in a
 * `_2020` collection named by their front-matter `title:`, exercise solutions and teaching notes
 * hidden in Liquid `{% comment %}` blocks, a `{% raw %}` around a Liquid tag in prose, code,
 * tables, an image, a link written as the site's address) is published, applied with the built
 * CLI to the emulator, and each lecture opened in headless Chromium: the exercises are there, no
 * solution and no note is, no Liquid tag shows outside code, and the site-address link opens the
 * lecture it names.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { courseInChromium } from './course-in-chromium.js';

const SITE = path.resolve(import.meta.dirname, '../fixtures/repos/jekyll');

const course = courseInChromium({ fixture: SITE, prefix: 'coursesync-browser-jekyll-', assetsUrl: 'http://assets.test/jekyll/' });

describe('a Jekyll course site after one apply, in Chromium', () => {
  it('shows each lecture with its exercises, and none of what its comments hide', async () => {
    const { browser } = course;
    const lessons = await course.publishAndApply();
    expect(Object.keys(lessons).sort()).toEqual(['course-shell', 'shell-tools', 'version-control']);

    const page = await browser.newPage();
    const open = async (key: string, name: string) => {
      await course.visit(page, lessons[key]!);
      // The school prints the lecture's name, from its title:, above the body.
      expect(await page.$eval('body', (b) => (b as unknown as HTMLElement).innerText)).toContain(name);
      const view = await course.read(page);
      expect(view.prose).not.toContain('{%');
      expect(view.text).not.toMatch(/comment %}|Solution/);
      expect(view.images.every(Boolean)).toBe(true);
      return view;
    };

    const tools = await open('shell-tools', 'Shell Tools and Scripting');
    expect(tools.text).toContain('Write two functions, marco and polo');
    expect(tools.text).not.toContain('MARCO_DIR');
    expect(tools.text).not.toContain('ls -lath');
    expect(tools.text).not.toContain('fd --extension');
    expect(tools.images).toEqual([true]);
    expect(tools.code).toHaveLength(3);

    const shell = await open('course-shell', 'Course Overview + The Shell');
    expect(shell.text).toContain('Make a folder missing under /tmp');
    expect(shell.text).not.toContain('TODO for next year');

    const git = await open('version-control', 'Version Control (Git)');
    expect(git.text).toContain('Remove a password you committed by mistake');
    expect(git.text).not.toContain('filter-repo');
    // What raw keeps is shown as written, in its code span.
    expect(git.text).toContain('{{ page.title }} prints the title of the page');
    // A link written as the site's address (`/2020/course-shell/#the-shell`, program.yaml
    // `site_paths:`) lands on that lecture's page, at its heading.
    const href = await page.$eval('main a[href*="#the-shell"]', (a) => (a as unknown as { href: string }).href);
    await page.goto(href, { waitUntil: 'load' });
    expect(await page.$eval('main', (m) => m.getAttribute('data-lesson-id'))).toBe(lessons['course-shell']!.id);
    expect(await page.$eval('[id="the-shell"]', (h) => h.textContent)).toBe('The shell');
    await page.close();
  });
});
