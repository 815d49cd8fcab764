/**
 * Lessons arrive whole, checked as a learner sees them: the Odin-like fixture (images next to
 * the lessons, srcset, a PDF download, links between lesson files, #anchors, a link to a lesson
 * the same apply creates, a cycle of links) is published with `coursesync assets`, served by a
 * local static server at assets.base_url, applied ONCE with the built CLI to the emulator, and
 * every lesson page is opened in headless Chromium: every <img> loaded, every link to another
 * lesson lands on that lesson's page and its anchor exists, every same-page anchor exists.
 * A second apply sends no request and publishes no new file.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../e2e/helpers.js';
import { courseInChromium } from './course-in-chromium.js';

const ODIN = path.resolve(import.meta.dirname, '../fixtures/repos/odin');

const course = courseInChromium({ fixture: ODIN, prefix: 'coursesync-browser-', assetsUrl: 'http://assets.test/course/' });

describe('the Odin-like course after one apply, in Chromium', () => {
  it('publishes, applies once, and every image, link and anchor works; a second apply sends nothing', async () => {
    const { emu, browser, origin, workspace: { repo, published: assetsDir, host } } = course;
    const assetsUrl = host.baseUrl;
    const published = await runCli(['assets', repo, '--out', assetsDir]);
    expect(published.stderr).toBe('');
    expect(published.code).toBe(0);
    expect(published.stdout).toContain('5 new asset files, 0 already in');
    expect((await readdir(assetsDir)).sort()).toEqual([
      expect.stringMatching(/^clone_repo\.[0-9a-f]{16}\.png$/),
      expect.stringMatching(/^diagram\.[0-9a-f]{16}\.png$/),
      expect.stringMatching(/^git-cheatsheet\.[0-9a-f]{16}\.pdf$/),
      expect.stringMatching(/^logo-2x\.[0-9a-f]{16}\.png$/),
      expect.stringMatching(/^logo\.[0-9a-f]{16}\.png$/),
    ]);

    const applied = await runCli(['apply', repo, '--yes'], course.env());
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    // Three creates; then an update only for a lesson sent before a lesson it links to existed:
    // welcome links to setup, created after it in the same section; recipes and welcome are in
    // two sections applied side by side, so which of them came first depends on timing.
    const updates = applied.stdout.split('\n').filter((l) => l.startsWith('~ update')).map((l) => l.split(' ')[2]);
    expect(applied.stdout.split('\n').filter((l) => l.startsWith('+ create'))).toHaveLength(3);
    expect(updates).toContain('welcome');
    expect(updates).not.toContain('setup');
    expect(updates.length).toBeLessThanOrEqual(2);
    // Apply asked the static host for every asset before sending a lesson that shows it.
    expect(host.requests.filter((r) => r.startsWith('HEAD')).length).toBe(5);

    const lessons = await course.lessons();
    expect(Object.keys(lessons).sort()).toEqual(['recipes', 'setup', 'welcome']);
    const keyOfId = new Map(Object.entries(lessons).map(([k, l]) => [l.id, k]));

    const page = await browser.newPage();
    const followed: string[] = [];
    for (const key of Object.keys(lessons)) {
      const answer = await page.goto(course.pageOf(lessons[key]!), { waitUntil: 'load' });
      expect(answer?.status()).toBe(200);
      // Every image loaded (srcset included: the browser picks one candidate and must get it).
      const images = await page.$$eval('img', (els) => els.map((i) => ({ src: i.currentSrc || i.src, ok: i.complete && i.naturalWidth > 0 })));
      expect(images.length).toBe({ welcome: 2, setup: 0, recipes: 2 }[key]);
      for (const img of images) expect(img, `${key}: ${img.src}`).toMatchObject({ ok: true });
      const links = await page.$$eval('a[href]', (els) => els.map((a) => ({ href: (a as unknown as { href: string }).href, raw: a.getAttribute('href') ?? '', text: a.textContent ?? '' })));
      for (const link of links) {
        const url = new URL(link.href);
        if (link.raw.startsWith('#')) {
          // Same page: the anchor is there.
          expect(await page.$(`[id="${decodeURIComponent(link.raw.slice(1))}"], a[name="${decodeURIComponent(link.raw.slice(1))}"]`), `${key}: ${link.raw}`).not.toBeNull();
          continue;
        }
        if (url.origin === origin) {
          const target = await browser.newPage();
          const res = await target.goto(link.href, { waitUntil: 'load' });
          expect(res?.status(), `${key}: ${link.text} → ${link.href}`).toBe(200);
          const landed = await target.$eval('main', (m) => m.getAttribute('data-lesson-id'));
          expect(landed).toBe(url.pathname.split('/').pop());
          if (url.hash) expect(await target.$(`[id="${decodeURIComponent(url.hash.slice(1))}"]`), `${key}: ${link.href}`).not.toBeNull();
          followed.push(`${key} → ${keyOfId.get(landed ?? '')}${url.hash}: ${link.text.trim()}`);
          await target.close();
        } else if (link.href.startsWith(assetsUrl)) {
          const res = await fetch(link.href);
          expect(res.status, link.href).toBe(200);
          expect(res.headers.get('content-type')).toBe('application/pdf');
        } else {
          expect(['https:', 'mailto:']).toContain(url.protocol);
        }
      }
    }
    await page.close();
    // The lesson links of the fixture, each on the right page (welcome → recipes was a lesson
    // created by the same apply; recipes → welcome closes a cycle).
    expect(followed.sort()).toEqual(
      [
        'recipes → welcome#next-steps: the welcome\'s next steps',
        'setup → welcome#welcome: back to the welcome',
        'welcome → recipes: Recipes project',
        'welcome → setup#installing-git: how to set up Git',
        'welcome → setup#step-1: the second step',
        'welcome → setup: Setting up Git',
        'welcome → setup: Setting up Git',
      ].sort(),
    );

    // Once more: nothing to publish, nothing to send.
    const before = emu.stats().requests;
    const requestsBefore = host.requests.length;
    const again = await runCli(['assets', repo, '--out', assetsDir]);
    expect(again.stdout).toContain('0 new asset files, 5 already in');
    const second = await runCli(['apply', repo, '--yes'], course.env());
    expect(second.code).toBe(0);
    expect(emu.stats().requests).toBe(before);
    expect(host.requests.length).toBe(requestsBefore);
  });
});
