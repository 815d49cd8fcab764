/** The pure lesson-file writer: every file it writes compiles back to the school's lesson. */
import { describe, expect, it } from 'vitest';
import { lessonToFile, serverFields } from '../../src/clone/lesson-file.js';
import { sameHtml } from '../../src/clone/check-round-trip.js';
import { duplicationKey } from '../../src/clone/idempotency-key.js';
import { renderMarkdown } from '../../src/compile/render.js';
import { DEFAULT_LESSON_FIELDS } from '../../src/model/desired.js';
import type { Lesson } from '../../src/school-api/wire/lessons.js';

function lesson(over: Partial<Lesson>): Lesson {
  return {
    ...DEFAULT_LESSON_FIELDS,
    id: 'les_1',
    section_id: 'sec_1',
    name: 'Welcome',
    position: 1,
    lesson_type: 'text',
    transcripts: [],
    media: { pdf_url: null, audio_url: null, video_poster_url: null, video_status: null, video_id: null, video_error: null, video_progress: null },
    ...over,
  };
}

describe('lessonToFile', () => {
  it('converts a body to Markdown when it renders back to the same HTML', () => {
    const body = renderMarkdown('# Hi\n\nSome *text* and `code`.\n\n> a quote\n\n- a\n- b\n\n| a | b |\n| - | - |\n| 1 | 2 |\n').html;
    const file = lessonToFile(lesson({ body, description: '<p>Short <strong>intro</strong></p>' }), { key: 'welcome', path: 'p/s/01-welcome.md' });
    expect(file.keptAsHtml).toBeNull();
    expect(file.text).toContain('content_format: markdown');
    expect(file.text).toContain('# Hi');
    expect(sameHtml(file.fields.body, body)).toBe(true);
    expect(sameHtml(file.fields.description, '<p>Short <strong>intro</strong></p>')).toBe(true);
    expect(file.notes).toEqual([]);
  });

  it('keeps HTML the Markdown conversion would change, and says why', () => {
    const body = '<p>Hello <span class="x">world</span></p><div data-a="1">raw</div><p>a<br>b</p><p>x  y</p><p>1. not a list</p>';
    const kept = lessonToFile(lesson({ body: '<p>A <u>underlined</u> word</p>' }), { key: 'k', path: 'p/s/k.md' });
    expect(kept.keptAsHtml).toMatch(/renders different HTML|does not compile back/);
    expect(kept.text).toContain('content_format: html');
    expect(kept.fields.body).toBe('<p>A <u>underlined</u> word</p>');
    const html = lessonToFile(lesson({ body }), { key: 'k', path: 'p/s/k.md', keepHtml: true });
    expect(html.keptAsHtml).toBe('--keep-html');
    expect(html.fields.body).toBe(body);
  });

  it('writes every field, video sources and copied_from, and compiles to the school values', () => {
    const l = lesson({ lesson_type: 'video', settings_embed_host_a: 'dQw4w9WgXcQ', drip_delay: 3, is_published: false, is_progression_locked: true, name: 'Quote: "x" # y' });
    const file = lessonToFile(l, { key: 'vid-copy', copiedFrom: 'vid', path: 'p/s/02-vid-copy.md' });
    expect(file.text).toContain('copied_from: vid');
    expect(file.text).toContain('host_a: dQw4w9WgXcQ');
    expect(file.fields).toEqual(serverFields(l));
  });

  it('leaves out fields the lesson type cannot hold, with a note', () => {
    const file = lessonToFile(lesson({ lesson_type: 'text', settings_embed_host_b: '123' }), { key: 'k', path: 'p/s/k.md' });
    expect(file.notes[0]).toMatch(/settings_embed_host_b/);
    expect(file.fields.settings_embed_host_b).toBeNull();
  });
});

describe('duplicationKey', () => {
  it('is the same for the same details and differs for any other', () => {
    const d = { kind: 'lesson' as const, sourceId: 'les_1', destinationId: 'sec_1', name: '', requestId: 'r1' };
    expect(duplicationKey(d)).toBe(duplicationKey({ ...d }));
    expect(duplicationKey(d)).toMatch(/^cs-lesson-[0-9a-f]{40}$/);
    for (const other of [{ sourceId: 'les_2' }, { destinationId: 'sec_2' }, { name: 'x' }, { requestId: 'r2' }]) {
      expect(duplicationKey({ ...d, ...other })).not.toBe(duplicationKey(d));
    }
  });
});

describe('round trip of the example course', () => {
  it('every example lesson, rendered by coursesync, converts to Markdown that renders back the same', async () => {
    const { readFile, readdir } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { splitFrontMatter } = await import('../../src/source/split-front-matter.js');
    const { htmlToMarkdown } = await import('../../src/clone/html-to-markdown.js');
    const root = join(import.meta.dirname, '../../examples');
    let count = 0;
    for (const program of ['intro-to-typescript', 'advanced-typescript']) {
      for (const section of await readdir(join(root, program), { withFileTypes: true })) {
        if (!section.isDirectory()) continue;
        for (const f of await readdir(join(root, program, section.name))) {
          if (!f.endsWith('.md')) continue;
          const text = await readFile(join(root, program, section.name, f), 'utf8');
          const html = renderMarkdown(splitFrontMatter(text).body.text).html;
          expect(sameHtml(renderMarkdown(htmlToMarkdown(html)).html, html), f).toBe(true);
          count++;
        }
      }
    }
    expect(count).toBeGreaterThan(10);
  });
});

describe('content the repo format refuses', () => {
  it('is a clear error naming the lesson and the rule, not a crash', () => {
    expect(() => lessonToFile(lesson({ description: '<iframe src="https://x.example"></iframe>' }), { key: 'k', path: 'p/s/k.md' })).toThrow(
      /lesson les_1 "Welcome" cannot be written as a valid lesson file: .*iframe.*\[lesson\/forbidden-html\]/,
    );
  });
});
