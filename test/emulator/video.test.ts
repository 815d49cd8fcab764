/** Video sources (docs/school-api.md#lesson-input-fields): URL → id per host, priority a, c, b, d, settings_embed_code, clearing. */
import { describe, expect, it } from 'vitest';
import { call, createLesson, useEmulator } from './helpers.js';

const ctx = useEmulator();
const VIDEO = ['settings_embed_host_a', 'settings_embed_host_b', 'settings_embed_host_c', 'settings_embed_host_d', 'settings_embed_code', 'embed_code'] as const;
const video = (body: Record<string, unknown>) => Object.fromEntries(VIDEO.map((k) => [k, body[k]]));
const none = { settings_embed_host_a: null, settings_embed_host_b: null, settings_embed_host_c: null, settings_embed_host_d: null, settings_embed_code: null };

describe('video sources', () => {
  it.each([
    ['settings_embed_host_a', 'https://www.youtube.com/watch?v=abc_123', 'abc_123'],
    ['settings_embed_host_a', 'https://youtu.be/xyz', 'xyz'],
    ['settings_embed_host_b', 'https://vimeo.com/12345', '12345'],
    ['settings_embed_host_c', 'https://acme.wistia.com/medias/w1st', 'w1st'],
    ['settings_embed_host_d', 'https://www.loom.com/share/l00m', 'l00m'],
    ['settings_embed_host_b', 'plainid', 'plainid'],
  ])('%s %s is stored as the id %s', async (field, value, id) => {
    const r = await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'V', [field]: value });
    expect(r.body[field]).toBe(id);
  });

  it('several sources in one request: priority a, c, b, d, then settings_embed_code', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ settings_embed_host_b: 'b1', settings_embed_host_c: 'c1', settings_embed_host_d: 'd1' }, 'settings_embed_host_c'],
      [{ settings_embed_host_b: 'b1', settings_embed_host_d: 'd1', settings_embed_code: '<div>v</div>' }, 'settings_embed_host_b'],
      [{ settings_embed_host_a: 'a1', settings_embed_host_c: 'c1' }, 'settings_embed_host_a'],
      [{ settings_embed_host_d: 'd1', settings_embed_code: '<div>v</div>' }, 'settings_embed_host_d'],
    ];
    for (const [fields, winner] of cases) {
      const r = await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'V', ...fields });
      expect(video(r.body)).toEqual({ ...none, embed_code: null, [winner]: fields[winner] });
    }
  });

  it('a changed host clears the other sources and keeps embed_code; an unchanged one clears nothing', async () => {
    const id = await createLesson(ctx.emu, { settings_embed_code: '<div>custom</div>', embed_code: '<div>embed</div>' });
    let r = await call(ctx.emu, 'PATCH', `/lessons/${id}`, { settings_embed_host_b: '777' });
    expect(video(r.body)).toEqual({ ...none, settings_embed_host_b: '777', embed_code: '<div>embed</div>' });
    r = await call(ctx.emu, 'PATCH', `/lessons/${id}`, { settings_embed_host_b: 'https://vimeo.com/777', settings_embed_host_d: 'loomid' });
    expect(video(r.body)).toEqual({ ...none, settings_embed_host_d: 'loomid', embed_code: '<div>embed</div>' });
  });

  it('settings_embed_code clears the hosts unless a changed host takes precedence', async () => {
    const id = await createLesson(ctx.emu, { settings_embed_host_a: 'a1' });
    let r = await call(ctx.emu, 'PATCH', `/lessons/${id}`, { settings_embed_code: '<div>v</div>' });
    expect(video(r.body)).toEqual({ ...none, settings_embed_code: '<div>v</div>', embed_code: null });
    r = await call(ctx.emu, 'PATCH', `/lessons/${id}`, { settings_embed_code: '<div>w</div>', settings_embed_host_c: 'c9' });
    expect(video(r.body)).toEqual({ ...none, settings_embed_host_c: 'c9', embed_code: null });
  });

  it('null or empty clears one field only', async () => {
    const id = await createLesson(ctx.emu, { settings_embed_host_a: 'a1', embed_code: '<div>e</div>' });
    let r = await call(ctx.emu, 'PATCH', `/lessons/${id}`, { settings_embed_host_a: '' });
    expect(video(r.body)).toEqual({ ...none, embed_code: '<div>e</div>' });
    await call(ctx.emu, 'PATCH', `/lessons/${id}`, { settings_embed_host_d: 'd1' });
    r = await call(ctx.emu, 'PATCH', `/lessons/${id}`, { settings_embed_host_d: null, embed_code: null });
    expect(video(r.body)).toEqual({ ...none, embed_code: null });
  });
});
