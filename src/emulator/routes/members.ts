/**
 * Members (docs/school-api.md#members). Choices where the API is silent (docs/school-api.md#choices-where-the-api-is-silent, shared wire
 * schemas): the list takes `page` (1–10000, default 1) and `per_page` (1–100, default 20);
 * `email` lookup ignores case and surrounding spaces (as docs/school-api.md#badges says for badges); accesses may
 * be narrowed with `member_id` or `email` and carry an extra `member_id` field; suspend/ban take
 * `member_id` or `email` (id wins) and `value` (boolean; text in forms). Bad query values are
 * 422 `Invalid arguments: /<param> <keyword>`; unknown members 404.
 */
import {
  MEMBERS_DEFAULT_PER_PAGE,
  MemberAccessQuerySchema,
  MemberFlagBodySchema,
  MemberListQuerySchema,
  type Member,
} from '../../school-api/wire/members.js';
import { coerceFormFields } from '../body.js';
import { ok, route, type Route, type RouteContext, type RouteResult } from '../context.js';
import { notFound, validate } from '../errors.js';
import type { MemberRecord, Store } from '../store.js';

/** Normalise an email for lookup: trimmed, lower case. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

/** Find a member by id (takes precedence) or email; 404 when there is none. */
export function findMember(store: Store, by: { member_id?: string | undefined; email?: string | undefined }): MemberRecord {
  if (by.member_id !== undefined) {
    const m = store.members.get(by.member_id);
    if (!m) throw notFound();
    return m;
  }
  const wanted = emailKey(by.email ?? '');
  for (const m of store.members.values()) if (emailKey(m.email) === wanted) return m;
  throw notFound();
}

export function memberResponse(m: MemberRecord): Member {
  return { id: m.id, email: m.email, first_name: m.first_name, last_name: m.last_name, last_seen_at: m.last_seen_at, created_at: m.created_at, updated_at: m.updated_at };
}

function queryObject(ctx: RouteContext): Record<string, string> {
  return Object.fromEntries(ctx.query);
}

function listMembers(ctx: RouteContext): RouteResult {
  const q = validate(MemberListQuerySchema.strict(), queryObject(ctx));
  if (q.id !== undefined || q.email !== undefined) {
    return ok(memberResponse(findMember(ctx.store, { member_id: q.id, email: q.email })));
  }
  const all = [...ctx.store.members.values()];
  const page = q.page ?? 1;
  const perPage = q.per_page ?? MEMBERS_DEFAULT_PER_PAGE;
  const members = all.slice((page - 1) * perPage, page * perPage).map(memberResponse);
  return ok({ members, pagination: { total_count: all.length, total_pages: Math.ceil(all.length / perPage), current_page: page } });
}

function listAccesses(ctx: RouteContext): RouteResult {
  const q = validate(MemberAccessQuerySchema.strict(), queryObject(ctx));
  const member = q.member_id !== undefined || q.email !== undefined ? findMember(ctx.store, q) : undefined;
  const accesses = [...ctx.store.accesses.values()]
    .filter((a) => member === undefined || a.member_id === member.id)
    .map((a) => ({ ...a, price: { ...a.price } }));
  return ok({ accesses });
}

function setFlag(flag: 'is_suspended' | 'is_banned') {
  return (ctx: RouteContext): RouteResult => {
    if (ctx.body.kind === 'form') coerceFormFields(ctx.body.value, { bools: ['value'] });
    const body = validate(MemberFlagBodySchema, ctx.body.value);
    const member = findMember(ctx.store, body);
    member[flag] = body.value;
    member.updated_at = new Date(ctx.now()).toISOString();
    return ok(memberResponse(member));
  };
}

export const memberRoutes: Route[] = [
  route('GET', '/members', listMembers),
  route('GET', '/members/accesses', listAccesses),
  route('POST', '/members/set_suspend', setFlag('is_suspended')),
  route('POST', '/members/set_ban', setFlag('is_banned')),
];
