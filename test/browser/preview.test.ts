/// <reference lib="dom" />
/**
 * `coursesync preview` in headless Chromium: the built CLI serves a fixture course; the page
 * shows lessons in learner order with lock and draft marks and the unlock calendar; each
 * lesson's HTML is what `plan --json` would send; a save updates the open page by itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';
import { ORDER, PREVIEW_COURSE } from '../preview/fixture-course.js';
import { launchChromium } from './chromium.js';

let browser: Browser;
let dir: string;
let url: string;
let stderr = '';
const children: ChildProcess[] = [];

/** Start the built CLI's preview on a free port; resolve with the address it prints. */
function startPreview(repo: string): Promise<{ child: ChildProcess; url: string }> {
  const env = { ...process.env };
  delete env.COURSESYNC_TOKEN; // it needs none
  const child = spawn(process.execPath, [CLI, 'preview', repo, '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^preview on (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`preview exited with ${code}: ${stderr}`)));
  });
}

beforeAll(async () => {
  dir = await writeRepo(PREVIEW_COURSE);
  ({ url } = await startPreview(dir));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  // Ctrl-C stops a preview cleanly.
  const codes = await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGINT');
      return exited;
    }),
  );
  expect(codes.every((c) => c === 0)).toBe(true);
  await removeRepos();
});

async function open(at = url): Promise<Page> {
  const page = await browser.newPage();
  // The page must work offline: video iframes and images point at hosts this test never reaches.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  await page.goto(at);
  return page;
}

describe('coursesync preview in Chromium', () => {
  it('prints its address, and shows lessons in order with lock and draft marks and the calendar', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await open();
    expect(await page.locator('article.lesson').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.key))).toEqual(ORDER);
    expect(await page.locator('#lesson-quiz .mark.lock').textContent()).toContain('progression lock');
    expect(await page.locator('.mark.lock').count()).toBe(1);
    expect(await page.locator('#lesson-notes .mark.draft').textContent()).toBe('draft');
    expect(await page.locator('.mark.draft').count()).toBe(1);
    expect(await page.locator('#lesson-primitives .gate').textContent()).toBe('Opens after completing quiz');
    expect(await page.locator('#lesson-objects .mark.day').textContent()).toBe('day 14');
    expect(await page.locator('#lesson-welcome h4').textContent()).toContain('Welcome <aboard>');
    const calendar = await page.locator('#calendar .day').evaluateAll((days) =>
      days.map((d) => [(d as HTMLElement).dataset.day, Array.from(d.querySelectorAll('a'), (a) => a.dataset.key)]),
    );
    expect(calendar).toEqual([
      ['0', ['welcome']],
      ['2', ['install']],
      ['7', ['quiz', 'primitives']],
      ['14', ['objects', 'unions']],
      ['21', ['talk']],
    ]);
    expect(await page.locator('#calendar .day[data-day="7"] p').textContent()).toBe('2 lessons unlock');
    expect(await page.locator('.player iframe').evaluateAll((f) => f.map((x) => new URL((x as HTMLIFrameElement).src).host))).toEqual([
      'www.youtube-nocookie.com',
      'player.vimeo.com',
      'fast.wistia.net',
      'www.loom.com',
    ]);
    expect(await page.locator('#diagnostics').getAttribute('data-count')).toBe('0');
    await page.close();
  });

  it("each lesson's HTML is what plan --json would send", async () => {
    const plan = await runCli(['plan', dir, '--json']);
    expect(plan.code, plan.stderr).toBe(0);
    const sent = new Map(
      (JSON.parse(plan.stdout) as { changes: Array<{ key: string; request: { body?: string } }> }).changes.map((c) => [c.key, c.request.body ?? '']),
    );
    expect([...sent.keys()].sort()).toEqual([...ORDER].sort());
    const page = await open();
    for (const key of ORDER) {
      // The bytes the server holds for the lesson …
      expect(await (await fetch(new URL(`lessons/${key}/body.html`, url))).text()).toBe(sent.get(key));
      // … and the page's body element holds exactly that HTML (compared after the same parse).
      const same = await page.evaluate(
        ({ key, html }) => {
          const t = document.createElement('template');
          t.innerHTML = html;
          return document.querySelector(`.lesson-body[data-key="${key}"]`)!.innerHTML === t.innerHTML;
        },
        { key, html: sent.get(key)! },
      );
      expect(same, key).toBe(true);
    }
    await page.close();
  });

  it('a save updates the open page without a reload; an error shows at path:line in the page', async () => {
    // Its own repo and server: this test edits files.
    const own = await writeRepo(PREVIEW_COURSE);
    const page = await open((await startPreview(own)).url);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const file = join(own, 'course/02-types/03-unions.md');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('name: Unions', 'name: Union types').replace('A | B', 'Either **A** or B'));
    await page.locator('#lesson-unions h4', { hasText: 'Union types' }).waitFor({ timeout: 30_000 });
    expect((await page.locator('.lesson-body[data-key="unions"]').innerHTML()).trim()).toBe('<p>Either <strong>A</strong> or B</p>');
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42);

    await writeFile(join(own, 'course/02-types/05-broken.md'), '---\nname: Broken\ndrip_delay: soon\n---\nx\n');
    // writeFile creates the file empty first: a rebuild may catch it so and show that error for a moment.
    const diagnostic = page.locator('#diagnostics .diagnostic.error', { hasText: 'drip_delay' });
    await diagnostic.first().waitFor({ timeout: 30_000 });
    expect(await diagnostic.locator('.place').first().textContent()).toBe('course/02-types/05-broken.md:3:13');
    expect(await diagnostic.locator('.message').first().textContent()).toMatch(/drip_delay/);
    // The last good course stays visible, with the edit.
    expect(await page.locator('#lesson-unions h4').textContent()).toContain('Union types');
    expect(await page.evaluate(() => (window as unknown as { marker: number }).marker)).toBe(42);
    await page.close();
  });

  it('never talks to the school: no token was set and no school address was configured', () => {
    expect(stderr).toMatch(/compiled 8 lessons in \d+ ms/);
    expect(stderr).not.toMatch(/token|COURSESYNC_BASE_URL/i);
  });
});
