/**
 * Inspection outside the API (docs/school-api.md#choices-where-the-api-is-silent), same bearer token: GET /__emulator/state (the whole
 * school, lessons in position order with their positions and internal steps), POST
 * /__emulator/reset (reload the seed, clear stats), POST /__emulator/events (fire a school event
 * to the matching webhooks and answer with the deliveries), DELETE /__emulator/lessons/{id}
 * (what a person does in the school's admin: the API itself cannot delete a lesson).
 */
import { z } from 'zod';
import { orderOf, removeFromSection } from '../school-api/positions.js';
import { EventTypeSchema } from '../school-api/wire/webhooks.js';
import { validate } from './errors.js';
import { lessonResponse } from './lesson-fields.js';
import { operationResponse, programRecord } from './operations.js';
import type { Store } from './store.js';
import { deliverEvent } from './webhook-delivery.js';

export interface EmulatorStats {
  requests: number;
  maxInFlight: number;
  byRoute: Record<string, number>;
}

/** Delete a lesson as the school's admin does (its section keeps the gap); false when there is none. */
export function deleteLesson(store: Store, id: string): boolean {
  const lesson = store.lessons.get(id);
  if (!lesson) return false;
  const section = store.sections.get(lesson.section_id);
  if (section) removeFromSection(section.slots, id);
  store.lessons.delete(id);
  return true;
}

/** The inspection view of the whole school. */
export function inspectState(store: Store, stats: EmulatorStats): unknown {
  const programs = [...store.programs.values()].map((p) => {
    const groupPos = new Map(p.section_groups.map((g) => [g.id, g.position]));
    const sections = p.section_ids
      .map((id) => store.sections.get(id)!)
      .sort((a, b) => (groupPos.get(a.section_group_id ?? '') ?? 0) - (groupPos.get(b.section_group_id ?? '') ?? 0) || a.position - b.position)
      .map((s) => ({
        id: s.id,
        name: s.name,
        section_group_id: s.section_group_id,
        position: s.position,
        lessons: orderOf(s.slots).map((id) => {
          const lesson = store.lessons.get(id)!;
          return { ...lessonResponse(lesson, s.slots.get(id)!), steps: lesson.steps.map((st) => ({ ...st })) };
        }),
      }));
    return { ...programRecord(p), member_ids: [...p.member_ids], sections };
  });
  return {
    programs,
    operations: [...store.operations.values()].map(operationResponse),
    webhooks: [...store.webhooks.values()],
    webhook_deliveries: store.deliveries,
    badge_awards: [...store.awards.values()],
    badge_notifications: store.notifications,
    members: [...store.members.values()].map((m) => ({ ...m })),
    offers: [...store.offers.values()],
    accesses: [...store.accesses.values()],
    custom_code: store.customCode,
    stats,
  };
}

const EventBodySchema = z.strictObject({
  event_type: EventTypeSchema,
  payload: z.unknown().optional(),
  step_type: z.string().optional(),
  offer_id: z.string().optional(),
  level: z.int().optional(),
  user_id: z.string().optional(),
  author_type: z.string().optional(),
});

/** POST /__emulator/events: validate, deliver, answer with the deliveries. */
export async function fireEvent(store: Store, body: unknown, now: number, allowInsecure: boolean): Promise<unknown> {
  const e = validate(EventBodySchema, body);
  const { event_type, payload, ...context } = e;
  const deliveries = await deliverEvent(store, { event_type, payload: payload ?? {}, context, now }, allowInsecure);
  return { deliveries };
}
