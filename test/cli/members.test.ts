/** `coursesync members …` in-process against the real emulator: pages, lookups, accesses, flags, errors. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { memberLookupOf, runMemberFlag, runMembersAccesses, runMembersGet, runMembersList } from '../../src/cli/members.js';
import { PARTNER_SECRET, SEED, useSchool } from './school-helpers.js';

// 45 members: 3 pages of 20, so lists span several pages.
const extra = Array.from({ length: 40 }, (_, i) => ({ id: `mem_x${String(i + 1).padStart(2, '0')}`, email: `x${i + 1}@example.com`, first_name: 'X', last_name: String(i + 1) }));
const school = useSchool({ seed: { ...SEED, members: [...SEED.members!, ...extra] } });

describe('members list', () => {
  it('--all walks every page (3 pages of 20) and returns all 45 members once, in order', async () => {
    const io = school.io();
    expect(await runMembersList({ all: true, json: true }, io)).toBe(0);
    const out = JSON.parse(io.stdout.text);
    expect(out.members).toHaveLength(45);
    expect(new Set(out.members.map((m: any) => m.id)).size).toBe(45);
    expect(out.members[0].id).toBe('mem_1');
    expect(out.members.at(-1).id).toBe('mem_x40');
    expect(out).toMatchObject({ page: null, total_count: 45, total_pages: 3 });
    expect(school.emu.stats().byRoute['GET /members']).toBeGreaterThanOrEqual(3);
  });

  it('--page and --per-page give one page; off a TTY one tab-separated line per member, no heading', async () => {
    const io = school.io();
    expect(await runMembersList({ page: '2', perPage: '10' }, io)).toBe(0);
    const lines = io.stdout.text.trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('mem_x06\tx6@example.com\tX 6\tnever');
    expect(io.stderr.text).toBe('');
  });

  it('on a TTY: a table with a heading, and the page position on stderr', async () => {
    const io = school.io({ tty: true });
    await runMembersList({ perPage: '20' }, io);
    const lines = stripVTControlCharacters(io.stdout.text).split('\n');
    expect(lines[0]).toMatch(/^ID\s+EMAIL\s+NAME\s+LAST SEEN$/);
    expect(lines[1]).toMatch(/^mem_1\s+ada@example\.com\s+Ada Lovelace\s+never$/);
    expect(io.stderr.text).toBe('Page 1 of 3 (45 members); --page 2 for the next, --all for every page.\n');
  });

  it.each([
    [{ page: '0' }, /--page must be a whole number from 1 to 10000, not "0"/],
    [{ perPage: '101' }, /--per-page must be a whole number from 1 to 100/],
    [{ all: true, page: '2' }, /--all and --page cannot be combined/],
  ])('refuses %j before any request', async (options, message) => {
    const before = school.emu.stats().requests;
    const e = await school.fails(runMembersList(options, school.io()));
    expect(e.message).toMatch(message);
    expect(school.emu.stats().requests).toBe(before);
  });

  it('a bad token: 401 explained, naming COURSESYNC_TOKEN', async () => {
    const e = await school.fails(runMembersList({}, school.io({ token: 'wrong-token' })));
    expect(e.code).toBe('connection/unauthorized');
    expect(e.hint).toMatch(/COURSESYNC_TOKEN/);
  });

  it('no token: says to set COURSESYNC_TOKEN, sends nothing', async () => {
    const before = school.emu.stats().requests;
    const e = await school.fails(runMembersList({}, school.io({ token: null })));
    expect(e.code).toBe('connection/no-token');
    expect(school.emu.stats().requests).toBe(before);
  });
});

describe('connection settings', () => {
  it('--dir: the base URL from that folder’s coursesync.yaml; an invalid one is reported with its line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coursesync-members-'));
    try {
      await writeFile(join(dir, 'coursesync.yaml'), `school:\n  base_url: ${school.emu.url}\n`);
      const io = school.io({ env: { COURSESYNC_BASE_URL: '' } });
      expect(await runMembersGet({ id: 'mem_1', dir, json: true }, io)).toBe(0);
      expect(JSON.parse(io.stdout.text).member.id).toBe('mem_1');
      await writeFile(join(dir, 'coursesync.yaml'), 'school:\n  base_ur: x\n');
      const e = await school.fails(runMembersGet({ id: 'mem_1', dir }, school.io()));
      expect(e.code).toBe('config/invalid');
      expect(e.diagnostics).toEqual([expect.objectContaining({ file: 'coursesync.yaml', line: 2, column: 3, code: 'config/unknown-key', hint: 'did you mean "base_url"?' })]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--base-url wins over the environment; plain http to a non-loopback host is refused before any request', async () => {
    const io = school.io({ env: { COURSESYNC_BASE_URL: 'http://127.0.0.1:1/api/v1' } });
    expect(await runMembersGet({ id: 'mem_1', baseUrl: school.emu.url }, io)).toBe(0);
    const e = await school.fails(runMembersGet({ id: 'mem_1', baseUrl: 'http://school.example.com/api/v1' }, school.io()));
    expect(e.code).toBe('connection/insecure-url');
  });
});

describe('members get', () => {
  it('by id and by email (case ignored) give the same member', async () => {
    const a = school.io();
    await runMembersGet({ id: 'mem_2', json: true }, a);
    const b = school.io();
    await runMembersGet({ email: ' GRACE@example.com ', json: true }, b);
    expect(JSON.parse(a.stdout.text)).toEqual(JSON.parse(b.stdout.text));
    expect(JSON.parse(a.stdout.text).member).toMatchObject({ id: 'mem_2', email: 'grace@example.com', first_name: 'Grace' });
  });

  it('prints field/value lines off a TTY', async () => {
    const io = school.io();
    await runMembersGet({ id: 'mem_1' }, io);
    expect(io.stdout.text).toMatch(/^id\tmem_1\nemail\tada@example\.com\n/);
  });

  it('an unknown member is a 404 that names it', async () => {
    const e = await school.fails(runMembersGet({ email: 'nobody@example.com' }, school.io()));
    expect(e.code).toBe('connection/not-found');
    expect(e.message).toMatch(/no member with email nobody@example\.com/);
  });

  it('needs exactly one of --id and --email', async () => {
    expect((await school.fails(runMembersGet({}, school.io()))).code).toBe('cli/member-selector');
    expect((await school.fails(runMembersGet({ id: 'a', email: 'b@c' }, school.io()))).code).toBe('cli/member-selector');
  });
});

describe('members accesses', () => {
  it('all accesses, then one member’s (by id or email), filtered client-side', async () => {
    const all = school.io();
    await runMembersAccesses({ json: true }, all);
    expect(JSON.parse(all.stdout.text).accesses).toHaveLength(4);
    for (const who of ['mem_2', 'Grace@Example.com']) {
      const io = school.io();
      await runMembersAccesses({ member: who, json: true }, io);
      const out = JSON.parse(io.stdout.text);
      expect(out.member.id).toBe('mem_2');
      expect(out.accesses.map((a: any) => a.offer_id).sort()).toEqual(['off_monthly', 'off_pro']);
      expect(out.accesses.every((a: any) => a.member_id === 'mem_2')).toBe(true);
    }
    // The request is the documented one: no member parameter is sent.
    expect(school.emu.stats().byRoute['GET /members/accesses']).toBe(3);
  });

  it('a member without accesses gives an empty list; an unknown member a 404', async () => {
    const io = school.io();
    await runMembersAccesses({ member: 'mem_4', json: true }, io);
    expect(JSON.parse(io.stdout.text).accesses).toEqual([]);
    expect((await school.fails(runMembersAccesses({ member: 'mem_nope' }, school.io()))).code).toBe('connection/not-found');
  });
});

describe('members suspend|unsuspend|ban|unban', () => {
  it('off a TTY without --yes: refuses, says to use --yes, changes nothing', async () => {
    const before = (await school.state()).members.find((m: any) => m.id === 'mem_1');
    const e = await school.fails(runMemberFlag('suspend', 'mem_1', {}, school.io()));
    expect(e.code).toBe('cli/needs-yes');
    expect(e.hint).toMatch(/--yes/);
    expect((await school.state()).members.find((m: any) => m.id === 'mem_1')).toEqual(before);
  });

  it.each([
    ['suspend', 'is_suspended', true],
    ['ban', 'is_banned', true],
  ] as const)('%s --yes sets the flag and prints the member after the change; the opposite clears it', async (action, flag, value) => {
    const io = school.io();
    expect(await runMemberFlag(action, 'ada@example.com', { yes: true, json: true }, io)).toBe(0);
    const printed = JSON.parse(io.stdout.text).member;
    const live = (await school.state()).members.find((m: any) => m.id === 'mem_1');
    expect(live[flag]).toBe(value);
    expect(printed).toMatchObject({ id: 'mem_1', email: 'ada@example.com', updated_at: live.updated_at });
    const undo = action === 'suspend' ? 'unsuspend' : 'unban';
    await runMemberFlag(undo, 'mem_1', { yes: true }, school.io());
    expect((await school.state()).members.find((m: any) => m.id === 'mem_1')[flag]).toBe(false);
  });

  it('an unknown member: 404 before any change', async () => {
    const e = await school.fails(runMemberFlag('ban', 'ghost@example.com', { yes: true }, school.io()));
    expect(e.message).toMatch(/no member with email ghost@example\.com/);
    expect(school.emu.stats().byRoute['POST /members/set_ban'] ?? 0).toBe(0);
  });

  it('the partner key can read members too (members are not per program)', async () => {
    const io = school.io({ token: PARTNER_SECRET });
    expect(await runMembersGet({ id: 'mem_3', json: true }, io)).toBe(0);
  });

  it('an argument with @ is an email, anything else an id', () => {
    expect(memberLookupOf('a@b.c')).toEqual({ email: 'a@b.c' });
    expect(memberLookupOf('mem_1')).toEqual({ id: 'mem_1' });
  });

  it('no token ever appears in any output or error of these commands', async () => {
    await runMembersList({ all: true, json: true }, school.io());
    await runMembersGet({ email: 'ada@example.com' }, school.io({ tty: true }));
    await runMembersAccesses({ member: 'ada@example.com' }, school.io({ token: PARTNER_SECRET }));
    await school.fails(runMembersList({}, school.io({ token: 'wrong-token' })));
    await school.fails(runMemberFlag('ban', 'ghost@example.com', { yes: true }, school.io({ tty: true })));
    school.assertNoTokenLeaked();
  });
});
