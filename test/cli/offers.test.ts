/** `coursesync offers get|delete` in-process against the real emulator. */
import { describe, expect, it } from 'vitest';
import { deleteConsequences, runOffersDelete, runOffersGet } from '../../src/cli/offers.js';
import { useSchool } from './school-helpers.js';

const school = useSchool();

describe('offers get', () => {
  it('prints the offer (JSON) and a field/value table', async () => {
    const json = school.io();
    await runOffersGet('off_pro', { json: true }, json);
    expect(JSON.parse(json.stdout.text).offer).toMatchObject({ id: 'off_pro', name: 'Pro', prices: [{ id: 'pri_pro', amount: 4900, currency: 'EUR' }] });
    const text = school.io();
    await runOffersGet('off_pro', {}, text);
    expect(text.stdout.text).toContain('prices\t4900 EUR (pri_pro)\n');
  });

  it('an unknown offer: 404 that names it and says to check the id', async () => {
    const e = await school.fails(runOffersGet('off_nope', {}, school.io()));
    expect(e.code).toBe('connection/not-found');
    expect(e.message).toMatch(/no offer off_nope/);
    expect(e.hint).toMatch(/check the id/);
  });
});

describe('offers delete', () => {
  it('off a TTY without --yes: says what delete does, refuses, deletes nothing', async () => {
    const io = school.io();
    const e = await school.fails(runOffersDelete('off_pro', {}, io));
    expect(e.code).toBe('cli/needs-yes');
    expect(io.stderr.text).toBe('Offer "Pro" (off_pro) goes to Trash: its 2 member accesses are removed, the members are kept, and the offer can be restored from Trash in the school.\n');
    expect((await school.state()).accesses.filter((a: any) => a.offer_id === 'off_pro')).toHaveLength(2);
    expect(school.emu.stats().byRoute['DELETE /offers/:id'] ?? 0).toBe(0);
  });

  it('--yes: the offer is in Trash, its member accesses are gone, the members remain', async () => {
    const membersBefore = (await school.state()).members.map((m: any) => m.id);
    const io = school.io();
    expect(await runOffersDelete('off_pro', { yes: true }, io)).toBe(0);
    expect(io.stdout.text).toBe('Deleted offer "Pro" (off_pro): it is in Trash, 2 member accesses removed, members kept. Restore it from Trash in the school if needed.\n');
    const after = await school.state();
    expect(after.accesses.filter((a: any) => a.offer_id === 'off_pro')).toEqual([]);
    expect(after.accesses.filter((a: any) => a.offer_id === 'off_monthly')).toHaveLength(2);
    expect(after.members.map((m: any) => m.id)).toEqual(membersBefore);
    expect(after.offers.find((o: any) => o.id === 'off_pro').in_trash).toBe(true);
    // The API view agrees: mem_1 had only the Pro access; mem_2 keeps Monthly.
    expect(await school.client().members.get({ id: 'mem_1' })).toMatchObject({ id: 'mem_1' });
    const left = await school.client().members.accesses();
    expect(left.map((a) => a.offer_id).sort()).toEqual(['off_monthly', 'off_monthly']);
    // A trashed offer is gone for get and delete.
    expect((await school.fails(runOffersGet('off_pro', {}, school.io()))).message).toMatch(/no offer off_pro \(or it is in Trash\)/);
    expect((await school.fails(runOffersDelete('off_pro', { yes: true }, school.io()))).code).toBe('connection/not-found');
  });

  it('--json gives the result with the consequences as fields', async () => {
    const io = school.io();
    await runOffersDelete('off_monthly', { yes: true, json: true }, io);
    expect(JSON.parse(io.stdout.text)).toMatchObject({ id: 'off_monthly', deleted: true, removed_accesses: 2, restorable_from_trash: true, offer: { name: 'Monthly' } });
    expect(io.stderr.text).toBe('');
  });

  it('names one access in the singular', () => {
    expect(deleteConsequences({ id: 'o', name: 'N', description: '', is_published: true, prices: [], created_at: '' }, 1)).toMatch(/its 1 member access is removed/);
  });

  it('a bad token: 401 naming COURSESYNC_TOKEN, nothing deleted; no token in any output', async () => {
    const e = await school.fails(runOffersDelete('off_pro', { yes: true }, school.io({ token: 'nope' })));
    expect(e.hint).toMatch(/COURSESYNC_TOKEN/);
    expect((await school.state()).accesses).toHaveLength(4);
    school.assertNoTokenLeaked();
  });
});
