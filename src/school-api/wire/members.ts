/**
 * Wire schemas of members (docs/school-api.md#members Member, docs/school-api.md#members Member access, docs/school-api.md#members GET /members, docs/school-api.md#members
 * GET /members/accesses, docs/school-api.md#members POST /members/set_suspend and /members/set_ban).
 *
 * Choices where the API is silent (docs/school-api.md#choices-where-the-api-is-silent): the list takes `page` (1–10000) and
 * `per_page` (1–100, default 20); suspend/ban take `member_id` or `email` and `value` (boolean);
 * accesses may be narrowed with `member_id` or `email` (without them: all accesses, as docs/school-api.md#members says).
 */
import { z } from 'zod';
import { queryInt } from './query.js';
import { schoolId } from '../school-rules.js';

export const MEMBERS_MAX_PER_PAGE = 100;
export const MEMBERS_DEFAULT_PER_PAGE = 20;

/** Member (docs/school-api.md#members). */
export const MemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  last_seen_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Member = z.output<typeof MemberSchema>;

/** Pagination block of the members list (docs/school-api.md#members). */
export const PaginationSchema = z.object({
  total_count: z.int(),
  total_pages: z.int(),
  current_page: z.int(),
});

/** GET /members without id/email (docs/school-api.md#members). */
export const MemberListSchema = z.object({
  members: z.array(MemberSchema),
  pagination: PaginationSchema,
});
export type MemberList = z.output<typeof MemberListSchema>;

/** GET /members query (docs/school-api.md#members and the docs/school-api.md#choices-where-the-api-is-silent pagination choice). */
export const MemberListQuerySchema = z.object({
  id: schoolId().optional(),
  email: schoolId().optional(),
  page: queryInt(1, 10_000).optional(),
  per_page: queryInt(1, MEMBERS_MAX_PER_PAGE).optional(),
});

/** Price of a member access (docs/school-api.md#members). */
export const AccessPriceSchema = z.object({
  id: z.string(),
  amount: z.int(),
  currency: z.string(),
  price_type: z.string(),
  recurring_interval: z.string().nullable(),
  recurring_interval_count: z.int().nullable(),
});

/**
 * Member access (docs/school-api.md#members). `member_id` is not in docs/school-api.md#members; a school that sends it (the emulator does)
 * lets `members accesses --member` filter the full list client-side.
 */
export const MemberAccessSchema = z.object({
  id: z.string(),
  member_id: z.string().optional(),
  offer_id: z.string(),
  price: AccessPriceSchema,
  is_active: z.boolean(),
  access_created_at: z.string(),
});
export type MemberAccess = z.output<typeof MemberAccessSchema>;

/** GET /members/accesses (docs/school-api.md#members). */
export const MemberAccessListSchema = z.object({ accesses: z.array(MemberAccessSchema) });

/** GET /members/accesses query (choice, see header). */
export const MemberAccessQuerySchema = z.object({
  member_id: schoolId().optional(),
  email: schoolId().optional(),
});

/** Exactly how a member is picked: by id (takes precedence) or by email. */
const memberSelector = {
  member_id: schoolId().optional(),
  email: schoolId().optional(),
};

/**
 * POST /members/set_suspend and /members/set_ban body (docs/school-api.md#choices-where-the-api-is-silent choice). One of member_id or
 * email is required; a missing selector is reported at `/member_id` with keyword `required`.
 */
export const MemberFlagBodySchema = z
  .strictObject({ ...memberSelector, value: z.boolean() })
  .superRefine((v, ctx) => {
    if (v.member_id === undefined && v.email === undefined) {
      ctx.addIssue({ code: 'custom', path: ['member_id'], message: 'member_id or email is required', params: { keyword: 'required' } });
    }
  });
export type MemberFlagBody = z.input<typeof MemberFlagBodySchema>;
