import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPlan } from '../../src/sync/build-plan.js';
import { renderDigest } from '../../src/compile/render-cache.js';
import { compilerDigest } from '../../src/load/compiler-id.js';
import { renderMarkdown } from '../../src/compile/render.js';
import { loadCourse } from '../../src/load/load-course.js';
import { lessonCachePath } from '../../src/load/lesson-cache-file.js';
import { readRenderCache, renderCachePath } from '../../src/load/render-cache-file.js';
import { SECRET, startTestEmulator } from '../apply/helpers.js';

let dir: string;
const BODY = '# Welcome\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> A quote.\n';

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'coursesync-cache-'));
  await mkdir(path.join(dir, 'p/s'), { recursive: true });
  await writeFile(path.join(dir, 'p/program.yaml'), 'id: prog_1\n');
  await writeFile(path.join(dir, 'p/s/section.yaml'), 'id: sec_1\n');
  // keep_title: the body is compared with what renderMarkdown makes of the whole Markdown.
  await writeFile(path.join(dir, 'p/s/01-welcome.md'), `---\nname: Welcome\nkeep_title: true\ndescription: A *short* one.\n---\n${BODY}`);
});
afterEach(() => rm(dir, { recursive: true, force: true }));

// Without the lesson cache, so that every load compiles and goes through the render cache.
const body = async () => {
  await rm(lessonCachePath(dir), { force: true });
  return (await loadCourse(dir, { cache: true })).desired!.programs[0]!.sections[0]!.lessons[0]!.fields;
};
const cacheText = () => readFile(renderCachePath(dir), 'utf8');

describe('the render cache under .coursesync/cache/', () => {
  it('is written by a load, and a load with it gives the same HTML as rendering', async () => {
    const first = await body();
    expect(first.body).toBe(renderMarkdown(BODY).html);
    const entries = await readRenderCache(dir, await compilerDigest());
    expect(entries.get(renderDigest(BODY))?.html).toBe(first.body);
    expect(entries.get(renderDigest('A *short* one.'))?.html).toBe(first.description);
    const before = await cacheText();
    expect(await body()).toEqual(first);
    expect(await cacheText()).toBe(before);
  });

  it('renders a changed file again and keeps only what the repo uses', async () => {
    await body();
    await writeFile(path.join(dir, 'p/s/01-welcome.md'), '---\nname: Welcome\n---\n# Changed\n');
    expect((await body()).body).toBe('<h1 id="changed">Changed</h1>\n');
    const entries = await readRenderCache(dir, await compilerDigest());
    expect([...entries.keys()]).toEqual([renderDigest('# Changed\n')]);
  });

  it('ignores a damaged entry and writes it again', async () => {
    await mkdir(path.dirname(renderCachePath(dir)), { recursive: true });
    const wrong = { html: '<p>stale</p>', problems: 'none' };
    await writeFile(renderCachePath(dir), JSON.stringify({ compiler: await compilerDigest(), entries: { [renderDigest(BODY)]: wrong } }));
    expect((await body()).body).toBe(renderMarkdown(BODY).html);
    expect((await readRenderCache(dir, await compilerDigest())).get(renderDigest(BODY))?.html).toBe(renderMarkdown(BODY).html);
  });

  it('ignores a file that is not JSON, or of another renderer, and writes it again', async () => {
    await mkdir(path.dirname(renderCachePath(dir)), { recursive: true });
    for (const text of ['{"compiler": "coursesync-render/1", "entr', JSON.stringify({ compiler: 'old', entries: { [renderDigest(BODY)]: { html: '<p>old</p>', problems: [] } } })]) {
      await writeFile(renderCachePath(dir), text);
      expect((await body()).body).toBe(renderMarkdown(BODY).html);
      expect(JSON.parse(await cacheText()).compiler).toBe(await compilerDigest());
    }
  });

  it('is not used unless asked for', async () => {
    await loadCourse(dir);
    await expect(readdir(path.join(dir, '.coursesync'))).rejects.toThrow();
  });

  it('never holds the token: plan with a token set writes only rendered Markdown, compiled lessons and file stat data', async () => {
    // A real school on a free port: the plan checks the section ids with the token.
    const emu = await startTestEmulator();
    const token = SECRET;
    try {
      await writeFile(path.join(dir, 'p/program.yaml'), 'id: prog_intro\n');
      await writeFile(path.join(dir, 'p/s/section.yaml'), 'id: sec_start\n');
      await writeFile(path.join(dir, 'coursesync.yaml'), `school:\n  base_url: ${emu.url}\n`);
      const { plan } = await buildPlan(dir, { env: { COURSESYNC_TOKEN: token } });
      expect(plan.summary.create).toBe(1);
      expect(plan.notes).toBeUndefined(); // the section ids were checked against the school
      expect(emu.stats().requests).toBeGreaterThan(0);
    } finally {
      await emu.close();
    }
    const files = (await readdir(path.join(dir, '.coursesync/cache'))).sort();
    expect(files).toEqual(['lessons.json', 'render.json', 'stat-index.json']);
    const text = await cacheText();
    expect(text).not.toContain(token);
    expect(Object.keys(JSON.parse(text))).toEqual(['compiler', 'entries']);
    const lessons = await readFile(lessonCachePath(dir), 'utf8');
    expect(lessons).not.toContain(token);
    expect(Object.keys(JSON.parse(lessons))).toEqual(['compiler', 'entries']);
    const index = await readFile(path.join(dir, '.coursesync/cache/stat-index.json'), 'utf8');
    expect(index).not.toContain(token);
    expect(Object.keys(JSON.parse(index))).toEqual(['index', 'paths', 'stats', 'digests']);
  });
});
