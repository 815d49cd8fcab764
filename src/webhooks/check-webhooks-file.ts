/**
 * webhooks.yaml text → desired webhooks (PURE), with every problem as a diagnostic at its
 * line:column. YAML is parsed by the course reader's strict parser and checked with the same
 * issue-to-diagnostic logic as coursesync.yaml, so messages and did-you-mean hints match.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { checkSchema, type SchemaWording } from '../compile/check-schema.js';
import { diag } from '../compile/codes.js';
import { parseYaml } from '../compile/parse-yaml.js';
import { suggest } from '../compile/suggest.js';
import { WebhooksFileSchema, type WebhookEntry } from '../model/webhooks.js';
import { EVENT_TYPE_VALUES, WebhookFilterSchemas, type EventType } from '../school-api/wire/webhooks.js';
import { webhookIdentity } from './identity.js';

export const WEBHOOKS_FILE = 'webhooks.yaml';

/** A webhook the file asks for, with where it is written. */
export interface DesiredWebhook {
  /** 0-based index in the list. */
  index: number;
  /** 1-based line of the entry in webhooks.yaml. */
  line: number;
  webhook: WebhookEntry;
  identity: string;
}

export interface CheckedWebhooks {
  /** Undefined when there was any error. */
  webhooks?: DesiredWebhook[];
  diagnostics: Diagnostic[];
}

/** Parse and check the text of webhooks.yaml (`file` names it in diagnostics). */
export function checkWebhooksFile(text: string, file = WEBHOOKS_FILE): CheckedWebhooks {
  const out: Diagnostic[] = [];
  const yaml = parseYaml(text, file, out);
  if (out.length > 0) return { diagnostics: out };
  const value = yaml.value ?? [];
  if (!Array.isArray(value)) {
    out.push(diag('webhooks/not-a-list', file, yaml.start, 'webhooks.yaml must be a list of webhooks, not a mapping or a value'));
    return { diagnostics: out };
  }
  const entries = checkSchema(WebhooksFileSchema, value, yaml, file, 'webhooks', out, webhooksWording(value));
  if (!entries) return { diagnostics: out };

  const webhooks: DesiredWebhook[] = [];
  const seen = new Map<string, DesiredWebhook>();
  entries.forEach((webhook, index) => {
    const line = yaml.placeOf([index])?.line ?? 1;
    const column = yaml.placeOf([index])?.column ?? 1;
    const desired: DesiredWebhook = { index, line, webhook, identity: webhookIdentity(webhook) };
    const first = seen.get(desired.identity);
    if (first) {
      out.push(diag('webhooks/duplicate', file, { line, column }, `this webhook is the same as the one at line ${first.line} (same url, event_type and filters)`));
      return;
    }
    seen.set(desired.identity, desired);
    webhooks.push(desired);
  });
  return out.length > 0 ? { diagnostics: out } : { webhooks, diagnostics: out };
}

const ENTRY_KEYS = ['webhook_url', 'event_type', 'provider', 'extra_parameters'];

/**
 * webhooks.yaml is a list: a path `[n, field…]` is named `"field…" of webhook n+1`. The hints
 * the discriminated union hides from checkSchema (allowed keys and did-you-mean for event types
 * and filters) are found from the entry's own event type.
 */
function webhooksWording(value: unknown[]): SchemaWording {
  const entryOf = (path: readonly PropertyKey[]) => {
    const entry = value[Number(path[0])] as Record<string, unknown> | undefined;
    const event = typeof entry?.event_type === 'string' && (EVENT_TYPE_VALUES as readonly string[]).includes(entry.event_type) ? (entry.event_type as EventType) : undefined;
    return { n: Number(path[0]) + 1, entry, event, field: path.slice(1).map(String).join('.') };
  };
  return {
    subject(path) {
      const { n, field } = entryOf(path);
      return field ? `"${field}" of webhook ${n}` : `webhook ${n}`;
    },
    refine(problem) {
      const { n, entry, event, field } = entryOf(problem.path);
      if (problem.kind === 'unknown-key') {
        const known = field === 'extra_parameters' ? (event ? Object.keys(WebhookFilterSchemas[event].shape) : []) : ENTRY_KEYS;
        const guess = suggest(problem.key!, known);
        return {
          hint: guess
            ? `did you mean "${guess}"?`
            : known.length > 0
              ? `allowed keys: ${known.join(', ')}`
              : `${event ?? 'this event type'} has no filters (docs/school-api.md#webhooks): remove extra_parameters`,
        };
      }
      if (problem.kind === 'invalid-field' && field === 'event_type') {
        if (entry?.event_type === undefined) return { message: `missing required field "event_type" of webhook ${n}`, hint: `add \`event_type:\` with one of ${EVENT_TYPE_VALUES.join(', ')}` };
        const guess = typeof entry.event_type === 'string' ? suggest(entry.event_type, [...EVENT_TYPE_VALUES]) : undefined;
        return { message: `${problem.message}, not ${JSON.stringify(entry.event_type)}`, ...(guess ? { hint: `did you mean "${guess}"?` } : {}) };
      }
      return undefined;
    },
  };
}
