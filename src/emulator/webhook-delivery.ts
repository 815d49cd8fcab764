/**
 * Delivery of school events to webhooks (docs/school-api.md#webhooks; POST /__emulator/events). Each matching
 * webhook gets one JSON POST: `{id, event_type, created_at, data}` where `data` is the payload
 * the caller gave. The receiver's host is resolved and a private address refused unless
 * `allowInsecureWebhooks`; every attempt (sent, refused or failed) is recorded. No signing and
 * no retries (the API shows neither).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../school-api/addresses.js';
import type { DeliveryRecord, Store, WebhookRecord } from './store.js';

/** What an event says about itself, for the filters of docs/school-api.md#webhooks. */
export interface EventContext {
  step_type?: string | undefined;
  offer_id?: string | undefined;
  level?: number | undefined;
  user_id?: string | undefined;
  author_type?: string | undefined;
}

const DELIVERY_TIMEOUT_MS = 5_000;

const asList = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
/** An empty or absent filter matches everything; otherwise the event's value must be listed. */
const passes = (filter: unknown, value: unknown): boolean => {
  const list = asList(filter);
  return list.length === 0 || list.includes(value);
};

/** Does this webhook want this event? (docs/school-api.md#webhooks filters, per event type.) */
export function matchesWebhook(hook: WebhookRecord, eventType: string, ctx: EventContext): boolean {
  if (hook.event_type !== eventType) return false;
  const f = hook.extra_parameters;
  switch (eventType) {
    case 'element_completed':
    case 'element_pending':
      return passes(f.step_type, ctx.step_type);
    case 'member_joining_offer':
      return passes(f.offerFilter, ctx.offer_id);
    case 'gamification_level_passed':
      return passes(f.activeLevels, ctx.level);
    case 'conversation_message_received':
      return passes(f.user_ids, ctx.user_id) && passes(f.author_types, ctx.author_type);
    default:
      return true;
  }
}

/** Resolves a host name to its addresses (injectable for tests). */
export type Resolve = (host: string) => Promise<string[]>;
const resolveWithDns: Resolve = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

/**
 * Why a delivery to `url` is refused (its host resolves to a private address), or null when it
 * may go. Every resolved address must be public: one private answer is enough to refuse.
 */
export async function refusedReason(url: URL, allowInsecure: boolean, resolve: Resolve = resolveWithDns): Promise<string | null> {
  if (allowInsecure) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : await resolve(host);
  const bad = addresses.find(isPrivateAddress);
  return bad === undefined ? null : `refused: ${url.hostname} resolves to the private address ${bad}`;
}

async function deliverOne(hook: WebhookRecord, body: Record<string, unknown>, allowInsecure: boolean): Promise<DeliveryRecord> {
  const record: DeliveryRecord = { webhook_id: hook.id, url: hook.webhook_url, event_type: hook.event_type, status: null, error: null, payload: body };
  try {
    const url = new URL(hook.webhook_url);
    const refused = await refusedReason(url, allowInsecure);
    if (refused) return { ...record, error: refused };
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'coursesync-emulator' },
      body: JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { ...record, status: res.status };
  } catch (e) {
    return { ...record, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Deliver an event to every matching webhook, in parallel; record and return the deliveries. */
export async function deliverEvent(
  store: Store,
  event: { event_type: string; payload: unknown; context: EventContext; now: number },
  allowInsecure: boolean,
): Promise<DeliveryRecord[]> {
  const hooks = [...store.webhooks.values()].filter((h) => matchesWebhook(h, event.event_type, event.context));
  const n = (store.counters.get('evt') ?? 0) + 1;
  store.counters.set('evt', n);
  const body = { id: `evt_${n}`, event_type: event.event_type, created_at: new Date(event.now).toISOString(), data: event.payload };
  const deliveries = await Promise.all(hooks.map((h) => deliverOne(h, body, allowInsecure)));
  store.deliveries.push(...deliveries);
  return deliveries;
}
