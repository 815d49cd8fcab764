/** The webhooks plan as text (terminal), Markdown (pull-request comment) and JSON (PURE). */
import pc from 'picocolors';
import type { WebhookChange, WebhooksPlan } from './diff-webhooks.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `Webhooks plan: 1 to create, 2 unchanged, 1 extra (not in webhooks.yaml).` or `No changes. …` */
export function webhooksSummaryLine(plan: WebhooksPlan): string {
  const { create, unchanged, extra } = plan.summary;
  const extraPart = extra > 0 ? `, ${extra} extra (in the school, not in ${plan.file})` : '';
  if (create === 0) return `No changes. ${plural(unchanged, 'webhook')} unchanged${extraPart}.`;
  return `Webhooks plan: ${create} to create, ${unchanged} unchanged${extraPart}.`;
}

function filtersOf(c: WebhookChange): string {
  return Object.keys(c.extra_parameters).length === 0 ? 'no filters' : JSON.stringify(c.extra_parameters);
}

/** Render for a terminal; `color` adds ANSI colours. */
export function renderWebhooksText(plan: WebhooksPlan, options: { color: boolean }): string {
  const c = pc.createColors(options.color);
  const out: string[] = [];
  const creates = plan.changes.filter((x) => x.action === 'create');
  const extras = plan.changes.filter((x) => x.action === 'extra');
  const notes = plan.changes.flatMap((x) => (x.action === 'unchanged' && x.note !== null ? [{ ...x, note: x.note }] : []));
  if (creates.length > 0) {
    out.push('coursesync will create these webhooks:', '');
    for (const x of creates) {
      out.push(`  ${c.green('+')} ${c.bold(`${plan.file}:${x.line}`)} ${x.event_type} → ${x.webhook_url}`);
      if (x.provider !== null) out.push(`      provider = ${JSON.stringify(x.provider)}`);
      out.push(`      extra_parameters = ${filtersOf(x)}`, '');
    }
  }
  for (const x of notes) out.push(`  ${c.yellow('~')} ${plan.file}:${x.line} ${x.webhook_id}: ${x.note}`, '');
  if (extras.length > 0) {
    out.push(`Webhooks in the school that ${plan.file} does not list (extra):`, '');
    for (const x of extras) {
      out.push(`  ${c.magenta('!')} ${c.bold(x.webhook_id ?? '')} ${x.event_type} → ${x.webhook_url} (${filtersOf(x)})`);
    }
    out.push('', `  ${c.dim(extras[0]!.note ?? '')}`, '');
  }
  out.push(c.bold(webhooksSummaryLine(plan)));
  return out.join('\n') + '\n';
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Render for a pull-request comment. */
export function renderWebhooksMarkdown(plan: WebhooksPlan): string {
  const out = ['### coursesync webhooks plan', '', `**${webhooksSummaryLine(plan)}**`, ''];
  if (plan.changes.length > 0) {
    out.push('| | where | event | url | filters |', '|---|---|---|---|---|');
    const symbol = { create: '➕ create', unchanged: '✔ unchanged', extra: '⚠ extra' } as const;
    for (const x of plan.changes) {
      const where = x.line === null ? `school \`${x.webhook_id}\`` : `\`${plan.file}:${x.line}\``;
      out.push(`| ${symbol[x.action]} | ${where} | \`${x.event_type}\` | ${cell(x.webhook_url)} | \`${cell(filtersOf(x))}\` |`);
    }
    out.push('');
  }
  if (plan.summary.extra > 0) out.push(`> Extra webhooks are not removed: ${plan.changes.find((x) => x.action === 'extra')?.note ?? ''}.`, '');
  return out.join('\n');
}

/** Stable JSON (versioned by `format_version`). */
export function renderWebhooksJson(plan: WebhooksPlan): string {
  return JSON.stringify(plan, null, 2) + '\n';
}
