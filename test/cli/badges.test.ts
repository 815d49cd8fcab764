/** `coursesync badges award` in-process against the real emulator, and the new/existing rule. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AWARD_NEW_WINDOW_MS, classifyAward, runBadgesAward } from '../../src/cli/badges.js';
import { useSchool } from './school-helpers.js';

const school = useSchool();

afterEach(() => {
  vi.useRealTimers();
});

describe('classifyAward', () => {
  const date = 'Sun, 22 Nov 2026 10:00:05 GMT';
  it.each([
    ['unlocked in the same second as the answer', '2026-11-22T10:00:05.300Z', 'new'],
    ['unlocked just before the Date second (slow answer)', '2026-11-22T10:00:04.100Z', 'new'],
    [`unlocked exactly ${AWARD_NEW_WINDOW_MS} ms before`, '2026-11-22T10:00:03.000Z', 'new'],
    ['unlocked earlier than that', '2026-11-22T10:00:02.999Z', 'existing'],
    ['unlocked last year', '2025-01-01T00:00:00.000Z', 'existing'],
  ] as const)('%s → %s', (_name, unlocked, outcome) => {
    expect(classifyAward(unlocked, date)).toBe(outcome);
  });
  it('no or unparseable Date header → unknown', () => {
    expect(classifyAward('2026-11-22T10:00:05.300Z', null)).toBe('unknown');
    expect(classifyAward('2026-11-22T10:00:05.300Z', 'soon')).toBe('unknown');
  });
});

describe('badges award', () => {
  it('a first award is new; by badge name and email it is the same award', async () => {
    const io = school.io();
    expect(await runBadgesAward({ badgeId: 'bdg_finisher', memberId: 'mem_1', json: true }, io)).toBe(0);
    const first = JSON.parse(io.stdout.text);
    expect(first).toMatchObject({ outcome: 'new', award: { badge_id: 'bdg_finisher', member_id: 'mem_1' } });
    const again = school.io();
    await runBadgesAward({ badgeName: 'Finisher', email: 'ADA@example.com', json: true }, again);
    expect(JSON.parse(again.stdout.text).award).toEqual(first.award);
    expect((await school.state()).badge_notifications).toHaveLength(1);
  });

  it('an award given earlier is reported as already existing (the school’s clock, not this machine’s)', async () => {
    // The emulator stamps unlocked_at with Date.now(); Node's HTTP Date header keeps the real
    // clock. Moving Date.now() an hour back makes the first award an hour old.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 3_600_000);
    await school.client().badges.award({ badge_id: 'bdg_helper', member_id: 'mem_2' });
    vi.useRealTimers();
    const io = school.io();
    await runBadgesAward({ badgeName: 'Helper', memberId: 'mem_2' }, io);
    expect(io.stdout.text).toMatch(/^Member mem_2 already had badge bdg_helper \(award awd_\d+, unlocked at .+\); nothing changed and no new notification was sent\.\n$/);
    expect((await school.state()).badge_notifications).toHaveLength(1);
  });

  it('text output of a new award', async () => {
    const io = school.io();
    await runBadgesAward({ badgeId: 'bdg_helper', email: 'alan@example.com' }, io);
    expect(io.stdout.text).toMatch(/^Awarded badge bdg_helper to member mem_3: a new award \(awd_\d+, unlocked at \d{4}-.+Z\)\.\n$/);
  });

  it.each([
    [{ memberId: 'mem_1' }, 'cli/badge-selector'],
    [{ badgeId: 'b', badgeName: 'B', memberId: 'mem_1' }, 'cli/badge-selector'],
    [{ badgeId: 'b' }, 'cli/member-selector'],
    [{ badgeId: 'b', memberId: 'm', email: 'e@x' }, 'cli/member-selector'],
  ])('%j is refused before any request (%s)', async (options, code) => {
    const before = school.emu.stats().requests;
    expect((await school.fails(runBadgesAward(options, school.io()))).code).toBe(code);
    expect(school.emu.stats().requests).toBe(before);
  });

  it('an unknown badge name or member: 404 that says names match exactly', async () => {
    const e = await school.fails(runBadgesAward({ badgeName: 'finisher', memberId: 'mem_1' }, school.io()));
    expect(e.code).toBe('connection/not-found');
    expect(e.message).toMatch(/no badge named "finisher" \(names match exactly\) or no member mem_1/);
    const f = await school.fails(runBadgesAward({ badgeId: 'bdg_finisher', email: 'nobody@example.com' }, school.io()));
    expect(f.message).toMatch(/member with email nobody@example\.com/);
  });

  it('a bad token: 401 naming COURSESYNC_TOKEN; no token in any output', async () => {
    const e = await school.fails(runBadgesAward({ badgeId: 'bdg_finisher', memberId: 'mem_1' }, school.io({ token: 'nope' })));
    expect(e.hint).toMatch(/COURSESYNC_TOKEN/);
    school.assertNoTokenLeaked();
  });
});
