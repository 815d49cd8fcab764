/** Duplication (docs/school-api.md (#duplicate-a-lesson, #duplicate-a-program, #operations, #states); docs/school-api.md#choices-where-the-api-is-silent choices): idempotency, completion, copies. */
import { describe, expect, it } from 'vitest';
import { call, createLesson, PARTNER, sectionLessons, sleep, useEmulator } from './helpers.js';

const ctx = useEmulator({ operationDelayMs: 30 });

/** Repeat the request until the operation leaves `pending` (how callers poll). */
async function poll(path: string, body: Record<string, unknown>): Promise<any> {
  for (let i = 0; i < 100; i++) {
    const r = await call(ctx.emu, 'POST', path, body);
    if (r.body.status !== 'pending') return r;
    await sleep(10);
  }
  throw new Error('operation did not complete');
}

describe('lesson duplication', () => {
  it('202 pending, then 200 with the same operation and the copy as result', async () => {
    const id = await createLesson(ctx.emu, { name: 'Orig', body: '<p>b</p>', settings_embed_host_a: 'vid1', is_published: true });
    const first = await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, { idempotency_key: 'k1' });
    expect(first).toMatchObject({ status: 202, body: { operation: 'duplicate_lesson', status: 'pending', result: null, error: null } });
    const done = await poll(`/lessons/${id}/duplicate`, { idempotency_key: 'k1' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: first.body.id, status: 'completed', error: null });
    expect(done.body.result).toMatchObject({ name: 'Copy of Orig', body: '<p>b</p>', settings_embed_host_a: 'vid1', is_published: false, section_id: 'sec_start', position: 2 });
    expect(done.body.result.id).not.toBe(id);
    const lessons = await sectionLessons(ctx.emu, 'sec_start');
    expect(lessons.map((l: any) => l.id)).toEqual([id, done.body.result.id]);
    expect(lessons[1].steps.map((s: any) => s.step_type)).toEqual(lessons[0].steps.map((s: any) => s.step_type));
    expect(lessons[1].steps[0].id).not.toBe(lessons[0].steps[0].id);
  });

  it('same key with different details is 422; a new key is a new operation', async () => {
    const id = await createLesson(ctx.emu, {});
    await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, { idempotency_key: 'k', name: 'A' });
    expect(await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, { idempotency_key: 'k', name: 'B' })).toMatchObject({ status: 422, body: { error: 'Invalid arguments' } });
    const other = await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, { idempotency_key: 'k2', name: 'A' });
    expect(other.status).toBe(202);
  });

  it('copies into another section (last), with a given name; needs edit access to both programs', async () => {
    const id = await createLesson(ctx.emu, {});
    await createLesson(ctx.emu, { section_id: 'sec_generics' });
    const done = await poll(`/lessons/${id}/duplicate`, { idempotency_key: 'x', destination_section_id: 'sec_generics', name: 'Mine' });
    expect(done.body.result).toMatchObject({ section_id: 'sec_generics', name: 'Mine', position: 2 });
    const partnerLesson = (await call(ctx.emu, 'POST', '/lessons', { section_id: 'sec_partner', name: 'P' }, PARTNER)).body.id;
    expect(await call(ctx.emu, 'POST', `/lessons/${partnerLesson}/duplicate`, { destination_section_id: 'sec_start' }, PARTNER)).toMatchObject({ status: 403, body: { error: 'Access denied' } });
    expect(await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, {}, PARTNER)).toMatchObject({ status: 403, body: { error: 'Access denied' } });
  });

  it('validates: unknown ids 404, long copy name 422, bad fields 422', async () => {
    const id = await createLesson(ctx.emu, { name: 'y'.repeat(250) });
    expect(await call(ctx.emu, 'POST', '/lessons/les_none/duplicate', {})).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    expect(await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, { destination_section_id: 'sec_none' })).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    expect(await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, {})).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /name maxLength' } });
    expect(await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, { name: 'n'.repeat(256) })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /name maxLength' } });
    expect(await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, { idempotency_key: '' })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /idempotency_key minLength' } });
    expect(await call(ctx.emu, 'POST', `/lessons/${id}/duplicate`, { name: 'ok', extra: 1 })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /extra additionalProperties' } });
  });
});

describe('program duplication', () => {
  it('copies sections and lessons with new ids, unpublished, without members', async () => {
    const l1 = await createLesson(ctx.emu, { name: 'One' });
    await createLesson(ctx.emu, { name: 'Two', section_id: 'sec_tooling' });
    const first = await call(ctx.emu, 'POST', '/products/prog_intro/duplicate', { idempotency_key: 'p1' });
    expect(first).toMatchObject({ status: 202, body: { operation: 'duplicate_program', status: 'pending', result: null, error: null } });
    const done = await poll('/products/prog_intro/duplicate', { idempotency_key: 'p1' });
    const result = done.body.result;
    expect(result).toMatchObject({ name: 'Copy of Intro to TypeScript', is_published: false });
    expect(result.id).not.toBe('prog_intro');
    expect(result.section_groups.map((g: any) => [g.name, g.position])).toEqual([['Basics', 1], ['Going further', 2]]);
    const state = await call(ctx.emu, 'GET', '/__emulator/state');
    const copy = state.body.programs.find((p: any) => p.id === result.id);
    expect(copy.member_ids).toEqual([]);
    expect(copy.sections.map((s: any) => s.name)).toEqual(['Getting started', 'Types', 'Tooling']);
    expect(copy.sections.every((s: any) => !['sec_start', 'sec_types', 'sec_tooling'].includes(s.id))).toBe(true);
    expect(copy.sections[0].lessons.map((l: any) => l.name)).toEqual(['One']);
    expect(copy.sections[0].lessons[0].id).not.toBe(l1);
    expect(copy.sections[2].lessons.map((l: any) => [l.name, l.position])).toEqual([['Two', 1]]);
  });

  it('Forbidden without access, Validation failed for key reuse and long names, 404 for unknown', async () => {
    expect(await call(ctx.emu, 'POST', '/products/prog_intro/duplicate', {}, PARTNER)).toMatchObject({ status: 403, body: { error: 'Forbidden' } });
    expect(await call(ctx.emu, 'POST', '/products/prog_none/duplicate', {})).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    await call(ctx.emu, 'POST', '/products/prog_intro/duplicate', { idempotency_key: 'r', name: 'A' });
    expect(await call(ctx.emu, 'POST', '/products/prog_intro/duplicate', { idempotency_key: 'r', name: 'B' })).toMatchObject({ status: 422, body: { error: 'Validation failed' } });
    expect(await call(ctx.emu, 'POST', '/products/prog_intro/duplicate', { name: 'n'.repeat(256) })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /name maxLength' } });
  });
});

describe('program copy name limit', () => {
  it('a default copy name over 255 characters is 422 Validation failed; a given name is fine', async () => {
    const { startEmulator } = await import('../../src/emulator/index.js');
    const name = 'p'.repeat(250);
    const emu = await startEmulator({ port: 0, seed: { api_keys: [{ token: 'demo-token', programs: 'all' }], programs: [{ id: 'prog_long', name }] } });
    try {
      expect(await call(emu, 'POST', '/products/prog_long/duplicate', {})).toMatchObject({ status: 422, body: { error: 'Validation failed' } });
      expect(await call(emu, 'POST', '/products/prog_long/duplicate', { name: '' })).toMatchObject({ status: 422, body: { error: 'Validation failed' } });
      expect(await call(emu, 'POST', '/products/prog_long/duplicate', { name: 'Short' })).toMatchObject({ status: 202 });
    } finally {
      await emu.close();
    }
  });
});

describe('--fail-operations', () => {
  it('ends operations failed with an error message', async () => {
    const { startEmulator } = await import('../../src/emulator/index.js');
    const emu = await startEmulator({ port: 0, failOperations: true, operationDelayMs: 0 });
    try {
      const make = await call(emu, 'POST', '/lessons', { section_id: 'sec_start', name: 'F' });
      await call(emu, 'POST', `/lessons/${make.body.id}/duplicate`, { idempotency_key: 'f' });
      const again = await call(emu, 'POST', `/lessons/${make.body.id}/duplicate`, { idempotency_key: 'f' });
      expect(again.body).toMatchObject({ status: 'failed', result: null, error: 'Duplication failed (injected by --fail-operations)' });
    } finally {
      await emu.close();
    }
  });
});
