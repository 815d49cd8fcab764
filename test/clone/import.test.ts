/**
 * `coursesync import` against the emulator: files written with every field, bodies converted
 * to Markdown only when our renderer gives the school's HTML back (else kept as HTML and
 * reported), state recorded so the next plan is empty, no file overwritten, `--key` settling
 * an uncertain create.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runImport } from '../../src/cli/import.js';
import { sameHtml } from '../../src/clone/check-round-trip.js';
import { renderMarkdown } from '../../src/compile/render.js';
import { splitFrontMatter } from '../../src/source/split-front-matter.js';
import { readStateFile } from '../../src/state/state-file.js';
import { useSchool } from '../cli/school-helpers.js';
import { lessonMd, makeRepo, planOf, removeRepos } from './helpers.js';

const school = useSchool();
afterEach(removeRepos);

const REPO = { 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n' };

describe('import', () => {
  it('--write-file writes only the fields that differ from what the file inherits (section defaults, then the school\'s); the next plan is empty', async () => {
    const client = school.client();
    const dir = await makeRepo({
      'coursesync.yaml': 'lesson_defaults:\n  lesson_type: text\n',
      'p/program.yaml': 'id: prog_intro\n',
      'p/s/section.yaml': 'id: sec_start\nlesson_defaults:\n  drip_delay: 2\n',
      'p/s/01-setup.md': lessonMd('Setup', '## Install\n\nRun the installer.\n'),
    });
    expect((await (await import('../../src/apply/apply-course.js')).applyCourse(dir, { env: school.io().env })).result?.outcomes).toHaveLength(1);
    const id = (await readStateFile(dir)).state.lessons.setup!.id!;
    // Edited in the school: a new name and body; type, drip, publication and lock stay as inherited or default.
    await client.lessons.update(id, { name: 'Setup, revised', body: '<h2>Install</h2>\n<p>Run the <a href="https://example.com/setup">installer</a>, then check the table.</p>', content_format: 'html' });
    const io = school.io();
    expect(await runImport([id], { key: 'setup', writeFile: true, dir }, io)).toBe(0);
    const text = await readFile(join(dir, 'p/s/01-setup.md'), 'utf8');
    expect(text.split('---\n')[1]).toBe('name: Setup, revised\nkey: setup\n');
    expect(text).toContain('[installer](https://example.com/setup)');
    const plan = await planOf(dir, io.env);
    expect(plan.summary).toMatchObject({ create: 0, update: 0, move: 0, unchanged: 1 });
  });

  it('imports lessons of every kind; the next plan is empty and every body renders back to the school HTML', async () => {
    const client = school.client();
    const md = renderMarkdown('# Title\n\nSome *text*, `code` and a [link](https://example.com).\n\n> quoted\n\n1. one\n2. two\n\n| a | b |\n| - | - |\n| 1 | 2 |\n').html;
    const made = [
      await client.lessons.create({ section_id: 'sec_start', name: 'Welcome', lesson_type: 'text', body: md, content_format: 'html', description: '<p>Intro <em>here</em></p>' }),
      await client.lessons.create({ section_id: 'sec_start', name: 'UI made', lesson_type: 'text', body: '<p>A <u>styled</u> <span style="color:red">word</span></p>', content_format: 'html', is_published: false, drip_delay: 4 }),
      await client.lessons.create({ section_id: 'sec_start', name: 'Video', settings_embed_host_a: 'https://youtu.be/dQw4w9WgXcQ', is_progression_locked: true }),
      await client.lessons.create({ section_id: 'sec_start', name: 'Embed', lesson_type: 'embed', embed_code: '<div class="widget">w</div>' }),
      await client.lessons.create({ section_id: 'sec_start', name: 'Server markdown', lesson_type: 'text', body: '## Hello\n\nplain', content_format: 'markdown' }),
    ];
    const dir = await makeRepo(REPO);
    const io = school.io();
    expect(await runImport(made.map((l) => l.id), { into: join(dir, 'p/s'), dir }, io)).toBe(0);

    const state = (await readStateFile(dir)).state;
    const keptAsHtml = new Set([...io.stdout.text.matchAll(/^ {2}(les_\S+) \S+: .+$/gm)].map((m) => m[1]));
    for (const lesson of made) {
      const entry = Object.values(state.lessons).find((l) => l.id === lesson.id)!;
      expect(entry).toMatchObject({ section_id: 'sec_start', program_id: 'prog_intro', position: lesson.position });
      const text = await readFile(join(dir, entry.path), 'utf8');
      expect(text).toContain(`name: ${lesson.name}`);
      expect(text).toMatch(/lesson_type: \w+\ndrip_delay: \d+\nis_published: (true|false)\nis_progression_locked: (true|false)/);
      const { body } = splitFrontMatter(text);
      if (text.includes('content_format: html')) {
        expect(keptAsHtml.has(lesson.id) || lesson.body === '').toBe(true);
        expect(body.text).toBe(lesson.body);
      } else {
        expect(sameHtml(renderMarkdown(body.text).html, lesson.body)).toBe(true);
      }
    }
    expect(keptAsHtml.has(made[1]!.id)).toBe(true);
    expect(keptAsHtml.has(made[0]!.id)).toBe(false);
    expect(io.stdout.text).toContain('Next plan: no changes for these lessons.');
    expect(await readFile(join(dir, state.lessons['video']!.path), 'utf8')).toContain('host_a: dQw4w9WgXcQ');

    const plan = await planOf(dir, io.env);
    expect(plan.summary).toMatchObject({ create: 0, update: 0, move: 0, uncertain: 0, unchanged: made.length });
    school.assertNoTokenLeaked();
  });

  it('--keep-html keeps every body as HTML, exactly', async () => {
    const client = school.client();
    const lesson = await client.lessons.create({ section_id: 'sec_start', name: 'Plain', lesson_type: 'text', body: '<p>plain</p>\n', content_format: 'html' });
    const dir = await makeRepo(REPO);
    expect(await runImport([lesson.id], { into: join(dir, 'p/s'), dir, keepHtml: true }, school.io())).toBe(0);
    const text = await readFile(join(dir, 'p/s/01-plain.md'), 'utf8');
    expect(text).toContain('content_format: html');
    expect(splitFrontMatter(text).body.text).toBe('<p>plain</p>\n');
    expect((await planOf(dir, school.io().env)).summary.unchanged).toBe(1);
  });

  it('refuses to overwrite a file, and to import a lesson twice', async () => {
    const client = school.client();
    const lesson = await client.lessons.create({ section_id: 'sec_start', name: 'Taken', lesson_type: 'text' });
    const dir = await makeRepo({ ...REPO, 'p/s/01-taken.md': lessonMd('Other', 'mine', 'key: other\n') });
    const err = await school.fails(runImport([lesson.id], { into: join(dir, 'p/s'), dir }, school.io()));
    expect(err.message).toMatch(/would overwrite .*p\/s\/01-taken\.md/);
    expect(await readFile(join(dir, 'p/s/01-taken.md'), 'utf8')).toContain('mine');

    const dir2 = await makeRepo(REPO);
    expect(await runImport([lesson.id], { into: join(dir2, 'p/s'), dir: dir2 }, school.io())).toBe(0);
    const again = await school.fails(runImport([lesson.id], { into: join(dir2, 'p/s'), dir: dir2 }, school.io()));
    expect(again.code).toBe('import/already-tracked');
  });

  it('--key adopts a lesson into an existing file and settles an uncertain create', async () => {
    const file = lessonMd('Welcome', '# Hi\n\nThere.\n');
    const dir = await makeRepo({ ...REPO, 'p/s/01-welcome.md': file });
    const { compileText } = await import('../../src/clone/lesson-file.js');
    const fields = compileText(file, 'p/s/01-welcome.md').fields!;
    // What a create cut off mid-flight leaves: the lesson exists, state knows only the key.
    const created = await school.client().lessons.create({ section_id: 'sec_start', name: 'Welcome', lesson_type: 'text', body: fields.body, content_format: 'html', position: 1 });
    const { writeStateFile } = await import('../../src/state/state-file.js');
    const { emptyState } = await import('../../src/model/state/schema.js');
    const state = emptyState('3f1f5a4e-8a55-4a59-9d55-0a7f1b2c3d4e', school.emu.url);
    state.lessons.welcome = {
      id: null,
      program_id: 'prog_intro',
      section_id: 'sec_start',
      position: null,
      path: 'p/s/01-welcome.md',
      applied: fields,
      response: '',
      uncertain: { name: 'Welcome', section_id: 'sec_start', since: new Date().toISOString() },
    };
    await writeStateFile(dir, state);
    expect((await planOf(dir, school.io().env)).summary.uncertain).toBe(1);

    const io = school.io();
    expect(await runImport([created.id], { key: 'welcome', dir }, io)).toBe(0);
    expect(io.stdout.text).toContain('settles the uncertain create of welcome');
    expect(await readFile(join(dir, 'p/s/01-welcome.md'), 'utf8')).toBe(file);
    const plan = await planOf(dir, io.env);
    expect(plan.summary).toMatchObject({ uncertain: 0, create: 0, update: 0, move: 0, unchanged: 1 });
  });
});
