/**
 * `coursesync members list|get|accesses|suspend|unsuspend|ban|unban` (docs/school-api.md#members).
 * A member argument is an email when it contains `@`, else an id. Suspend and ban change a
 * member, so they ask for confirmation (or --yes) and print the member afterwards.
 */
import type { Command } from 'commander';
import type { MemberLookup, SchoolClient } from '../school/client.js';
import type { Member, MemberAccess } from '../school-api/wire/members.js';
import { ExitCode } from '../diagnostics/exit-codes.js';
import { addSchoolOptions, explained, openSchool, positiveInt, processIo, type CommandIo, type SchoolFlags } from './school-command.js';
import { confirm, printDocument, printRecord, printTable, type Out } from './terminal.js';

export interface MembersListOptions extends SchoolFlags {
  all?: boolean;
  page?: string;
  perPage?: string;
  json?: boolean;
}
export interface MembersGetOptions extends SchoolFlags {
  id?: string;
  email?: string;
  json?: boolean;
}
export interface MembersAccessesOptions extends SchoolFlags {
  member?: string;
  json?: boolean;
}
export interface MemberFlagOptions extends SchoolFlags {
  yes?: boolean;
  json?: boolean;
}

/** `ada@example.com` → by email; anything else → by id. */
export function memberLookupOf(value: string): MemberLookup {
  return value.includes('@') ? { email: value } : { id: value };
}

const describeLookup = (l: MemberLookup) => ('id' in l ? `member ${l.id}` : `member with email ${l.email}`);
const fullName = (m: Member) => `${m.first_name} ${m.last_name}`.trim();

function printMembers(members: readonly Member[], out: Out): void {
  printTable(
    members,
    [
      { header: 'id', value: (m) => m.id },
      { header: 'email', value: (m) => m.email },
      { header: 'name', value: fullName },
      { header: 'last seen', value: (m) => m.last_seen_at ?? 'never' },
    ],
    out,
  );
}

/** `members list`: one page (default 1), or every page with --all. JSON: `{members, page, total_pages, total_count}` (page null with --all). */
export async function runMembersList(options: MembersListOptions, io: CommandIo = processIo()): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  const { MEMBERS_MAX_PER_PAGE } = await import('../school-api/wire/members.js');
  const perPage = positiveInt('--per-page', options.perPage, MEMBERS_MAX_PER_PAGE);
  const page = positiveInt('--page', options.page);
  if (options.all && page !== undefined) {
    throw failure('cli/conflicting-options', { options: '--all and --page', hint: 'use --all for every member, or --page N for one page' });
  }
  const client = await openSchool(options, io);
  const members: Member[] = [];
  let pagination = { total_count: 0, total_pages: 0, current_page: page ?? 1 };
  if (options.all) {
    for (const p of await explained(collectPages(client, perPage))) {
      members.push(...p.members);
      pagination = p.pagination;
    }
  } else {
    const p = await explained(client.members.listPage({ page: page ?? 1, per_page: perPage }));
    members.push(...p.members);
    pagination = p.pagination;
  }
  if (options.json) {
    printDocument({ members, page: options.all ? null : pagination.current_page, total_pages: pagination.total_pages, total_count: pagination.total_count }, io.stdout);
    return ExitCode.Ok;
  }
  printMembers(members, io.stdout);
  if (io.stdout.isTTY && !options.all) {
    const more = pagination.current_page < pagination.total_pages ? `; --page ${pagination.current_page + 1} for the next, --all for every page` : '';
    io.stderr.write(`Page ${pagination.current_page} of ${pagination.total_pages} (${pagination.total_count} members)${more}.\n`);
  }
  return ExitCode.Ok;
}

/** Every page, collected (so a failure on page 3 is one error, not a half-printed table). */
async function collectPages(client: SchoolClient, perPage: number | undefined) {
  const pages = [];
  for await (const p of client.members.pages(perPage === undefined ? {} : { per_page: perPage })) pages.push(p);
  return pages;
}

/** `members get --id ID | --email E`. */
export async function runMembersGet(options: MembersGetOptions, io: CommandIo = processIo()): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  if ((options.id === undefined) === (options.email === undefined)) {
    throw failure('cli/member-selector', { options: '--id or --email', example: 'coursesync members get --email ada@example.com' });
  }
  const lookup: MemberLookup = options.id !== undefined ? { id: options.id } : { email: options.email! };
  const client = await openSchool(options, io);
  const member = await explained(client.members.get(lookup), describeLookup(lookup));
  if (options.json) printDocument({ member }, io.stdout);
  else printRecord(member, io.stdout);
  return ExitCode.Ok;
}

/**
 * `members accesses [--member ID|EMAIL]`. The API lists every access with no member filter
 * (docs/school-api.md#members), so the filter is applied here, on the `member_id` the school sends with each access;
 * a school that does not send it cannot be filtered, and that is said rather than guessed.
 */
export async function runMembersAccesses(options: MembersAccessesOptions, io: CommandIo = processIo()): Promise<number> {
  const { failure } = await import('../diagnostics/error-codes/index.js');
  const client = await openSchool(options, io);
  let member: Member | undefined;
  if (options.member !== undefined) {
    const lookup = memberLookupOf(options.member);
    member = await explained(client.members.get(lookup), describeLookup(lookup));
  }
  let accesses: MemberAccess[] = await explained(client.members.accesses());
  if (member) {
    if (accesses.some((a) => a.member_id === undefined)) {
      throw failure('members/accesses-unattributed', {});
    }
    accesses = accesses.filter((a) => a.member_id === member!.id);
  }
  if (options.json) {
    printDocument({ member: member ?? null, accesses }, io.stdout);
    return ExitCode.Ok;
  }
  printTable(
    accesses,
    [
      { header: 'id', value: (a) => a.id },
      { header: 'member', value: (a) => a.member_id ?? '?' },
      { header: 'offer', value: (a) => a.offer_id },
      { header: 'price', value: (a) => `${a.price.amount} ${a.price.currency} ${a.price.price_type}${a.price.recurring_interval ? `/${a.price.recurring_interval_count ?? 1} ${a.price.recurring_interval}` : ''}` },
      { header: 'active', value: (a) => (a.is_active ? 'yes' : 'no') },
      { header: 'since', value: (a) => a.access_created_at },
    ],
    io.stdout,
  );
  if (io.stdout.isTTY && accesses.length === 0) io.stderr.write(member ? `${member.email} has no offer accesses.\n` : 'The school has no member accesses.\n');
  return ExitCode.Ok;
}

export type MemberFlagAction = 'suspend' | 'unsuspend' | 'ban' | 'unban';

const FLAG_ACTIONS: Record<MemberFlagAction, { call: 'setSuspend' | 'setBan'; value: boolean; done: string }> = {
  suspend: { call: 'setSuspend', value: true, done: 'Suspended' },
  unsuspend: { call: 'setSuspend', value: false, done: 'Unsuspended' },
  ban: { call: 'setBan', value: true, done: 'Banned' },
  unban: { call: 'setBan', value: false, done: 'Unbanned' },
};

/** `members suspend|unsuspend|ban|unban <id|email>`: looks the member up, confirms, sets the flag, prints the member. */
export async function runMemberFlag(action: MemberFlagAction, who: string, options: MemberFlagOptions, io: CommandIo = processIo()): Promise<number> {
  const client = await openSchool(options, io);
  const lookup = memberLookupOf(who);
  const member = await explained(client.members.get(lookup), describeLookup(lookup));
  const spec = FLAG_ACTIONS[action];
  if (!(await confirm(`${action[0]!.toUpperCase()}${action.slice(1)} ${fullName(member) || member.email} <${member.email}> (${member.id})?`, { yes: options.yes }))) {
    io.stderr.write('Nothing was changed.\n');
    return ExitCode.Cancelled;
  }
  const after = await explained(client.members[spec.call]({ member_id: member.id, value: spec.value }), describeLookup(lookup));
  if (options.json) printDocument({ member: after }, io.stdout);
  else printRecord(after, io.stdout);
  if (io.stdout.isTTY && !options.json) io.stderr.write(`${spec.done} ${after.email} (${after.id}).\n`);
  return ExitCode.Ok;
}

/** Add the members commands. */
export function register(program: Command): void {
  const members = program.command('members').description('Members of the school: list, look up, offer accesses, suspend and ban');
  addSchoolOptions(
    members
      .command('list')
      .description('List members, one page at a time (or every page with --all)')
      .option('--all', 'every page')
      .option('--page <n>', 'page number (default 1)')
      .option('--per-page <n>', 'members per page (1–100; the school default is 20)')
      .option('--json', 'print JSON'),
  ).action(async (options: MembersListOptions) => {
    process.exitCode = await runMembersList(options);
  });
  addSchoolOptions(
    members.command('get').description('Show one member').option('--id <id>', 'member id').option('--email <email>', 'member email (case ignored)').option('--json', 'print JSON'),
  ).action(async (options: MembersGetOptions) => {
    process.exitCode = await runMembersGet(options);
  });
  addSchoolOptions(
    members
      .command('accesses')
      .description("List offer accesses, all or one member's (filtered here: the API has no member filter)")
      .option('--member <id|email>', 'only this member')
      .option('--json', 'print JSON'),
  ).action(async (options: MembersAccessesOptions) => {
    process.exitCode = await runMembersAccesses(options);
  });
  for (const action of Object.keys(FLAG_ACTIONS) as MemberFlagAction[]) {
    addSchoolOptions(
      members
        .command(action)
        .description(`${action[0]!.toUpperCase()}${action.slice(1)} a member, then show it`)
        .argument('<member>', 'member id, or email')
        .option('-y, --yes', 'do not ask for confirmation (required when not run in a terminal)')
        .option('--json', 'print the member as JSON'),
    ).action(async (who: string, options: MemberFlagOptions) => {
      process.exitCode = await runMemberFlag(action, who, options);
    });
  }
}
