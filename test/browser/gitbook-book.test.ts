/**
 * A GitBook book as a learner sees it: the Django-Girls-like fixture (pieces included with
 * `{% include %}` from the book's root and beside the page, `{% raw %}` around Django tags in
 * prose, Django templates in code blocks, GitHub's alerts) is published, applied with the built
 * CLI to the emulator, and each page opened in headless Chromium: no template tag outside code,
 * the included pieces with their images, code as written, alerts titled, each title once.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { courseInChromium } from './course-in-chromium.js';

const BOOK = path.resolve(import.meta.dirname, '../fixtures/repos/gitbook');

const course = courseInChromium({ fixture: BOOK, prefix: 'coursesync-browser-gitbook-', assetsUrl: 'http://assets.test/gitbook/' });

/** What a learner reads on the page (course.read), and its alerts' titles. */
async function seen(page: Page) {
  const alerts = await page.$$eval('main blockquote.markdown-alert', (els) => els.map((q) => `${q.className.replace('markdown-alert ', '')}: ${q.querySelector('.markdown-alert-title')?.textContent ?? ''}`));
  return { ...(await course.read(page)), alerts };
}

describe('a GitBook book after one apply, in Chromium', () => {
  it('shows the included pieces, code as written, alerts by their titles, and no template tag', async () => {
    const { browser } = course;
    const lessons = await course.publishAndApply();
    expect(Object.keys(lessons).sort()).toEqual(['README', 'deploy.README', 'django_templates.README']);

    const page = await browser.newPage();
    const open = async (key: string) => {
      await course.visit(page, lessons[key]!);
      const view = await seen(page);
      expect(view.prose).not.toContain('{%');
      expect(view.text).not.toMatch(/\[!(NOTE|TIP|WARNING)\]/);
      expect(view.images.every(Boolean)).toBe(true);
      return view;
    };

    const intro = await open('README');
    expect(intro.alerts).toEqual(['markdown-alert-note: Note']);
    expect(intro.images).toEqual([true]);
    // The school prints the name above the body, which no longer repeats it.
    const whole = await page.$eval('body', (b) => (b as unknown as { innerText: string }).innerText);
    expect(whole.split('Django Girls Tutorial').length - 1).toBe(1);
    expect(intro.text).not.toContain('Django Girls Tutorial');

    const deploy = await open('deploy.README');
    expect(deploy.text).toContain('Installing Git: Windows');
    expect(deploy.text).toContain('Create a PythonAnywhere account');
    // The piece's image, resolved from the piece's folder, loaded; its table came along.
    expect(deploy.images).toEqual([true]);
    expect(deploy.code).toEqual([]);
    expect(deploy.text).toContain('sudo apt install git');
    expect(deploy.alerts).toEqual(['markdown-alert-warning: Warning', 'markdown-alert-tip: Tip']);

    const templates = await open('django_templates.README');
    expect(templates.code).toEqual(['{% for post in posts %}\n    <div>\n        <h2><a href="">{{ post.title }}</a></h2>\n        <p>{{ post.text|linebreaksbr }}</p>\n    </div>\n{% endfor %}\n']);
    expect(templates.text).toContain('Everything you put between {% for %} and {% endfor %} will be repeated for each object in the list.');
    await page.close();
  });
});
