/**
 * The preview server in this process: its own cache writes never trigger a reload (no loop),
 * a burst of saves ends in a page that has them all, and it answers only what it serves.
 */
import { writeFile, readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startPreview } from '../../src/preview/index.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';
import { PREVIEW_COURSE } from './fixture-course.js';

afterAll(removeRepos);

/** Versions announced on the event stream, as they come. */
function listen(url: string): { versions: number[]; close: () => void } {
  const versions: number[] = [];
  const req = request(new URL('events', url), (res) => {
    let buffer = '';
    res.on('data', (d: Buffer) => {
      buffer += d.toString();
      for (let i = buffer.indexOf('\n\n'); i >= 0; i = buffer.indexOf('\n\n')) {
        const m = /^data: (\d+)$/m.exec(buffer.slice(0, i));
        if (m) versions.push(Number(m[1]));
        buffer = buffer.slice(i + 2);
      }
    });
  });
  req.on('error', () => {});
  req.end();
  return { versions, close: () => req.destroy() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait for `check` to hold; the bound only turns a hang into a clear failure (a loaded machine may take long). */
async function until(check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}

describe('preview server', () => {
  it('its own cache writes cause no reload; a burst of saves ends in one page with all of them', async () => {
    const dir = await writeRepo(PREVIEW_COURSE);
    const preview = await startPreview({ dir, port: 0, renderThreads: 1 });
    const events = listen(preview.url);
    try {
      await until(() => events.versions.length === 1);
      expect(events.versions).toEqual([1]);
      await sleep(600); // the first compile wrote .coursesync/cache/: nothing may follow
      expect(preview.version).toBe(1);

      const edits = ['01-start/01-welcome.md', '02-types/01-primitives.md', '02-types/02-objects.md'];
      for (const [n, file] of edits.entries()) {
        const path = join(dir, 'course', file);
        await writeFile(path, `${(await readFile(path, 'utf8')).trimEnd()}\n\nBurst edit ${n}.\n`);
      }
      await until(async () => {
        const page = await (await fetch(preview.url)).text();
        return edits.every((_, n) => page.includes(`Burst edit ${n}.`));
      });
      await sleep(300);
      // Coalesced: far fewer compiles than change events, and the stream told every one.
      expect(preview.version).toBeGreaterThan(1);
      expect(preview.version).toBeLessThanOrEqual(1 + edits.length);
      expect(events.versions.at(-1)).toBe(preview.version);
    } finally {
      events.close();
      await preview.close();
    }
  });

  it('answers GET for the page, the events and lesson bodies; anything else is 404 or 405', async () => {
    const dir = await writeRepo(PREVIEW_COURSE);
    const preview = await startPreview({ dir, port: 0, renderThreads: 1 });
    try {
      const body = await fetch(new URL('lessons/welcome/body.html', preview.url));
      expect(body.status).toBe(200);
      expect(await body.text()).toContain('<table>');
      expect((await fetch(new URL('lessons/nope/body.html', preview.url))).status).toBe(404);
      expect((await fetch(new URL('../../etc/passwd', preview.url))).status).toBe(404);
      expect((await fetch(preview.url, { method: 'POST', body: '{}' })).status).toBe(405);
      expect(preview.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    } finally {
      await preview.close();
    }
  });
});
