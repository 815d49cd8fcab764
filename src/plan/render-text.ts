/** The plan for people on a terminal (PURE): Terraform-like symbols, field changes, body diffs. */
import pc from 'picocolors';
import { formatDiagnostic } from '../diagnostics/diagnostic.js';
import type { Plan, PlanChange } from './plan-schema.js';
import { LONG_FIELDS, SYMBOL, diffLinesOf, headline, showValue, summaryLine } from './describe-change.js';
import { impactTextLines } from './render-impact.js';

export interface RenderTextOptions {
  /** ANSI colours (the CLI decides from TTY and NO_COLOR). */
  color: boolean;
}

type Colors = ReturnType<typeof pc.createColors>;

/** Render a plan as text, ending with its summary line and a newline. */
export function renderText(plan: Plan, options: RenderTextOptions): string {
  const c = pc.createColors(options.color);
  const tint: Record<PlanChange['action'], (s: string) => string> = {
    create: c.green,
    update: c.yellow,
    move: c.cyan,
    unpublish: c.red,
    orphan: c.magenta,
    uncertain: c.magenta,
    drift: c.magenta,
  };
  const out: string[] = [];
  if (plan.changes.length > 0) {
    const calls = plan.changes.some((c) => c.action === 'create' || c.action === 'update' || c.action === 'move' || c.action === 'unpublish');
    out.push(calls ? 'coursesync will perform these actions:' : 'coursesync will make no call; to note:', '');
    for (const change of plan.changes) out.push(...renderChange(change, tint[change.action], c), '');
  }
  for (const r of plan.renames) out.push(`  renamed: ${r.from} → ${r.to} (matched through aliases; state only)`);
  if (plan.renames.length > 0) out.push('');
  for (const w of plan.warnings ?? []) out.push(c.yellow(formatDiagnostic(w)));
  if (plan.warnings?.length) out.push('');
  const impact = impactTextLines(plan.impact, (level, s) => (level === 'error' ? c.red(s) : level === 'warning' ? c.yellow(s) : c.cyan(s)));
  if (impact.length > 0) out.push(...impact, '');
  out.push(c.bold(summaryLine(plan.summary)));
  return out.join('\n') + '\n';
}

function renderChange(change: PlanChange, tint: (s: string) => string, c: Colors): string[] {
  const lines = [`  ${tint(SYMBOL[change.action])} ${c.bold(change.path)} ${headline(change)}`];
  if (change.action === 'uncertain') lines.push(`      ${c.dim(`key ${change.key}: ${change.hint}`)}`);
  if ('why' in change && change.why) for (const why of change.why) lines.push(`      ${c.dim(`because: ${why}`)}`);
  for (const f of change.fields) {
    if (LONG_FIELDS.has(f.field)) {
      lines.push(`      ${f.field}:`);
      for (const d of diffLinesOf(f.before, f.after)) {
        const color = d.startsWith('+') ? c.green : d.startsWith('-') ? c.red : d.startsWith('@@') ? c.cyan : c.dim;
        lines.push(`        ${color(d)}`);
      }
    } else if (change.action === 'create') {
      lines.push(`      ${f.field} = ${showValue(f.after)}`);
    } else {
      lines.push(`      ${f.field}: ${showValue(f.before)} → ${showValue(f.after)}`);
    }
  }
  return lines;
}
