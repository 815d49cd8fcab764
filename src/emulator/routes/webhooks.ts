/**
 * POST /webhooks and GET /webhooks (docs/school-api.md#webhooks). Validation is the shared wire schema
 * (event_type required and one of the seven, filters per event). The URL must be https and its
 * literal host public (no DNS lookup at registration), unless --allow-insecure-webhooks; else
 * 422 `Invalid arguments: /webhook_url format`. `provider` defaults to `api`.
 */
import { WebhookCreateBodySchema, type Webhook } from '../../school-api/wire/webhooks.js';
import { isPrivateLiteralHost } from '../../school-api/addresses.js';
import { ok, route, type Route, type RouteContext, type RouteResult } from '../context.js';
import { invalidArgument, validate } from '../errors.js';
import { newId, type WebhookRecord } from '../store.js';

function createWebhook(ctx: RouteContext): RouteResult {
  const body = validate(WebhookCreateBodySchema, ctx.body.value);
  const url = new URL(body.webhook_url);
  const insecure = ctx.settings.allowInsecureWebhooks;
  const schemeOk = url.protocol === 'https:' || (insecure && url.protocol === 'http:');
  if (!schemeOk || (!insecure && isPrivateLiteralHost(url.hostname))) throw invalidArgument('/webhook_url', 'format');
  const at = new Date(ctx.now()).toISOString();
  const hook: WebhookRecord = {
    id: newId(ctx.store, 'whk', ctx.store.webhooks),
    webhook_url: body.webhook_url,
    event_type: body.event_type,
    provider: body.provider ?? 'api',
    extra_parameters: body.extra_parameters ?? {},
    created_at: at,
    updated_at: at,
  };
  ctx.store.webhooks.set(hook.id, hook);
  return ok(webhookResponse(hook));
}

function webhookResponse(h: WebhookRecord): Webhook {
  return { ...h, extra_parameters: structuredClone(h.extra_parameters) };
}

function listWebhooks(ctx: RouteContext): RouteResult {
  return ok([...ctx.store.webhooks.values()].map(webhookResponse));
}

export const webhookRoutes: Route[] = [route('POST', '/webhooks', createWebhook), route('GET', '/webhooks', listWebhooks)];
