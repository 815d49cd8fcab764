/**
 * Client conformance: every method of the typed client against the real emulator over HTTP,
 * with the statuses and error bodies of the school's API.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { newIdempotencyKey } from '../../src/school/client.js';
import { SchoolApiError, SchoolRequestError } from '../../src/school/errors.js';
import { waitForOperation } from '../../src/school/operations.js';
import type { Lesson } from '../../src/school-api/wire/index.js';
import { PARTNER_SECRET, assertTokenNeverLeaked, caught, useEmulator } from './emulator-fixture.js';

const ctx = useEmulator();
afterAll(() => assertTokenNeverLeaked());

describe('lessons', () => {
  it('create answers the Lesson with defaults and one position after another', async () => {
    const c = ctx.client();
    const a = await c.lessons.create({ section_id: 'sec_start', name: 'Welcome', body: '<p>Hi</p>', lesson_type: 'text' });
    const b = await c.lessons.create({ section_id: 'sec_start', name: 'Install' });
    expect(a).toMatchObject({ section_id: 'sec_start', name: 'Welcome', position: 1, lesson_type: 'text', is_published: true, drip_delay: 0, description: '', body: '<p>Hi</p>' });
    expect(b).toMatchObject({ position: 2, lesson_type: 'video' });
    expect(a.id).not.toBe(b.id);
  });

  it('create at an occupied position shifts later lessons down', async () => {
    const c = ctx.client();
    const a = await c.lessons.create({ section_id: 'sec_types', name: 'A' });
    const b = await c.lessons.create({ section_id: 'sec_types', name: 'B' });
    const x = await c.lessons.create({ section_id: 'sec_types', name: 'X', position: 1 });
    expect((await ctx.lessonsOf('sec_types')).map((l) => [l.id, l.position])).toEqual([[x.id, 1], [a.id, 2], [b.id, 3]]);
  });

  it('update changes fields, moves between sections, and {} reads the live lesson', async () => {
    const c = ctx.client();
    const a = await c.lessons.create({ section_id: 'sec_start', name: 'A' });
    const updated = await c.lessons.update(a.id, { name: 'A2', drip_delay: 3, is_published: false });
    expect(updated).toMatchObject({ id: a.id, name: 'A2', drip_delay: 3, is_published: false });
    const moved = await c.lessons.update(a.id, { section_id: 'sec_generics' });
    expect(moved).toMatchObject({ section_id: 'sec_generics', position: 1 });
    expect(await c.lessons.update(a.id, {})).toEqual(moved);
  });

  it('the school normalises a video URL to an id', async () => {
    const c = ctx.client();
    const v = await c.lessons.create({ section_id: 'sec_start', name: 'V', settings_embed_host_a: 'https://youtu.be/dQw4w9WgXcQ' });
    expect(v.settings_embed_host_a).toBe('dQw4w9WgXcQ');
  });

  it('update of an unknown lesson is 404 Record not found', async () => {
    const e = await caught(ctx.client().lessons.update('les_missing', { name: 'x' }));
    expect(e).toBeInstanceOf(SchoolApiError);
    expect([e.status, e.serverError, e.endpoint]).toEqual([404, 'Record not found', 'PATCH /lessons/les_missing']);
    expect(e.message).toBe('PATCH /lessons/les_missing answered 404: Record not found');
  });

  it('create in an unknown section is 404', async () => {
    const e = await caught(ctx.client().lessons.create({ section_id: 'sec_nope', name: 'x' }));
    expect([e.status, e.serverError]).toEqual([404, 'Record not found']);
  });

  it('forbidden markup is 422 from the school, nothing saved', async () => {
    const e = await caught(ctx.client().lessons.create({ section_id: 'sec_start', name: 'x', body: '<p>a</p><script>alert(1)</script>' }));
    expect(e).toBeInstanceOf(SchoolApiError);
    expect(e.status).toBe(422);
    expect(e.serverError).toMatch(/^Invalid arguments/);
    expect(await ctx.lessonsOf('sec_start')).toEqual([]);
  });

  it('a key without edit access to the program gets 403 Access denied', async () => {
    const lesson = await ctx.client().lessons.create({ section_id: 'sec_start', name: 'x' });
    const partner = ctx.client({ token: PARTNER_SECRET });
    const e = await caught(partner.lessons.update(lesson.id, { name: 'y' }));
    expect([e.status, e.serverError]).toEqual([403, 'Access denied']);
    expect(e.hint).toContain('edit access');
    const created = await partner.lessons.create({ section_id: 'sec_partner', name: 'ok' });
    expect(created.section_id).toBe('sec_partner');
  });

  it('a wrong token gets 401 Access denied, and the hint names COURSESYNC_TOKEN', async () => {
    const e = await caught(ctx.client({ token: 'tok_SECRET_7f3a9c1e-wrong' }).customCode.get());
    expect([e.status, e.serverError, e.endpoint]).toEqual([401, 'Access denied', 'GET /custom_code']);
    expect(e.hint).toContain('COURSESYNC_TOKEN');
    expect(e.message).not.toContain('wrong');
  });

  it('a body breaking the API rules is refused before sending (no request reaches the school)', async () => {
    const before = ctx.emu.stats().requests;
    const e = await caught(ctx.client().lessons.create({ section_id: 'sec_start', name: 'x'.repeat(256) }));
    expect(e).toBeInstanceOf(SchoolRequestError);
    expect(e.message).toBe('POST /lessons not sent: Invalid arguments: /name maxLength');
    const e2 = await caught(ctx.client().lessons.update('les_1', { position: null as unknown as number }));
    expect(e2.message).toBe('PATCH /lessons/les_1 not sent: Invalid arguments: /position type');
    expect(ctx.emu.stats().requests).toBe(before);
  });
});

describe('duplication and operations', () => {
  it('lessons.duplicate + waitForOperation: a completed copy, unpublished, named "Copy of …"', async () => {
    const c = ctx.client();
    const src = await c.lessons.create({ section_id: 'sec_start', name: 'Intro', body: '<p>b</p>' });
    const details = { destination_section_id: 'sec_types', idempotency_key: newIdempotencyKey() };
    const progress: string[] = [];
    const op = await waitForOperation(() => c.lessons.duplicate(src.id, details), {
      intervalMs: 20,
      timeoutMs: 10_000,
      onProgress: (o) => progress.push(o.status),
    });
    expect(progress[0]).toBe('pending');
    expect(progress.at(-1)).toBe('completed');
    expect(op).toMatchObject({ operation: 'duplicate_lesson', status: 'completed', error: null });
    const copy = op.result as Lesson;
    expect(copy).toMatchObject({ name: 'Copy of Intro', section_id: 'sec_types', is_published: false, body: '<p>b</p>' });
    // Polling repeated the same request: one copy only.
    expect((await ctx.lessonsOf('sec_types')).map((l) => l.name)).toEqual(['Copy of Intro']);
  });

  it('the same key with different details is 422', async () => {
    const c = ctx.client();
    const src = await c.lessons.create({ section_id: 'sec_start', name: 'Intro' });
    const key = newIdempotencyKey();
    await c.lessons.duplicate(src.id, { idempotency_key: key });
    const e = await caught(c.lessons.duplicate(src.id, { idempotency_key: key, name: 'Other' }));
    expect([e.status, e.serverError]).toEqual([422, 'Invalid arguments']);
  });

  it('programs.duplicate: a new unpublished program record with a "Copy of" name', async () => {
    const c = ctx.client();
    const key = newIdempotencyKey();
    const first = await c.programs.duplicate('prog_intro', { idempotency_key: key });
    expect(first).toMatchObject({ operation: 'duplicate_program', status: 'pending', result: null, error: null });
    const op = await waitForOperation(() => c.programs.duplicate('prog_intro', { idempotency_key: key }), { intervalMs: 20 });
    expect(op.id).toBe(first.id);
    expect(op.result).toMatchObject({ name: 'Copy of Intro to TypeScript', is_published: false });
    expect(op.result?.id).not.toBe('prog_intro');
  });

  it('programs.duplicate of an unknown program is 404', async () => {
    const e = await caught(ctx.client().programs.duplicate('prog_nope', { idempotency_key: 'k1' }));
    expect([e.status, e.serverError]).toEqual([404, 'Record not found']);
  });

  it('programs.duplicate without edit access is refused', async () => {
    const e = await caught(ctx.client({ token: PARTNER_SECRET }).programs.duplicate('prog_intro', { idempotency_key: 'k2' }));
    expect(e.status).toBe(403);
  });
});

describe('members', () => {
  it('list iterates every page; listPage answers one page with pagination', async () => {
    const c = ctx.client();
    const ids: string[] = [];
    for await (const m of c.members.list({ per_page: 2 })) ids.push(m.id);
    expect(ids).toEqual(['mem_1', 'mem_2', 'mem_3', 'mem_4', 'mem_5']);
    const pages: number[] = [];
    for await (const p of c.members.pages({ per_page: 2 })) pages.push(p.pagination.current_page);
    expect(pages).toEqual([1, 2, 3]);
    const page = await c.members.listPage({ page: 2, per_page: 2 });
    expect(page.members.map((m) => m.id)).toEqual(['mem_3', 'mem_4']);
    expect(page.pagination).toEqual({ total_count: 5, total_pages: 3, current_page: 2 });
  });

  it('get by id and by email (case and spaces ignored); unknown is 404', async () => {
    const c = ctx.client();
    expect(await c.members.get({ id: 'mem_2' })).toMatchObject({ id: 'mem_2', email: 'grace@example.com', first_name: 'Grace' });
    expect((await c.members.get({ email: '  ADA@Example.com ' })).id).toBe('mem_1');
    const e = await caught(c.members.get({ email: 'nobody@example.com' }));
    expect([e.status, e.serverError]).toEqual([404, 'Record not found']);
  });

  it('accesses: all, or one member’s', async () => {
    const c = ctx.client();
    const all = await c.members.accesses();
    expect(all.map((a) => a.offer_id).sort()).toEqual(['off_monthly', 'off_monthly', 'off_pro', 'off_pro']);
    const grace = await c.members.accesses({ member_id: 'mem_3' });
    expect(grace.map((a) => a.offer_id)).toEqual(['off_monthly']);
    expect(grace[0]?.price).toMatchObject({ id: 'pri_monthly', amount: 900, currency: 'EUR' });
  });

  it('setSuspend and setBan answer the member', async () => {
    const c = ctx.client();
    expect((await c.members.setSuspend({ member_id: 'mem_4', value: true })).id).toBe('mem_4');
    expect((await c.members.setBan({ email: 'edsger@example.com', value: true })).id).toBe('mem_5');
    const e = await caught(c.members.setBan({ member_id: 'mem_404', value: false }));
    expect(e.status).toBe(404);
  });
});

describe('sections', () => {
  it('list follows next_page; group filter keeps the order within the group', async () => {
    const c = ctx.client();
    const ids: string[] = [];
    for await (const s of c.sections.list({ product_id: 'prog_intro', per_page: 1 })) ids.push(s.id);
    expect(ids).toEqual(['sec_start', 'sec_types', 'sec_tooling']);
    const grouped: string[] = [];
    for await (const s of c.sections.list({ product_id: 'prog_intro', section_group_id: 'grp_next' })) grouped.push(s.id);
    expect(grouped).toEqual(['sec_tooling']);
    const pageNumbers: number[] = [];
    for await (const p of c.sections.pages({ product_id: 'prog_advanced', per_page: 2 })) pageNumbers.push(p.page);
    expect(pageNumbers).toEqual([1, 2]);
    const page = await c.sections.listPage({ product_id: 'prog_advanced', per_page: 2 });
    expect(page).toMatchObject({ page: 1, next_page: 2 });
    expect(page.data[0]).toMatchObject({ id: 'sec_generics', product_id: 'prog_advanced', name: 'Generics', position: 1 });
  });

  it('an unknown program is 404', async () => {
    const e = await caught(ctx.client().sections.listPage({ product_id: 'prog_nope' }));
    expect([e.status, e.serverError, e.endpoint]).toEqual([404, 'Record not found', 'GET /sections']);
  });
});

describe('offers, badges, custom code', () => {
  it('offers.get and offers.delete (to Trash, accesses removed, members kept)', async () => {
    const c = ctx.client();
    expect(await c.offers.get('off_pro')).toMatchObject({ id: 'off_pro', name: 'Pro', prices: [{ id: 'pri_pro', amount: 4900, currency: 'EUR' }] });
    expect(await c.offers.delete('off_pro')).toEqual({ id: 'off_pro', deleted: true });
    expect((await c.members.accesses()).map((a) => a.offer_id)).not.toContain('off_pro');
    expect((await c.members.get({ id: 'mem_1' })).id).toBe('mem_1');
    const e = await caught(c.offers.get('off_nope'));
    expect([e.status, e.serverError]).toEqual([404, 'Record not found']);
  });

  it('badges.award by name and email; a repeat returns the same award', async () => {
    const c = ctx.client();
    const first = await c.badges.award({ badge_name: 'Finisher', email: 'ada@example.com' });
    expect(first).toMatchObject({ badge_id: 'bdg_finisher', member_id: 'mem_1' });
    const again = await c.badges.award({ badge_id: 'bdg_finisher', member_id: 'mem_1' });
    expect(again).toEqual(first);
    const e = await caught(c.badges.award({ badge_name: 'finisher', member_id: 'mem_1' }));
    expect(e.status).toBe(404);
  });

  it('customCode.get', async () => {
    expect(await ctx.client().customCode.get()).toEqual({
      custom_code_head: '<meta name="school" content="demo">',
      custom_code_body: '<div id="coursesync-demo-footer"></div>',
    });
  });
});

describe('webhooks', () => {
  it('create and list', async () => {
    const c = ctx.client();
    const hook = await c.webhooks.create({
      webhook_url: 'https://hooks.example.com/in',
      event_type: 'member_joining_offer',
      provider: 'coursesync',
      extra_parameters: { offerFilter: ['off_pro'] },
    });
    expect(hook).toMatchObject({ webhook_url: 'https://hooks.example.com/in', event_type: 'member_joining_offer', extra_parameters: { offerFilter: ['off_pro'] } });
    expect((await c.webhooks.list()).map((w) => w.id)).toEqual([hook.id]);
  });

  it('a private or plain-http address is refused by the school', async () => {
    const c = ctx.client();
    for (const url of ['https://10.0.0.8/hook', 'http://hooks.example.com/in', 'https://127.0.0.1/hook']) {
      const e = await caught(c.webhooks.create({ webhook_url: url, event_type: 'new_payment' }));
      expect(e).toBeInstanceOf(SchoolApiError);
      expect(e.status).toBe(422);
    }
    expect(await c.webhooks.list()).toEqual([]);
  });

  it('filters of another event are refused before sending', async () => {
    const e = await caught(ctx.client().webhooks.create({ webhook_url: 'https://hooks.example.com/in', event_type: 'new_payment', extra_parameters: { step_type: ['quiz'] } }));
    expect(e).toBeInstanceOf(SchoolRequestError);
    expect(e.message).toBe('POST /webhooks not sent: Invalid arguments: /extra_parameters/step_type additionalProperties');
  });
});
