/**
 * webhooks.yaml text → desired webhooks (PURE), with every problem as a diagnostic at its
 * line:column. YAML is parsed by the course reader's strict parser and checked with the same
 * issue-to-diagnostic logic as coursesync.yaml, so messages and did-you-mean hints match.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { checkSchema } from '../compile/check-schema.js';
import { CODES } from '../compile/codes.js';
import { parseYaml } from '../compile/parse-yaml.js';
import { suggest } from '../compile/suggest.js';
import { WebhooksFileSchema, type WebhookEntry } from '../model/webhooks.js';
import { EVENT_TYPE_VALUES, WebhookFilterSchemas, type EventType } from '../school/wire/webhooks.js';
import { webhookIdentity } from './identity.js';

export const WEBHOOKS_FILE = 'webhooks.yaml';
const SCHEMA_HINT = 'see schema/webhooks.schema.json and docs/school-api.md#webhooks (README, "Webhooks as code")';

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
    out.push({
      file, line: yaml.start.line, column: yaml.start.column, code: 'webhooks/not-a-list', severity: 'error',
      message: 'webhooks.yaml must be a list of webhooks, not a mapping or a value',
      hint: 'write one `- webhook_url: https://…` item per webhook, each with event_type (and optionally provider and extra_parameters)',
    });
    return { diagnostics: out };
  }
  const schemaOut: Diagnostic[] = [];
  // The catalogue is keyed by file kind; check as `config` and rename the codes to webhooks/.
  const entries = checkSchema(WebhooksFileSchema, value, yaml, file, 'config', schemaOut);
  out.push(...schemaOut.map((d) => asWebhooksDiagnostic(d, value)));
  if (!entries) return { diagnostics: out };

  const webhooks: DesiredWebhook[] = [];
  const seen = new Map<string, DesiredWebhook>();
  entries.forEach((webhook, index) => {
    const line = yaml.placeOf([index])?.line ?? 1;
    const column = yaml.placeOf([index])?.column ?? 1;
    const desired: DesiredWebhook = { index, line, webhook, identity: webhookIdentity(webhook) };
    const first = seen.get(desired.identity);
    if (first) {
      out.push({
        file, line, column, code: 'webhooks/duplicate', severity: 'error',
        message: `this webhook is the same as the one at line ${first.line} (same url, event_type and filters)`,
        hint: 'remove one of them: the school would deliver each event twice',
      });
      return;
    }
    seen.set(desired.identity, desired);
    webhooks.push(desired);
  });
  return out.length > 0 ? { diagnostics: out } : { webhooks, diagnostics: out };
}

const ENTRY_KEYS = ['webhook_url', 'event_type', 'provider', 'extra_parameters'];

/**
 * Adapt a diagnostic of checkSchema to webhooks.yaml: `webhooks/` codes, the list index shown
 * as "webhook N" (1-based), and the hints the discriminated union hides from checkSchema
 * (allowed keys and did-you-mean for event types and filters).
 */
function asWebhooksDiagnostic(d: Diagnostic, value: unknown[]): Diagnostic {
  const code = d.code.replace(/^config\//, 'webhooks/');
  const catalogueHint = (CODES as Record<string, { hint: string }>)[d.code]?.hint;
  let hint = d.hint === undefined || d.hint === catalogueHint ? SCHEMA_HINT : d.hint;
  let message = d.message.replace(/ is invalid: must /, ' must ');
  const where = /"(\d+)(?:\.([^"]*))?"/.exec(message);
  if (where) {
    const n = Number(where[1]);
    const field = where[2];
    const entry = value[n] as Record<string, unknown> | undefined;
    const event = typeof entry?.event_type === 'string' && (EVENT_TYPE_VALUES as readonly string[]).includes(entry.event_type) ? (entry.event_type as EventType) : undefined;
    message = message.replace(where[0], field ? `"${field}" of webhook ${n + 1}` : `webhook ${n + 1}`).replace(/^(unknown key "[^"]*") in webhook (\d+)$/, '$1 in webhook $2');
    const unknownKey = /^unknown key "([^"]*)"/.exec(message)?.[1];
    if (unknownKey !== undefined) {
      const known = field === 'extra_parameters' ? (event ? Object.keys(WebhookFilterSchemas[event].shape) : []) : ENTRY_KEYS;
      const guess = suggest(unknownKey, known);
      hint = guess
        ? `did you mean "${guess}"?`
        : known.length > 0
          ? `allowed keys: ${known.join(', ')}`
          : `${event ?? 'this event type'} has no filters (docs/school-api.md#webhooks): remove extra_parameters`;
    } else if (field === 'event_type') {
      const guess = typeof entry?.event_type === 'string' ? suggest(entry.event_type, [...EVENT_TYPE_VALUES]) : undefined;
      message = entry?.event_type === undefined ? `missing required field "event_type" of webhook ${n + 1}` : `${message}, not ${JSON.stringify(entry.event_type)}`;
      if (entry?.event_type === undefined) hint = `add \`event_type:\` with one of ${EVENT_TYPE_VALUES.join(", ")}`;
      if (guess) hint = `did you mean "${guess}"?`;
    }
  }
  return { ...d, code, hint, message };
}
