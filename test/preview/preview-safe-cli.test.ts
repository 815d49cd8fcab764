/**
 * `coursesync preview` through the built CLI, over raw HTTP: a malformed request is a 400 and
 * the preview keeps serving; only its own Host is answered (DNS rebinding); pages carry the
 * policy that stops lesson scripts; `preview > log 2>&1` with the log inside the repo compiles
 * once per real edit, never in a loop.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeRepos, writeRepo } from '../e2e/helpers.js';
import { HOSTILE_COURSE, PREVIEW_COURSE } from './fixture-course.js';
import { rawGet, startPreviewProcess } from './preview-process.js';

afterAll(removeRepos);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const versionOf = (page: string) => Number(/<main id="preview" data-version="(\d+)"/.exec(page)?.[1]);

describe('coursesync preview is safe to leave open (CLI, raw HTTP)', () => {
  it('a malformed request is a 400 and the preview keeps serving; only its own Host is answered', async () => {
    const dir = await writeRepo(HOSTILE_COURSE);
    const preview = await startPreviewProcess(dir);
    try {
      const { port } = preview;
      for (const target of ['/lessons/%E0%A4%A/body.html', '/lessons/%FF/', '/lessons/%/body.html']) {
        const bad = await rawGet(port, target);
        expect(bad.status, target).toBe(400);
        expect(bad.text).toBe('the lesson key in the path is not valid percent-encoded UTF-8\n');
      }
      const page = await rawGet(port, '/');
      expect(page.status).toBe(200);
      expect(page.text).toContain('Shared notes');
      for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, `localhost.evil.example:${port}`, `127.0.0.1:${port + 1}`, 'localhost', null]) {
        // No Host at all is refused by Node's HTTP server itself (400); any other is the preview's 421.
        const refusedAs = host === null ? 400 : 421;
        const refused = await rawGet(port, '/', host);
        expect(refused.status, `Host: ${host}`).toBe(refusedAs);
        expect(refused.text).not.toContain('Shared notes');
        expect((await rawGet(port, '/lessons/hostile/body.html', host)).status, `Host: ${host}`).toBe(refusedAs);
      }
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LocalHost:${port}`]) expect((await rawGet(port, '/', host)).status, host).toBe(200);
      expect(await preview.output()).not.toMatch(/URIError|internal error|\n\s+at /);
    } finally {
      expect(await preview.stop()).toBe(0);
    }
  });

  it("pages run only the preview's own script; a lesson's bytes on their own are sandboxed", async () => {
    const dir = await writeRepo(HOSTILE_COURSE);
    const preview = await startPreviewProcess(dir);
    try {
      for (const path of ['/', '/lessons/hostile/']) {
        const page = await rawGet(preview.port, path);
        expect(page.status).toBe(200);
        const policy = String(page.headers['content-security-policy']);
        expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+='(;|$)/);
        expect(policy).toContain("base-uri 'none'");
        // The refresh and the <base> are shown as text; the handlers are there, and stopped by the policy.
        expect(page.text).toContain('&lt;meta http-equiv="refresh" content="0;url=/lessons/setup/body.html">');
        expect(page.text).toContain('&lt;base href="https://evil.example/" target="_blank">');
        expect(page.text).not.toMatch(/<(meta|base)\s[^>]*(http-equiv|href)=/i);
        expect(page.text).toMatch(/<img [^>]*onerror="window\.pwned/);
      }
      const body = await rawGet(preview.port, '/lessons/hostile/body.html');
      expect(body.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
      expect(body.text).toContain('<meta http-equiv="refresh"'); // the exact bytes apply sends
    } finally {
      expect(await preview.stop()).toBe(0);
    }
  });

  // A log is no input of the course; a log named like a lesson is one, but the preview writes it.
  it.each(['preview.log', 'preview-output.md'])('`preview > %s 2>&1` inside the repo compiles once per edit, never in a loop', async (name) => {
    const dir = await writeRepo({ ...PREVIEW_COURSE, 'build.log': 'an earlier build\n' });
    const log = join(dir, name);
    const preview = await startPreviewProcess(dir, log);
    const compiles = async () => ((await preview.output()).match(/^compiled \d+ lessons/gm) ?? []).length;
    const page = async () => (await rawGet(preview.port, '/')).text;
    try {
      const file = join(dir, 'course/02-types/03-unions.md');
      await writeFile(file, `${(await readFile(file, 'utf8')).trimEnd()}\n\nEdit 1.\n`);
      let shown = '';
      while (!shown.includes('Edit 1.')) shown = await page();
      const version = versionOf(shown);
      expect(version).toBeGreaterThan(1);
      // Another tool rewriting a file that is no input of the course (a build log).
      await writeFile(join(dir, 'build.log'), 'a later build\n');
      // Each compile prints a line to the log; as a loop, each line led to another compile
      // within ~30 ms, so half a second shows it many times over.
      await sleep(500);
      expect(versionOf(await page())).toBe(version);
      expect(await compiles()).toBe(version);
    } finally {
      expect(await preview.stop()).toBe(0);
    }
  });
});
