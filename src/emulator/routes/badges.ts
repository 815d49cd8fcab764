/**
 * POST /badges/award (docs/school-api.md#badges): badge by id (wins) or exact name, member by id (wins) or email
 * (case and surrounding spaces ignored). A repeat returns the existing award and sends no
 * further notification; each first award appends one entry to the notification log shown in
 * GET /__emulator/state.
 */
import { BadgeAwardBodySchema } from '../../school-api/wire/badges.js';
import { ok, route, type Route, type RouteContext, type RouteResult } from '../context.js';
import { notFound, validate } from '../errors.js';
import { newId } from '../store.js';
import { findMember } from './members.js';

function awardBadge(ctx: RouteContext): RouteResult {
  const body = validate(BadgeAwardBodySchema, ctx.body.value);
  const { store } = ctx;
  const badge =
    body.badge_id !== undefined ? store.badges.get(body.badge_id) : [...store.badges.values()].find((b) => b.name === body.badge_name);
  if (!badge) throw notFound();
  const member = findMember(store, body);
  const key = `${badge.id} ${member.id}`;
  const existing = store.awards.get(key);
  if (existing) return ok({ ...existing });
  const award = { id: newId(store, 'awd', new Map()), badge_id: badge.id, member_id: member.id, unlocked_at: new Date(ctx.now()).toISOString() };
  store.awards.set(key, award);
  store.notifications.push({ award_id: award.id, badge_id: badge.id, member_id: member.id, sent_at: award.unlocked_at });
  return ok({ ...award });
}

export const badgeRoutes: Route[] = [route('POST', '/badges/award', awardBadge)];
