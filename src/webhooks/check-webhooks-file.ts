/**
 * webhooks.yaml text → desired webhooks (PURE), with every problem as a diagnostic at its
 * line:column. YAML is parsed by the course reader's strict parser and checked with the same
 * issue-to-diagnostic logic as coursesync.yaml, so messages and did-you-mean hints match.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { checkSchema } from '../compile/check-schema.js';
import { CODES } from '../compile/codes.js';
import { parseYaml } from '../compile/parse-yaml.js';
import { WebhooksFileSchema, type WebhookEntry } from '../model/webhooks.js';
import { webhookIdentity } from './identity.js';

export const WEBHOOKS_FILE = 'webhooks.yaml';
const SCHEMA_HINT = 'see schema/webhooks.schema.json and API §6 (README, "Webhooks as code")';

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
  out.push(...schemaOut.map(asWebhooksDiagnostic));
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

function asWebhooksDiagnostic(d: Diagnostic): Diagnostic {
  const code = d.code.replace(/^config\//, 'webhooks/');
  const catalogueHint = (CODES as Record<string, { hint: string }>)[d.code]?.hint;
  const hint = d.hint === undefined || d.hint === catalogueHint ? SCHEMA_HINT : d.hint;
  return { ...d, code, hint, message: d.message.replace(/ is invalid: must /, ' must ') };
}
