/**
 * A module-per-folder course as DataTalksClub's zoomcamps keep it (test/fixtures/repos/modules:
 * a README.md and a homework.md in every module, video headings written with GitHub's emoji
 * shortcodes, `## :movie_camera: Lecture`) after one apply, in Chromium: learners see the emoji
 * GitHub shows, not the shortcode; a shortcode in code stays as written; the homework's link to
 * the lecture lands on the module's page at that heading, whose id is GitHub's.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { courseInChromium } from './course-in-chromium.js';

const MODULES = path.resolve(import.meta.dirname, '../fixtures/repos/modules');

const course = courseInChromium({ fixture: MODULES, prefix: 'coursesync-browser-modules-', assetsUrl: 'http://assets.test/course/' });

describe('a module-per-folder course after one apply, in Chromium', () => {
  it('shows emoji where the course wrote shortcodes, and its links land at their headings', async () => {
    const { browser, workspace } = course;
    // The fixture links the course README, outside every program (module-course-cli.test.ts):
    // mended here as its team would, to the README on GitHub.
    const functions = path.join(workspace.repo, 'course', '02-functions', 'README.md');
    await writeFile(functions, (await readFile(functions, 'utf8')).replace('../../README.md', 'https://github.com/example/js-course#readme'));
    const lessons = await course.publishAndApply();
    expect(Object.keys(lessons)).toEqual(expect.arrayContaining(['basics.README', 'basics.homework', 'cheatsheet']));

    const page = await browser.newPage();
    await course.visit(page, lessons['basics.README']!);
    const basics = await course.read(page);
    expect(basics.prose).toContain('🎥 Lecture');
    expect(basics.prose).toMatch(/Watch the lecture 🎉 and keep the\s+cheatsheet open/);
    expect(basics.prose).not.toMatch(/:movie_camera:|:tada:/);
    expect(await page.$$eval('main p code', (codes) => codes.map((c) => c.textContent))).toContain("console.log(':tada:')");
    expect(basics.images).toEqual([true]);
    expect(await page.$eval('[id="movie_camera-lecture"]', (h) => h.textContent)).toBe('🎥 Lecture');

    await course.visit(page, lessons['basics.homework']!);
    const href = await page.$eval('main a[href*="#movie_camera-lecture"]', (a) => (a as unknown as { href: string }).href);
    await page.goto(href, { waitUntil: 'load' });
    expect(await page.$eval('main', (m) => m.getAttribute('data-lesson-id'))).toBe(lessons['basics.README']!.id);
    await page.close();
  });
});
