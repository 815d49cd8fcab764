/**
 * Wire schemas of badges (docs/school-api.md#badges Badge award, docs/school-api.md#badges POST /badges/award). The badge is named
 * by `badge_id` or `badge_name` and the member by `member_id` or `email`; ids take precedence.
 */
import { z } from 'zod';
import { schoolId } from '../school-rules.js';

/** Badge award (docs/school-api.md#badges). */
export const BadgeAwardSchema = z.object({
  id: z.string(),
  badge_id: z.string(),
  member_id: z.string(),
  unlocked_at: z.string(),
});
export type BadgeAward = z.output<typeof BadgeAwardSchema>;

/**
 * POST /badges/award body (docs/school-api.md#badges). A missing badge or member selector is reported at
 * `/badge_id` or `/member_id` with keyword `required`.
 */
export const BadgeAwardBodySchema = z
  .strictObject({
    badge_id: schoolId().optional(),
    badge_name: schoolId().optional(),
    member_id: schoolId().optional(),
    email: schoolId().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.badge_id === undefined && v.badge_name === undefined) {
      ctx.addIssue({ code: 'custom', path: ['badge_id'], message: 'badge_id or badge_name is required', params: { keyword: 'required' } });
    }
    if (v.member_id === undefined && v.email === undefined) {
      ctx.addIssue({ code: 'custom', path: ['member_id'], message: 'member_id or email is required', params: { keyword: 'required' } });
    }
  });
export type BadgeAwardBody = z.input<typeof BadgeAwardBodySchema>;
