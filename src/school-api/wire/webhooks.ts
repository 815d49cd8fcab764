/**
 * Wire schemas of webhooks (docs/school-api.md#webhooks Webhook, docs/school-api.md#webhooks POST /webhooks, docs/school-api.md#webhooks GET /webhooks,
 * docs/school-api.md#webhooks events and their filters). The per-event filter schemas are exported so `webhooks.yaml`
 * reuses exactly the rules the server applies.
 *
 * Choices where the API is silent: `event_type` and `webhook_url` are required;
 * `provider` and `extra_parameters` are optional; every filter is optional and an unknown
 * filter for an event is rejected (keyword additionalProperties). `author_types` accepts one
 * value or a list. The https / public-address rule on `webhook_url` is not a schema check: it
 * depends on the emulator's `--allow-insecure-webhooks`.
 */
import { z } from 'zod';
import { schoolId } from '../school-rules.js';

export const EVENT_TYPE_VALUES = [
  'element_completed',
  'element_pending',
  'member_joining_offer',
  'new_payment',
  'member_inactivity',
  'gamification_level_passed',
  'conversation_message_received',
] as const;
export const EventTypeSchema = z.enum(EVENT_TYPE_VALUES);
export type EventType = z.output<typeof EventTypeSchema>;

/** docs/school-api.md#webhooks element_completed step types. */
export const COMPLETED_STEP_TYPES = [
  'basic', 'input_text', 'textarea', 'link', 'quiz', 'post', 'topic', 'milestone', 'file_upload', 'form',
] as const;
/** docs/school-api.md#webhooks element_pending step types (answers that need correction). */
export const PENDING_STEP_TYPES = ['input_text', 'textarea', 'post', 'topic', 'milestone', 'file_upload'] as const;
export const AUTHOR_TYPE_VALUES = ['members', 'users'] as const;

/** Filters of each event type (docs/school-api.md#webhooks), as strict objects. Empty lists mean "all". */
export const WebhookFilterSchemas = {
  element_completed: z.strictObject({ step_type: z.array(z.enum(COMPLETED_STEP_TYPES)).optional() }),
  element_pending: z.strictObject({ step_type: z.array(z.enum(PENDING_STEP_TYPES)).optional() }),
  member_joining_offer: z.strictObject({
    offerFilter: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
  }),
  new_payment: z.strictObject({}),
  member_inactivity: z.strictObject({}),
  gamification_level_passed: z.strictObject({ activeLevels: z.array(z.int().min(0)).optional() }),
  conversation_message_received: z.strictObject({
    user_ids: z.array(z.string().min(1)).optional(),
    author_types: z.union([z.enum(AUTHOR_TYPE_VALUES), z.array(z.enum(AUTHOR_TYPE_VALUES))]).optional(),
  }),
} as const satisfies Record<EventType, z.ZodType>;

/** The filters of one event type, typed. */
export type WebhookFilters<E extends EventType = EventType> = z.output<(typeof WebhookFilterSchemas)[E]>;

/**
 * POST /webhooks body (docs/school-api.md#webhooks). `extra_parameters` is validated against the filters of the
 * chosen `event_type`; its issues keep their path under `/extra_parameters/…`.
 */
export const WebhookCreateBodySchema = z
  .strictObject({
    webhook_url: z.url(),
    event_type: EventTypeSchema,
    provider: schoolId().optional(),
    extra_parameters: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((v, ctx) => {
    const filters = WebhookFilterSchemas[v.event_type].safeParse(v.extra_parameters ?? {});
    if (filters.success) return;
    for (const issue of filters.error.issues) {
      ctx.addIssue({ ...issue, path: ['extra_parameters', ...issue.path] } as Parameters<typeof ctx.addIssue>[0]);
    }
  });
export type WebhookCreateBody = z.input<typeof WebhookCreateBodySchema>;

/** Webhook (docs/school-api.md#webhooks). event_type is a plain string here: tolerant of event types added later. */
export const WebhookSchema = z.object({
  id: z.string(),
  webhook_url: z.string(),
  event_type: z.string(),
  provider: z.string(),
  extra_parameters: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Webhook = z.output<typeof WebhookSchema>;

/** GET /webhooks (docs/school-api.md#webhooks): a JSON array. */
export const WebhookListSchema = z.array(WebhookSchema);
