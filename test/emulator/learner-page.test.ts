import { describe, expect, it } from 'vitest';
import { call, useEmulator } from './helpers.js';

const ctx = useEmulator();
const root = () => ctx.emu.url.replace(/\/api\/v1$/, '');

describe('GET /products/{program_id}/lessons/{lesson_id}: the learner page', () => {
  it('shows the name, description and body HTML of the lesson, without a token', async () => {
    const created = await call(ctx.emu, 'POST', '/lessons', {
      section_id: 'sec_start',
      name: 'Tables & <links>',
      lesson_type: 'text',
      content_format: 'html',
      description: '<p>Short <em>intro</em></p>',
      body: '<h2 id="setup">Setup</h2><p><img src="https://cdn.example.com/a.png" alt="A"></p>',
    });
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const res = await fetch(`${root()}/products/prog_intro/lessons/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<title>Tables &amp; &lt;links&gt;</title>');
    expect(html).toContain('<section class="lesson-description"><p>Short <em>intro</em></p></section>');
    expect(html).toContain(`<main class="lesson-body" data-lesson-id="${id}"><h2 id="setup">Setup</h2><p><img src="https://cdn.example.com/a.png" alt="A"></p></main>`);
  });

  it('answers 404 for a lesson of another program, an unknown lesson, or a bad path', async () => {
    const created = await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'One', content_format: 'html', body: '<p>x</p>' });
    const id = created.body.id as string;
    for (const path of [`/products/prog_advanced/lessons/${id}`, '/products/prog_intro/lessons/les_nope', '/products/prog_intro/lessons/%E0%A4%A']) {
      const res = await fetch(root() + path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain('Lesson not found');
    }
  });

  it('answers 404 for a draft lesson, and shows it once published', async () => {
    const created = await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'Draft', content_format: 'html', body: '<p>not yet</p>', is_published: false });
    const id = created.body.id as string;
    const page = `${root()}/products/prog_intro/lessons/${id}`;
    const draft = await fetch(page);
    expect(draft.status).toBe(404);
    expect(await draft.text()).not.toContain('not yet');
    expect((await call(ctx.emu, 'PATCH', `/lessons/${id}`, { is_published: true })).status).toBe(200);
    const published = await fetch(page);
    expect(published.status).toBe(200);
    expect(await published.text()).toContain('<p>not yet</p>');
  });
});
