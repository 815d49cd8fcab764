/**
 * webhooks.yaml × the school's webhooks → a plan (PURE). A desired webhook whose identity the
 * school lacks is a `create`; one it has is `unchanged`; a school webhook the file does not
 * list is `extra`: reported, never acted on, because the API has no delete or update endpoint.
 */
import type { Webhook, WebhookCreateBody } from '../school-api/wire/webhooks.js';
import type { DesiredWebhook } from './check-webhooks-file.js';
import { webhookIdentity } from './identity.js';

export const WEBHOOKS_PLAN_FORMAT_VERSION = 1;

export const EXTRA_HINT =
  "the API has no delete or update endpoint for webhooks: remove it in the school's admin UI, or add it to webhooks.yaml to keep it";

interface WebhookFields {
  webhook_url: string;
  event_type: string;
  /** Null when the file does not name one (the school then uses its default). */
  provider: string | null;
  extra_parameters: Record<string, unknown>;
}

export type WebhookChange =
  | (WebhookFields & { action: 'create'; webhook_id: null; line: number; request: WebhookCreateBody })
  | (WebhookFields & { action: 'unchanged'; webhook_id: string; line: number; note: string | null })
  | (WebhookFields & { action: 'extra'; webhook_id: string; line: null; note: string });

export interface WebhooksPlan {
  format_version: number;
  /** Where the desired webhooks come from (repo-relative). */
  file: string;
  summary: { create: number; unchanged: number; extra: number };
  /** The file's webhooks in file order, then the extra ones by id. */
  changes: WebhookChange[];
}

/** Compare the desired webhooks with the school's list. */
export function diffWebhooks(desired: readonly DesiredWebhook[], live: readonly Webhook[], file = 'webhooks.yaml'): WebhooksPlan {
  const pool = new Map<string, Webhook[]>();
  for (const w of [...live].sort((a, b) => a.id.localeCompare(b.id))) {
    const key = webhookIdentity(w);
    pool.set(key, [...(pool.get(key) ?? []), w]);
  }
  const changes: WebhookChange[] = [];
  for (const d of desired) {
    const fields: WebhookFields = {
      webhook_url: d.webhook.webhook_url,
      event_type: d.webhook.event_type,
      provider: d.webhook.provider ?? null,
      extra_parameters: d.webhook.extra_parameters ?? {},
    };
    const match = pool.get(d.identity)?.shift();
    if (match) {
      const note =
        fields.provider !== null && fields.provider !== match.provider
          ? `provider is "${match.provider}" in the school and "${fields.provider}" in the file; the API cannot update a webhook, so this stays as it is`
          : null;
      changes.push({ ...fields, action: 'unchanged', webhook_id: match.id, line: d.line, note });
    } else {
      const request: WebhookCreateBody = { webhook_url: fields.webhook_url, event_type: d.webhook.event_type };
      if (fields.provider !== null) request.provider = fields.provider;
      if (d.webhook.extra_parameters !== undefined) request.extra_parameters = d.webhook.extra_parameters;
      changes.push({ ...fields, action: 'create', webhook_id: null, line: d.line, request });
    }
  }
  const extras = [...pool.values()].flat().sort((a, b) => a.id.localeCompare(b.id));
  for (const w of extras) {
    changes.push({
      action: 'extra', webhook_id: w.id, line: null, note: EXTRA_HINT,
      webhook_url: w.webhook_url, event_type: w.event_type, provider: w.provider, extra_parameters: w.extra_parameters,
    });
  }
  const count = (a: WebhookChange['action']) => changes.filter((c) => c.action === a).length;
  return {
    format_version: WEBHOOKS_PLAN_FORMAT_VERSION,
    file,
    summary: { create: count('create'), unchanged: count('unchanged'), extra: count('extra') },
    changes,
  };
}

/**
 * Does apply have anything to do? Extra webhooks do not count: apply cannot act on them
 * (for `--detailed-exitcode`, exit 2 means "apply would change the school").
 */
export function webhooksPlanHasChanges(plan: WebhooksPlan): boolean {
  return plan.summary.create > 0;
}
