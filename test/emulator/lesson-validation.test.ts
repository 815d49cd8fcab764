/** Lesson request bodies (docs/school-api.md (#lesson-input-fields, #create-a-lesson, #update-a-lesson, #errors)): statuses and exact error bodies. */
import { describe, expect, it } from 'vitest';
import { call, createLesson, PARTNER, useEmulator } from './helpers.js';

const ctx = useEmulator();
const long = (n: number): string => 'x'.repeat(n);

describe('POST /lessons rejects bad bodies with 422 and the exact message', () => {
  const cases: Array<[string, unknown, string]> = [
    ['missing name', { section_id: 'sec_start' }, 'Invalid arguments: /name required'],
    ['missing section_id', { name: 'A' }, 'Invalid arguments: /section_id required'],
    ['null section_id', { section_id: null, name: 'A' }, 'Invalid arguments: /section_id type'],
    ['null name', { section_id: 'sec_start', name: null }, 'Invalid arguments: /name type'],
    ['empty name', { section_id: 'sec_start', name: '' }, 'Invalid arguments: /name minLength'],
    ['blank name', { section_id: 'sec_start', name: '   ' }, 'Invalid arguments: /name pattern'],
    ['name over 255', { section_id: 'sec_start', name: long(256) }, 'Invalid arguments: /name maxLength'],
    ['section_id over 255', { section_id: long(256), name: 'A' }, 'Invalid arguments: /section_id maxLength'],
    ['name as number', { section_id: 'sec_start', name: 5 }, 'Invalid arguments: /name type'],
    ['position as text in JSON', { section_id: 'sec_start', name: 'A', position: '2' }, 'Invalid arguments: /position type'],
    ['position negative', { section_id: 'sec_start', name: 'A', position: -1 }, 'Invalid arguments: /position minimum'],
    ['position fractional', { section_id: 'sec_start', name: 'A', position: 1.5 }, 'Invalid arguments: /position type'],
    ['drip_delay over 32767', { section_id: 'sec_start', name: 'A', drip_delay: 32768 }, 'Invalid arguments: /drip_delay maximum'],
    ['drip_delay negative', { section_id: 'sec_start', name: 'A', drip_delay: -1 }, 'Invalid arguments: /drip_delay minimum'],
    ['is_published as text in JSON', { section_id: 'sec_start', name: 'A', is_published: 'true' }, 'Invalid arguments: /is_published type'],
    ['unknown lesson_type', { section_id: 'sec_start', name: 'A', lesson_type: 'movie' }, 'Invalid arguments: /lesson_type enum'],
    ['unknown content_format', { section_id: 'sec_start', name: 'A', content_format: 'rst' }, 'Invalid arguments: /content_format enum'],
    ['extra field', { section_id: 'sec_start', name: 'A', colour: 'red' }, 'Invalid arguments: /colour additionalProperties'],
    ['body over 200000', { section_id: 'sec_start', name: 'A', body: long(200_001) }, 'Invalid arguments: /body maxLength'],
    ['description over 200000', { section_id: 'sec_start', name: 'A', description: long(200_001) }, 'Invalid arguments: /description maxLength'],
    ['embed_code over 200000', { section_id: 'sec_start', name: 'A', embed_code: long(200_001) }, 'Invalid arguments: /embed_code maxLength'],
    ['script in body', { section_id: 'sec_start', name: 'A', body: '<p>x</p><SCRIPT>alert(1)</SCRIPT>' }, 'Invalid arguments: /body not'],
    ['iframe in body', { section_id: 'sec_start', name: 'A', body: '<iframe src="x"></iframe>' }, 'Invalid arguments: /body not'],
    ['object in body', { section_id: 'sec_start', name: 'A', body: '<object data="x"></object>' }, 'Invalid arguments: /body not'],
    ['embed tag in body', { section_id: 'sec_start', name: 'A', body: '<embed src="x">' }, 'Invalid arguments: /body not'],
    ['signed attachment', { section_id: 'sec_start', name: 'A', body: '<action-text-attachment sgid="abc"></action-text-attachment>' }, 'Invalid arguments: /body not'],
    ['unsupported video URL', { section_id: 'sec_start', name: 'A', settings_embed_host_a: 'https://example.com/v/1' }, 'Invalid arguments: /settings_embed_host_a format'],
    ['nested: bad field inside attributes', { section_id: 'sec_start', attributes: { name: long(256) } }, 'Invalid arguments: /attributes/name maxLength'],
    ['nested: missing name', { section_id: 'sec_start', attributes: {} }, 'Invalid arguments: /attributes/name required'],
    ['nested: missing section_id', { attributes: { name: 'A' } }, 'Invalid arguments: /section_id required'],
    ['nested: other top-level field', { section_id: 'sec_start', name: 'A', attributes: {} }, 'Invalid arguments: /name additionalProperties'],
    ['nested: attributes not an object', { section_id: 'sec_start', attributes: 'x' }, 'Invalid arguments: /attributes type'],
    ['nested: script in body', { section_id: 'sec_start', attributes: { name: 'A', body: '<script></script>' } }, 'Invalid arguments: /attributes/body not'],
    ['body is an array', [1, 2], 'Invalid arguments: / type'],
  ];
  it.each(cases)('%s', async (_name, body, error) => {
    const r = await call(ctx.emu, 'POST', '/lessons', body);
    expect(r).toMatchObject({ status: 422, body: { error } });
    const state = await call(ctx.emu, 'GET', '/__emulator/state');
    const lessons = state.body.programs.flatMap((p: any) => p.sections.flatMap((s: any) => s.lessons));
    expect(lessons).toEqual([]); // nothing saved
  });
});

describe('POST /lessons defaults, nulls, forms', () => {
  it('applies the documented defaults and answers the Lesson of docs/school-api.md#lesson', async () => {
    const r = await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'Welcome' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.any(String), section_id: 'sec_start', name: 'Welcome', position: 1, lesson_type: 'video', drip_delay: 0,
      is_published: true, is_progression_locked: false, description: '', body: '',
      settings_embed_host_a: null, settings_embed_host_b: null, settings_embed_host_c: null, settings_embed_host_d: null,
      settings_embed_code: null, embed_code: null, transcripts: [],
      media: { pdf_url: null, audio_url: null, video_poster_url: null, video_status: null, video_id: null, video_error: null, video_progress: null },
    });
  });

  it('accepts null for every optional field on create (null means the default)', async () => {
    const nulls = Object.fromEntries(
      ['description', 'body', 'content_format', 'position', 'is_progression_locked', 'is_published', 'settings_embed_host_a',
        'settings_embed_host_b', 'settings_embed_host_c', 'settings_embed_host_d', 'settings_embed_code', 'embed_code', 'lesson_type', 'drip_delay'].map((k) => [k, null]),
    );
    const r = await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'N', ...nulls });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ description: '', body: '', is_published: true, lesson_type: 'video', drip_delay: 0, position: 1 });
  });

  it('gives a new lesson exactly one completion step (visible in the inspection state)', async () => {
    const id = await createLesson(ctx.emu, {});
    const state = await call(ctx.emu, 'GET', '/__emulator/state');
    const lesson = state.body.programs[0].sections[0].lessons.find((l: any) => l.id === id);
    expect(lesson.steps).toEqual([{ id: expect.any(String), step_type: 'completion' }]);
  });

  it('reads form bodies, with text numbers and booleans and nested names', async () => {
    const r = await call(ctx.emu, 'POST', '/lessons', 'section_id=sec_start&attributes[name]=Form&attributes[drip_delay]=3&attributes[is_published]=false');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Form', drip_delay: 3, is_published: false });
    const flat = await call(ctx.emu, 'POST', '/lessons', 'section_id=sec_start&name=Flat&position=1&is_progression_locked=true');
    expect(flat.body).toMatchObject({ name: 'Flat', position: 1, is_progression_locked: true });
  });

  it('in forms, the text null is text and not-a-number stays a type error', async () => {
    const r = await call(ctx.emu, 'POST', '/lessons', 'section_id=sec_start&name=F&description=null');
    expect(r.body.description).toBe('null');
    const bad = await call(ctx.emu, 'POST', '/lessons', 'section_id=sec_start&name=F&position=null');
    expect(bad).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /position type' } });
    const badBool = await call(ctx.emu, 'POST', '/lessons', 'section_id=sec_start&name=F&is_published=');
    expect(badBool).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /is_published type' } });
  });

  it('converts markdown on the server with blockquotes flattened; keeps html as sent', async () => {
    const md = await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'M', content_format: 'markdown', body: '> a quote\n\n**bold**', description: '*d*' });
    expect(md.body.body).toBe('<p>a quote</p>\n<p><strong>bold</strong></p>');
    expect(md.body.description).toBe('<p><em>d</em></p>');
    const html = await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'H', body: '<blockquote><p>kept</p></blockquote>' });
    expect(html.body.body).toBe('<blockquote><p>kept</p></blockquote>');
    const changedFormatOnly = await call(ctx.emu, 'PATCH', `/lessons/${html.body.id}`, { content_format: 'markdown' });
    expect(changedFormatOnly.body.body).toBe('<blockquote><p>kept</p></blockquote>');
  });

  it('404 for an unknown section, 403 for a key without edit access, 401 without a valid key', async () => {
    expect(await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_nope', name: 'A' })).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    expect(await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'A' }, PARTNER)).toMatchObject({ status: 403, body: { error: 'Access denied' } });
    expect(await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_partner', name: 'A' }, PARTNER)).toMatchObject({ status: 200 });
    expect(await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'A' }, null)).toMatchObject({ status: 401, body: { error: 'Access denied' } });
    expect(await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'A' }, 'wrong')).toMatchObject({ status: 401, body: { error: 'Access denied' } });
  });
});

describe('PATCH /lessons/{id}', () => {
  // The shared mapping (src/school-api/wire/errors.ts): null outside an enum's list is `enum`, elsewhere `type`.
  const rejectedNulls = [['section_id', 'type'], ['name', 'type'], ['position', 'type'], ['is_published', 'type'], ['lesson_type', 'enum'], ['drip_delay', 'type']];
  it.each(rejectedNulls)('rejects null %s', async (field, keyword) => {
    const id = await createLesson(ctx.emu, {});
    expect(await call(ctx.emu, 'PATCH', `/lessons/${id}`, { [field]: null })).toMatchObject({ status: 422, body: { error: `Invalid arguments: /${field} ${keyword}` } });
  });

  it('accepts null to clear description, body, embed_code and the lock', async () => {
    const id = await createLesson(ctx.emu, { description: 'd', body: '<p>b</p>', embed_code: '<div></div>', is_progression_locked: true });
    const r = await call(ctx.emu, 'PATCH', `/lessons/${id}`, { description: null, body: null, embed_code: null, is_progression_locked: null });
    expect(r.body).toMatchObject({ description: '', body: '', embed_code: null, is_progression_locked: false });
  });

  it('an empty body changes nothing and answers the lesson (refresh)', async () => {
    const created = await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'Keep', body: '<p>x</p>' });
    const r = await call(ctx.emu, 'PATCH', `/lessons/${created.body.id}`, {});
    expect(r).toMatchObject({ status: 200, body: created.body });
  });

  it('rejects unknown fields, bad types and leaves the lesson unchanged on 422', async () => {
    const id = await createLesson(ctx.emu, { name: 'Before' });
    expect(await call(ctx.emu, 'PATCH', `/lessons/${id}`, { name: 'After', nmae: 'x' })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /nmae additionalProperties' } });
    expect(await call(ctx.emu, 'PATCH', `/lessons/${id}`, { name: 'After', body: '<script></script>' })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /body not' } });
    expect((await call(ctx.emu, 'PATCH', `/lessons/${id}`, {})).body.name).toBe('Before');
  });

  it('updates through nested JSON and nested form bodies', async () => {
    const id = await createLesson(ctx.emu, {});
    expect((await call(ctx.emu, 'PATCH', `/lessons/${id}`, { attributes: { name: 'Nested', drip_delay: 2 } })).body).toMatchObject({ name: 'Nested', drip_delay: 2 });
    expect((await call(ctx.emu, 'PATCH', `/lessons/${id}`, 'attributes[is_published]=false&attributes[lesson_type]=text')).body).toMatchObject({ is_published: false, lesson_type: 'text' });
  });

  it('404 for an unknown lesson; 403 when moving to a program the key may not edit', async () => {
    expect(await call(ctx.emu, 'PATCH', '/lessons/les_nope', { name: 'x' })).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    const r = await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_partner', name: 'P' }, PARTNER);
    expect(await call(ctx.emu, 'PATCH', `/lessons/${r.body.id}`, { section_id: 'sec_start' }, PARTNER)).toMatchObject({ status: 403, body: { error: 'Access denied' } });
    const demo = await createLesson(ctx.emu, {});
    expect(await call(ctx.emu, 'PATCH', `/lessons/${demo}`, { name: 'x' }, PARTNER)).toMatchObject({ status: 403, body: { error: 'Access denied' } });
  });
});

describe('malformed requests keep the server serving', () => {
  it('answers malformed JSON, over-large bodies and odd content types, then keeps working', async () => {
    const base = ctx.emu.url;
    const headers = { authorization: 'Bearer demo-token', 'content-type': 'application/json' };
    const bad = await fetch(`${base}/lessons`, { method: 'POST', headers, body: '{"name":' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ error: 'Invalid arguments' });
    const big = await fetch(`${base}/lessons`, { method: 'POST', headers, body: 'x'.repeat(6 * 1024 * 1024) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: 'Request body too large (limit 5242880 bytes)' });
    const text = await fetch(`${base}/lessons`, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: 'hi' });
    expect(text.status).toBe(422);
    expect(await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'Still here' })).toMatchObject({ status: 200 });
    expect(await call(ctx.emu, 'GET', '/nowhere')).toMatchObject({ status: 404, body: { error: 'Record not found' } });
  });
});
