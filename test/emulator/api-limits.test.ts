/**
 * Limits the emulator holds over raw HTTP (docs/school-api.md#limits, #errors,
 * #choices-where-the-api-is-silent): copy names counted in characters (code points), the
 * highest position a request may ask for, and 422 for a lesson request body that cannot be read.
 */
import { describe, expect, it } from 'vitest';
import { MAX_POSITION } from '../../src/school-api/positions.js';
import { call, createLesson, sectionOrder, TOKEN, useEmulator } from './helpers.js';

const ctx = useEmulator({ operationDelayMs: 10 });
const EMOJI = '😀'; // one character, two UTF-16 units

describe('copy names are counted in characters', () => {
  it('a lesson of 124 emoji duplicates without a name ("Copy of " + 124 emoji, 132 characters)', async () => {
    const id = await createLesson(ctx.emu, { name: EMOJI.repeat(124) });
    const r = await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, { idempotency_key: 'emoji-copy' });
    expect(r.status).toBe(202);
    expect(r.body.error).toBeNull();
  });

  it('a copy name over 255 characters is still refused', async () => {
    const id = await createLesson(ctx.emu, { name: EMOJI.repeat(248) });
    const r = await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, {});
    expect(r).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /name maxLength' } });
  });

  it('a program copy named with 255 emoji is accepted, 256 is not', async () => {
    const ok = await call(ctx.emu, 'POST', '/products/prog_intro/duplicate', { name: EMOJI.repeat(255), idempotency_key: 'p255' });
    expect(ok.status).toBe(202);
    const long = await call(ctx.emu, 'POST', '/products/prog_intro/duplicate', { name: EMOJI.repeat(256), idempotency_key: 'p256' });
    expect(long.status).toBe(422);
  });
});

describe('positions', () => {
  it(`a position over ${MAX_POSITION} is refused; at the maximum, two "last" creates get distinct positions`, async () => {
    expect(await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'Far', position: MAX_POSITION + 1 })).toMatchObject({
      status: 422,
      body: { error: 'Invalid arguments: /position maximum' },
    });
    expect(await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'Near 2^53', position: 9007199254740991 })).toMatchObject({ status: 422 });
    const top = await createLesson(ctx.emu, { name: 'Top', position: MAX_POSITION });
    const a = await createLesson(ctx.emu, { name: 'A' });
    const b = await createLesson(ctx.emu, { name: 'B' });
    const order = await sectionOrder(ctx.emu, 'sec_start');
    const positions = new Map(order);
    expect(positions.get(top)).toBe(MAX_POSITION);
    expect(positions.get(a)).toBe(MAX_POSITION + 1);
    expect(positions.get(b)).toBe(MAX_POSITION + 2);
    expect(new Set(order.map(([, p]) => p)).size).toBe(order.length);
  });

  it('an update may not ask for a position over the maximum either', async () => {
    const id = await createLesson(ctx.emu, {});
    expect(await call(ctx.emu, 'PATCH', `/lessons/${id}`, { position: MAX_POSITION + 1 })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /position maximum' } });
  });
});

describe('lesson endpoints answer 422 for a body they cannot read', () => {
  const send = (method: string, path: string, contentType: string, body: string) =>
    fetch(ctx.emu.url + path, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': contentType }, body });

  it('POST /lessons: malformed JSON and text/plain are 422 Invalid arguments, nothing saved', async () => {
    const before = await sectionOrder(ctx.emu, 'sec_start');
    for (const [type, body] of [
      ['application/json', '{"section_id":"sec_start","name":'],
      ['text/plain', 'section_id=sec_start&name=x'],
      ['application/xml', '<lesson/>'],
    ] as const) {
      const r = await send('POST', '/lessons', type, body);
      expect(r.status, type).toBe(422);
      expect(await r.json()).toEqual({ error: 'Invalid arguments' });
    }
    expect(await sectionOrder(ctx.emu, 'sec_start')).toEqual(before);
  });

  it('PATCH /lessons/{id}: the same, and the lesson is unchanged', async () => {
    const id = await createLesson(ctx.emu, { name: 'Kept' });
    for (const [type, body] of [
      ['application/json', '{"name":'],
      ['text/plain', 'name=Changed'],
    ] as const) {
      const r = await send('PATCH', `/lessons/${id}`, type, body);
      expect(r.status, type).toBe(422);
      expect(await r.json()).toEqual({ error: 'Invalid arguments' });
    }
    const state = await call(ctx.emu, 'GET', '/__emulator/state');
    const lesson = state.body.programs.flatMap((p: any) => p.sections).flatMap((s: any) => s.lessons).find((l: any) => l.id === id);
    expect(lesson.name).toBe('Kept');
  });
});
