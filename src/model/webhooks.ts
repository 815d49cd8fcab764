/**
 * webhooks.yaml: the school's webhooks as code (a list at the repo root). The per-event filter
 * rules are the school's own wire schemas (src/school-api/wire/webhooks.ts), reused here so a rule
 * lives in one place; this file adds what the school checks on the URL (https, no private
 * literal host, as src/emulator/addresses.ts decides for the emulator). Source of
 * schema/webhooks.schema.json.
 */
import { z } from 'zod';
import { isPrivateLiteralHost } from '../school-api/addresses.js';
import { EVENT_TYPE_VALUES, WebhookFilterSchemas, type EventType } from '../school-api/wire/webhooks.js';
import { schoolId } from '../school-api/school-rules.js';

/** An https URL whose host is not a loopback or private address literal. */
export const WebhookUrlSchema = z
  .url({ protocol: /^https$/, error: 'must be an https:// URL (the school only delivers to public https endpoints)' })
  // Only judged once the URL is https (one message per problem).
  .refine((u) => !u.startsWith('https:') || !isPrivateLiteralHost(new URL(u).hostname), {
    message: 'must not point to a loopback or private address: the school delivers only to publicly reachable hosts',
  })
  .describe('A publicly reachable https:// endpoint that receives the events by POST.');

function entry<E extends EventType>(event: E) {
  return z.strictObject({
    webhook_url: WebhookUrlSchema,
    event_type: z.literal(event),
    provider: schoolId().describe('Free text naming the receiver; the school uses "api" when omitted.').optional(),
    extra_parameters: WebhookFilterSchemas[event].describe(`Filters of ${event} (docs/school-api.md#webhooks); empty lists mean all.`).optional(),
  });
}

/** One webhook of webhooks.yaml: the fields of POST /webhooks, filters checked per event type. */
export const WebhookEntrySchema = z.discriminatedUnion(
  'event_type',
  [
    entry('element_completed'),
    entry('element_pending'),
    entry('member_joining_offer'),
    entry('new_payment'),
    entry('member_inactivity'),
    entry('gamification_level_passed'),
    entry('conversation_message_received'),
  ],
  {
    error: (iss) => (iss.code === 'invalid_union' ? `must be one of ${EVENT_TYPE_VALUES.join(', ')}` : undefined),
  },
);
export type WebhookEntry = z.output<typeof WebhookEntrySchema>;

/** webhooks.yaml: a list of webhooks. An empty file means "no webhooks". */
export const WebhooksFileSchema = z
  .array(WebhookEntrySchema)
  .describe('webhooks.yaml: the webhooks the school should have. Identity is url + event_type + filters.');

/** The exact text of schema/webhooks.schema.json (same form as renderSchemas in schemas.ts). */
export function renderWebhooksSchema(): { file: string; text: string } {
  const file = 'webhooks.schema.json';
  const json = z.toJSONSchema(WebhooksFileSchema, { io: 'input', target: 'draft-7' });
  return { file, text: JSON.stringify({ $id: `https://coursesync.dev/schema/${file}`, ...json }, null, 2) + '\n' };
}
