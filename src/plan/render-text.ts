/**
 * The plan for people on a terminal (PURE): Terraform-like symbols, fields by their front-matter
 * key, the lesson file's Markdown diff (the HTML diff with `htmlDiff`), and the updates whose
 * HTML changes although their file did not, grouped by cause, one line each.
 */
import pc from 'picocolors';
import { escapeControl, formatDiagnostic } from '../diagnostics/diagnostic.js';
import type { Plan, PlanChange } from './plan-schema.js';
import { isCall } from './plan-steps.js';
import { SYMBOL, diffLinesOf, headline, orphanHint, summaryLine } from './describe-change.js';
import { changeDetail, type DetailOptions } from './change-detail.js';
import { heldBackNote, htmlOnlyCause, htmlOnlyGroups, htmlOnlyTitle } from './html-only.js';
import { impactTextLines } from './render-impact.js';
import { fieldLabel } from './source-diff.js';

export interface RenderTextOptions extends DetailOptions {
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
  const out: string[] = environmentLines(plan).map((l, i) => (i === 0 ? c.bold(l) : c.yellow(l)));
  if (plan.changes.length > 0) {
    out.push(plan.changes.some(isCall) ? 'coursesync will perform these actions:' : 'coursesync will make no call; to note:', '');
    for (const change of plan.changes) if (!htmlOnlyCause(change)) out.push(...renderChange(change, tint[change.action], c, options), '');
  }
  const groups = htmlOnlyGroups(plan);
  for (const group of groups) {
    out.push(c.bold(`${htmlOnlyTitle(group.cause, group.steps.length)}:`));
    for (const step of group.steps) {
      const why = group.cause === 'references' && step.why?.length ? `: ${step.why.join('; ')}` : '';
      out.push(`  ${tint.update(SYMBOL.update)} ${escapeControl(step.path)} (${step.lesson_id})${c.dim(escapeControl(why))}`);
      if (options.htmlDiff) for (const f of step.fields) out.push(`      ${fieldLabel(f.field)}:`, ...diffLinesOf(f.before, f.after).map((d) => `        ${tintDiff(d, c)}`));
    }
    out.push('');
  }
  // (Not once a selection was made: the plan then says what it held back.)
  if (groups.length > 0 && !heldBackNote(plan)) out.push(c.dim('(`--skip-html-only` applies the rest without them, `--html-only` applies only them)'), '');
  for (const r of plan.renames) out.push(`  renamed: ${escapeControl(r.from)} → ${escapeControl(r.to)} (${r.by === 'content' ? 'moved: matched by its unchanged content' : 'matched through aliases'}; state only)`);
  if (plan.renames.length > 0) out.push('');
  for (const w of plan.warnings ?? []) out.push(c.yellow(formatDiagnostic(w)));
  if (plan.warnings?.length) out.push('');
  const impact = impactTextLines(plan.impact, (level, s) => (level === 'error' ? c.red(s) : level === 'warning' ? c.yellow(s) : c.cyan(s)));
  if (impact.length > 0) out.push(...impact, '');
  out.push(c.bold(summaryLine(plan.summary)));
  return out.join('\n') + '\n';
}

/**
 * The environment and its school, first (docs/environments.md), and a promotion check that was
 * overridden, so nobody reads a plan without knowing where it goes.
 */
export function environmentLines(plan: Plan): string[] {
  if (plan.environment === undefined) return [];
  const lines = [`Environment ${plan.environment}: ${plan.base_url ?? '(no school address)'}`];
  const skipped = plan.promotion_skipped;
  if (skipped) {
    const n = skipped.lessons.length;
    lines.push(
      n === 0
        ? `Promotion check skipped (--skip-promotion-check): every lesson is as ${skipped.from} last applied it`
        : `Promotion check skipped (--skip-promotion-check): ${n} lesson${n === 1 ? ' was' : 's were'} not applied to ${skipped.from} first: ${skipped.lessons.map((l) => `${l.path} (${l.why})`).join('; ')}`,
    );
  }
  return [...lines, ''];
}

function tintDiff(d: string, c: Colors): string {
  const color = d.startsWith('+') ? c.green : d.startsWith('-') ? c.red : d.startsWith('@@') ? c.cyan : c.dim;
  return color(d);
}

function renderChange(change: PlanChange, tint: (s: string) => string, c: Colors, options: DetailOptions): string[] {
  const lines = [`  ${tint(SYMBOL[change.action])} ${c.bold(escapeControl(change.path))} ${escapeControl(headline(change))}`];
  if (change.action === 'uncertain') lines.push(`      ${c.dim(escapeControl(`key ${change.key}: ${change.hint}`))}`);
  if (change.action === 'orphan') lines.push(`      ${c.dim(escapeControl(`key ${change.key}: ${orphanHint(change.key)}`))}`);
  if ('why' in change && change.why) for (const why of change.why) lines.push(`      ${c.dim(`because: ${escapeControl(why)}`)}`);
  const detail = changeDetail(change, options);
  if (detail.preview) {
    lines.push(`      ${detail.preview.summary}`);
    for (const l of detail.preview.lines) lines.push(`      ${c.dim(`│ ${l}`)}`);
  }
  for (const f of detail.fields) lines.push(`      ${f.label}${f.change}`);
  for (const d of detail.diffs) {
    if (d.title !== null) lines.push(`      ${d.title}:`);
    // A file diff starts with its two `---`/`+++` header lines.
    d.lines.forEach((l, i) => lines.push(`${d.title === null ? '      ' : '        '}${d.title === null && i < 2 ? c.bold(l) : tintDiff(l, c)}`));
  }
  for (const n of detail.notes) lines.push(`      ${c.dim(n)}`);
  return lines;
}
