/** Sections, members, offers, badges and custom code (docs/school-api.md). */
import { describe, expect, it } from 'vitest';
import { call, PARTNER, useEmulator } from './helpers.js';

const ctx = useEmulator();

describe('GET /sections', () => {
  it('lists a program in group then section order, with pagination', async () => {
    const all = await call(ctx.emu, 'GET', '/sections?product_id=prog_intro');
    expect(all.status).toBe(200);
    expect(all.body.data.map((s: any) => s.id)).toEqual(['sec_start', 'sec_types', 'sec_tooling']);
    expect(all.body).toMatchObject({ page: 1, next_page: null });
    expect(all.body.data[2]).toEqual({
      id: 'sec_tooling', product_id: 'prog_intro', section_group_id: 'grp_next', section_group_position: 2,
      name: 'Tooling', description: '', position: 1, drip_delay: 0, is_published: true,
    });
    const p1 = await call(ctx.emu, 'GET', '/sections?product_id=prog_intro&per_page=2');
    expect(p1.body).toMatchObject({ page: 1, next_page: 2 });
    const p2 = await call(ctx.emu, 'GET', '/sections?product_id=prog_intro&per_page=2&page=2');
    expect(p2.body.data.map((s: any) => s.id)).toEqual(['sec_tooling']);
    expect(p2.body.next_page).toBeNull();
  });

  it('filters by group and by search', async () => {
    const g = await call(ctx.emu, 'GET', '/sections?product_id=prog_intro&section_group_id=grp_next');
    expect(g.body.data.map((s: any) => s.id)).toEqual(['sec_tooling']);
    const s = await call(ctx.emu, 'GET', '/sections?product_id=prog_intro&search=TYPE');
    expect(s.body.data.map((x: any) => x.id)).toEqual(['sec_types']);
  });

  it.each([
    ['product_id='],
    [''],
    ['product_id=prog_intro&page=0'],
    ['product_id=prog_intro&page=10001'],
    ['product_id=prog_intro&per_page=31'],
    ['product_id=prog_intro&per_page=abc'],
    ['product_id=prog_intro&search=' + 'q'.repeat(10_001)],
    ['product_id=prog_intro&section_group_id=' + 'g'.repeat(256)],
    ['product_id=prog_intro&colour=red'],
  ])('422 Invalid arguments for %s', async (query) => {
    expect(await call(ctx.emu, 'GET', `/sections?${query}`)).toMatchObject({ status: 422, body: { error: 'Invalid arguments' } });
  });

  it('404 for unknown program or group, 403 permission error, 401 without key', async () => {
    expect(await call(ctx.emu, 'GET', '/sections?product_id=prog_none')).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    expect(await call(ctx.emu, 'GET', '/sections?product_id=prog_intro&section_group_id=grp_none')).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    expect(await call(ctx.emu, 'GET', '/sections?product_id=prog_intro', undefined, PARTNER)).toMatchObject({ status: 403, body: { error: 'You do not have permission to perform this action' } });
    expect(await call(ctx.emu, 'GET', '/sections?product_id=prog_intro', undefined, null)).toMatchObject({ status: 401, body: { error: 'Access denied' } });
  });
});

describe('members', () => {
  it('lists with pagination', async () => {
    const r = await call(ctx.emu, 'GET', '/members?per_page=2&page=2');
    expect(r.body.members.map((m: any) => m.id)).toEqual(['mem_3', 'mem_4']);
    expect(r.body.pagination).toEqual({ total_count: 5, total_pages: 3, current_page: 2 });
    const d = await call(ctx.emu, 'GET', '/members');
    expect(d.body.members).toHaveLength(5);
    expect(d.body.members[0]).toEqual({ id: 'mem_1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', last_seen_at: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z' });
    expect(await call(ctx.emu, 'GET', '/members?per_page=101')).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /per_page maximum' } });
    expect(await call(ctx.emu, 'GET', '/members?page=x')).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /page type' } });
  });

  it('looks up by id, and by email ignoring case and surrounding spaces', async () => {
    expect((await call(ctx.emu, 'GET', '/members?id=mem_2')).body.email).toBe('grace@example.com');
    expect((await call(ctx.emu, 'GET', `/members?email=${encodeURIComponent('  GRACE@Example.com ')}`)).body.id).toBe('mem_2');
    expect((await call(ctx.emu, 'GET', '/members?id=mem_1&email=grace@example.com')).body.id).toBe('mem_1');
    expect(await call(ctx.emu, 'GET', '/members?email=nobody@example.com')).toMatchObject({ status: 404, body: { error: 'Record not found' } });
  });

  it('lists accesses (all, or for one member)', async () => {
    const all = await call(ctx.emu, 'GET', '/members/accesses');
    expect(all.body.accesses).toHaveLength(4);
    const ada = await call(ctx.emu, 'GET', '/members/accesses?email=ada@example.com');
    expect(ada.body.accesses).toEqual([
      { id: expect.any(String), member_id: 'mem_1', offer_id: 'off_pro', is_active: true, access_created_at: '2026-01-01T00:00:00.000Z',
        price: { id: 'pri_pro', amount: 4900, currency: 'EUR', price_type: 'one_time', recurring_interval: null, recurring_interval_count: null } },
    ]);
  });

  it('suspends and bans by id or email, JSON or form; validates the body', async () => {
    expect((await call(ctx.emu, 'POST', '/members/set_suspend', { member_id: 'mem_1', value: true })).body.id).toBe('mem_1');
    expect((await call(ctx.emu, 'POST', '/members/set_ban', 'email=GRACE@example.com&value=true')).body.id).toBe('mem_2');
    const state = await call(ctx.emu, 'GET', '/__emulator/state');
    const flags = Object.fromEntries(state.body.members.map((m: any) => [m.id, [m.is_suspended, m.is_banned]]));
    expect(flags).toMatchObject({ mem_1: [true, false], mem_2: [false, true] });
    expect(await call(ctx.emu, 'POST', '/members/set_ban', { member_id: 'mem_1' })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /value required' } });
    expect(await call(ctx.emu, 'POST', '/members/set_ban', { value: true })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /member_id required' } });
    expect(await call(ctx.emu, 'POST', '/members/set_ban', { member_id: 'mem_1', value: 'yes' })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /value type' } });
    expect(await call(ctx.emu, 'POST', '/members/set_suspend', { member_id: 'mem_x', value: true })).toMatchObject({ status: 404, body: { error: 'Record not found' } });
  });
});

describe('offers', () => {
  it('reads an offer; delete moves it to Trash, removes its accesses and keeps the members', async () => {
    expect((await call(ctx.emu, 'GET', '/offers/off_pro')).body).toEqual({
      id: 'off_pro', name: 'Pro', description: 'Every course, forever.', is_published: true,
      prices: [{ id: 'pri_pro', amount: 4900, currency: 'EUR' }], created_at: '2026-01-01T00:00:00.000Z',
    });
    expect(await call(ctx.emu, 'DELETE', '/offers/off_pro')).toMatchObject({ status: 200, body: { id: 'off_pro', deleted: true } });
    expect(await call(ctx.emu, 'GET', '/offers/off_pro')).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    expect(await call(ctx.emu, 'DELETE', '/offers/off_pro')).toMatchObject({ status: 404 });
    const accesses = (await call(ctx.emu, 'GET', '/members/accesses')).body.accesses;
    expect(accesses.map((a: any) => a.offer_id)).toEqual(['off_monthly', 'off_monthly']);
    expect((await call(ctx.emu, 'GET', '/members')).body.pagination.total_count).toBe(5);
    const state = await call(ctx.emu, 'GET', '/__emulator/state');
    expect(state.body.offers.find((o: any) => o.id === 'off_pro').in_trash).toBe(true);
  });
});

describe('badges', () => {
  it('awards by id or name / member id or email; a repeat returns the same award and no new notification', async () => {
    const first = await call(ctx.emu, 'POST', '/badges/award', { badge_name: 'Finisher', email: ' ADA@example.com ' });
    expect(first.body).toMatchObject({ badge_id: 'bdg_finisher', member_id: 'mem_1', id: expect.any(String), unlocked_at: expect.any(String) });
    const again = await call(ctx.emu, 'POST', '/badges/award', 'badge_id=bdg_finisher&member_id=mem_1');
    expect(again.body).toEqual(first.body);
    const state = await call(ctx.emu, 'GET', '/__emulator/state');
    expect(state.body.badge_notifications).toHaveLength(1);
  });

  it('ids take precedence; names must match exactly; validation', async () => {
    expect((await call(ctx.emu, 'POST', '/badges/award', { badge_id: 'bdg_helper', badge_name: 'Finisher', member_id: 'mem_2' })).body.badge_id).toBe('bdg_helper');
    expect(await call(ctx.emu, 'POST', '/badges/award', { badge_name: 'finisher', member_id: 'mem_2' })).toMatchObject({ status: 404, body: { error: 'Record not found' } });
    expect(await call(ctx.emu, 'POST', '/badges/award', { member_id: 'mem_2' })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /badge_id required' } });
    expect(await call(ctx.emu, 'POST', '/badges/award', { badge_id: 'bdg_helper' })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /member_id required' } });
  });
});

describe('custom code', () => {
  it('returns head and body; 401 without a key', async () => {
    expect((await call(ctx.emu, 'GET', '/custom_code')).body).toEqual({
      custom_code_head: '<meta name="school" content="demo">',
      custom_code_body: '<div id="coursesync-demo-footer"></div>',
    });
    expect(await call(ctx.emu, 'GET', '/custom_code', undefined, null)).toMatchObject({ status: 401, body: { error: 'Access denied' } });
  });
});
