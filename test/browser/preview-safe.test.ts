/// <reference lib="dom" />
/**
 * `coursesync preview` is safe to leave open, in headless Chromium against the built CLI: a
 * co-author's event handlers, `javascript:` link, refresh, `<base>` and embed script never run
 * or act (each would set `window.pwned` or navigate), while the preview's own live reload
 * works; links between lessons open the linked lesson in the preview; a wide image fits.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeRepos, writeRepo } from '../e2e/helpers.js';
import { HOSTILE_COURSE } from '../preview/fixture-course.js';
import { startPreviewProcess, type PreviewProcess } from '../preview/preview-process.js';
import { launchChromium } from './chromium.js';

let browser: Browser;
let dir: string;
let preview: PreviewProcess;

beforeAll(async () => {
  dir = await writeRepo(HOSTILE_COURSE);
  preview = await startPreviewProcess(dir);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  expect(await preview?.stop()).toBe(0);
  await removeRepos();
});

type Pwned = { pwned?: string };

async function open(path: string, width = 1000): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  // Offline: other hosts (the broken image, evil.example) are refused, so onerror would fire.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  await page.goto(new URL(path, preview.url).href, { waitUntil: 'load' });
  return page;
}

/** Do what a reader does with the hostile lesson, then say what ran: nothing may have. */
async function provoke(page: Page): Promise<{ pwned: string | undefined; url: string; base: string }> {
  const lesson = page.locator('.lesson-body[data-key="hostile"]');
  await lesson.locator('details summary').click(); // ontoggle
  await lesson.locator('#run').click(); // javascript:
  await lesson.locator('img[alt="a broken image"]').hover();
  // A round trip to the server after the clicks: a navigation they started would have begun.
  await page.evaluate(() => fetch('/', { cache: 'no-store' }).then((r) => r.status));
  return {
    pwned: await page.evaluate(() => (window as unknown as Pwned).pwned),
    url: page.url(),
    base: await page.evaluate(() => document.baseURI),
  };
}

describe('coursesync preview is safe to leave open (Chromium)', () => {
  it('runs no lesson script: handlers, javascript: links, refresh, <base> and embed scripts neither run nor act', async () => {
    for (const path of ['/', '/lessons/hostile/']) {
      const page = await open(path);
      const at = new URL(path, preview.url).href;
      // The lesson and its embed are there …
      expect(await page.locator('.lesson-body[data-key="hostile"] details').count(), path).toBe(1);
      // … (the embed lesson only on the course page)
      if (path === '/') expect(await page.locator('#quiz').textContent()).toBe('Quiz');
      expect(await page.locator('.lesson-body[data-key="hostile"] meta[http-equiv]').count(), path).toBe(0);
      // … and nothing of theirs ran or acted.
      expect(await provoke(page), path).toEqual({ pwned: undefined, url: at, base: at });
      await page.close();
    }
  });

  it("a lesson's exact bytes opened on their own (/lessons/<key>/body.html) run nothing either", async () => {
    const page = await open('/lessons/hostile/body.html');
    await page.evaluate(() => fetch('/', { cache: 'no-store' }).catch(() => 0));
    expect(await page.evaluate(() => (window as unknown as Pwned).pwned)).toBeUndefined();
    expect(page.url()).toBe(new URL('/lessons/hostile/body.html', preview.url).href);
    await page.close();
  });

  it('a link between lessons opens the linked lesson in the preview, at its heading', async () => {
    const page = await open('/');
    await page.locator('.lesson-body[data-key="hostile"] a', { hasText: 'the setup lesson' }).click();
    await page.waitForURL(new URL('/lessons/setup/#install-node', preview.url).href);
    expect(await page.locator('article.lesson').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key))).toEqual(['setup']);
    expect(await page.locator('#install-node').textContent()).toBe('Install Node');
    // … and back, from that lesson's own page.
    await page.locator('.lesson-body[data-key="setup"] a', { hasText: 'the notes' }).click();
    await page.waitForURL(new URL('/lessons/hostile/', preview.url).href);
    expect(await page.locator('article.lesson h4').textContent()).toContain('Shared notes');
    // Every link between lessons lands on a page of the preview: no placeholder is left.
    const hrefs = await page.locator('.lesson-body a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.filter((h) => h?.startsWith('/lessons/'))).toEqual(['/lessons/setup/#install-node', '/lessons/setup/', '/lessons/setup/']);
    expect(hrefs.join('')).not.toMatch(/[\uE002\uE003]/);
    await page.close();
  });

  it('an image wider than the page fits it', async () => {
    for (const width of [1000, 400]) {
      const page = await open('/', width);
      const fit = await page.evaluate(() => {
        const img = document.getElementById('wide') as HTMLImageElement;
        const body = img.closest('.lesson-body')!;
        return {
          loaded: img.naturalWidth,
          inside: img.getBoundingClientRect().right <= body.getBoundingClientRect().right,
          noScroll: document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        };
      });
      expect(fit, `viewport ${width}`).toEqual({ loaded: 3000, inside: true, noScroll: true });
      await page.close();
    }
  });

  it("the preview's own live reload still runs under the policy", async () => {
    const page = await open('/lessons/hostile/');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    const file = join(dir, 'course/01-start/01-hostile.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('name: Shared notes', 'name: Shared notes, edited'));
    await page.locator('article.lesson h4', { hasText: 'Shared notes, edited' }).waitFor({ timeout: 5000 });
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(7);
    expect(await provoke(page)).toEqual({ pwned: undefined, url: new URL('/lessons/hostile/', preview.url).href, base: new URL('/lessons/hostile/', preview.url).href });
    await page.close();
  });
});
