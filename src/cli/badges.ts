/**
 * `coursesync badges award` (docs/school-api.md#badges). The API answers a repeated award with the existing one
 * and has no way to list awards, so "new or already existed" is decided from the answer itself:
 * a new award is unlocked while the school handles the request, so its `unlocked_at` is within
 * a moment of the answer's HTTP `Date` header (the school's own clock, so no clock skew with
 * this machine); an older `unlocked_at` means the member already had the badge. An award given
 * less than AWARD_NEW_WINDOW_MS before is indistinguishable and reported as new.
 */
import type { Command } from 'commander';
import type { BadgeAwardBody } from '../school-api/wire/badges.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { addSchoolOptions, explained, openSchool, processIo, type CommandIo, type SchoolFlags } from './school-command.js';
import { printDocument } from './terminal.js';

export interface BadgesAwardOptions extends SchoolFlags {
  badgeId?: string;
  badgeName?: string;
  memberId?: string;
  email?: string;
  json?: boolean;
}

/** `Date` has whole seconds and the school takes a moment to answer: allow 1 s + 1 s. */
export const AWARD_NEW_WINDOW_MS = 2_000;

export type AwardOutcome = 'new' | 'existing' | 'unknown';

/**
 * New or existing, from the award's `unlocked_at` and the answer's `Date` header. `unknown`
 * when the school sent no usable Date header.
 */
export function classifyAward(unlockedAt: string, serverDate: string | null): AwardOutcome {
  const answeredAt = serverDate === null ? NaN : Date.parse(serverDate);
  const unlocked = Date.parse(unlockedAt);
  if (Number.isNaN(answeredAt) || Number.isNaN(unlocked)) return 'unknown';
  return unlocked < answeredAt - AWARD_NEW_WINDOW_MS ? 'existing' : 'new';
}

/** `badges award (--badge-id | --badge-name) (--member-id | --email)`. */
export async function runBadgesAward(options: BadgesAwardOptions, io: CommandIo = processIo()): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  if ((options.badgeId === undefined) === (options.badgeName === undefined)) {
    throw failure('cli/badge-selector', {});
  }
  if ((options.memberId === undefined) === (options.email === undefined)) {
    throw failure('cli/member-selector', { options: '--member-id or --email', example: 'coursesync badges award --badge-id bdg_1 --member-id mem_1' });
  }
  const body: BadgeAwardBody = options.badgeId !== undefined ? { badge_id: options.badgeId } : { badge_name: options.badgeName! };
  if (options.memberId !== undefined) body.member_id = options.memberId;
  else body.email = options.email!;
  let answeredAt: string | null = null;
  const client = await openSchool(options, io, {
    onResponse: (e) => {
      if (e.endpoint === 'POST /badges/award') answeredAt = e.date;
    },
  });
  const badge = options.badgeId !== undefined ? `badge ${options.badgeId}` : `badge named "${options.badgeName}" (names match exactly)`;
  const member = options.memberId !== undefined ? `member ${options.memberId}` : `member with email ${options.email}`;
  const award = await explained(client.badges.award(body), `${badge} or no ${member}`);
  const outcome = classifyAward(award.unlocked_at, answeredAt);
  if (options.json) {
    printDocument({ outcome, award }, io.stdout);
    return ExitCode.Ok;
  }
  const text =
    outcome === 'new'
      ? `Awarded badge ${award.badge_id} to member ${award.member_id}: a new award (${award.id}, unlocked at ${award.unlocked_at}).`
      : outcome === 'existing'
        ? `Member ${award.member_id} already had badge ${award.badge_id} (award ${award.id}, unlocked at ${award.unlocked_at}); nothing changed and no new notification was sent.`
        : `Badge ${award.badge_id} is awarded to member ${award.member_id} (award ${award.id}, unlocked at ${award.unlocked_at}); the school's answer had no Date header, so whether it is new is unknown.`;
  io.stdout.write(text + '\n');
  return ExitCode.Ok;
}

/** Add `badges award`. */
export function register(program: Command): void {
  const badges = program.command('badges').description('Badges: award one to a member');
  addSchoolOptions(
    badges
      .command('award')
      .description('Award a badge to a member; says whether the award is new or already existed')
      .option('--badge-id <id>', 'badge id (takes precedence over names)')
      .option('--badge-name <name>', 'exact badge name')
      .option('--member-id <id>', 'member id')
      .option('--email <email>', 'member email (case and surrounding spaces ignored)')
      .option('--json', 'print {outcome, award} as JSON'),
  ).action(async (options: BadgesAwardOptions) => {
    process.exitCode = await runBadgesAward(options);
  });
}
