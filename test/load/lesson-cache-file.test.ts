import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCourse } from '../../src/load/load-course.js';
import { compilerDigest } from '../../src/load/compiler-id.js';
import { lessonCachePath, readLessonCache } from '../../src/load/lesson-cache-file.js';
import { renderCachePath } from '../../src/load/render-cache-file.js';

let dir: string;
const FILE = 'p/s/01-welcome.md';

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'coursesync-lcache-'));
  await mkdir(path.join(dir, 'p/s'), { recursive: true });
  await writeFile(path.join(dir, 'p/program.yaml'), 'id: prog_1\n');
  await writeFile(path.join(dir, 'p/s/section.yaml'), 'id: sec_1\n');
  await writeFile(path.join(dir, FILE), '---\nname: Welcome\n---\n# Hi\n');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const load = () => loadCourse(dir, { cache: true });
const lesson = async () => (await load()).desired!.programs[0]!.sections[0]!.lessons[0]!;
/** Rewrite the stored entries (what a later run reads) with `edit`. */
async function editCache(edit: (file: { compiler: string; entries: Record<string, { fields: { name: string } }> }) => void): Promise<void> {
  const file = JSON.parse(await readFile(lessonCachePath(dir), 'utf8'));
  edit(file);
  await writeFile(lessonCachePath(dir), JSON.stringify(file));
}

describe('the lesson cache under .coursesync/cache/', () => {
  it('answers an unchanged file from the cache: what is stored is what the next load gives', async () => {
    expect((await lesson()).fields.name).toBe('Welcome');
    expect((await readLessonCache(dir, await compilerDigest())).size).toBe(1);
    await editCache((f) => Object.values(f.entries).forEach((e) => (e.fields.name = 'From the cache')));
    expect((await lesson()).fields.name).toBe('From the cache');
  });

  it('compiles a changed file again and drops the old entry', async () => {
    await lesson();
    await writeFile(path.join(dir, FILE), '---\nname: Renamed\n---\n# Hi\n');
    expect((await lesson()).fields.name).toBe('Renamed');
    const entries = await readLessonCache(dir, await compilerDigest());
    expect([...entries.values()].map((e) => e.fields.name)).toEqual(['Renamed']);
  });

  it('renders a few changed files without reading or rewriting the render cache', async () => {
    await lesson();
    const renders = await readFile(renderCachePath(dir), 'utf8');
    await writeFile(path.join(dir, FILE), '---\nname: Welcome\n---\n# Changed\n');
    expect((await lesson()).fields.body).toBe('<h1 id="changed">Changed</h1>\n');
    expect(await readFile(renderCachePath(dir), 'utf8')).toBe(renders);
  });

  it('ignores a file written by another compiler, and damaged entries, and writes them again', async () => {
    await lesson();
    await editCache((f) => {
      f.compiler = 'another';
      Object.values(f.entries).forEach((e) => (e.fields.name = 'Stale'));
    });
    expect((await lesson()).fields.name).toBe('Welcome');
    await editCache((f) => Object.values(f.entries).forEach((e) => delete (e.fields as Partial<{ name: string }>).name));
    expect((await lesson()).fields.name).toBe('Welcome');
    expect([...(await readLessonCache(dir, await compilerDigest())).values()].map((e) => e.fields.name)).toEqual(['Welcome']);
  });

  it('never keeps a lesson that had a diagnostic, so a cached answer never hides one', async () => {
    await writeFile(path.join(dir, FILE), '---\nname: Welcome\nlesson_typ: text\n---\n# Hi\n');
    for (let run = 0; run < 2; run++) {
      const result = await load();
      expect(result.desired).toBeUndefined();
      expect(result.diagnostics.map((d) => d.code)).toContain('lesson/unknown-key');
    }
    expect((await readLessonCache(dir, await compilerDigest())).size).toBe(0);
  });
});
