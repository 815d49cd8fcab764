/** The learner-impact part of a plan, for the terminal and for the pull-request comment (PURE). */
import { escapeControl } from '../diagnostics/diagnostic.js';
import type { Impact } from './plan-schema.js';
import { ackToken } from '../model/impact-rules.js';

/** Counts per level, e.g. "1 error (1 acknowledged), 2 warnings, 3 infos". */
export function impactCounts(impact: readonly Impact[]): string {
  const parts: string[] = [];
  for (const level of ['error', 'warning', 'info'] as const) {
    const list = impact.filter((i) => i.level === level);
    if (list.length === 0) continue;
    const acked = list.filter((i) => i.acknowledged).length;
    parts.push(`${list.length} ${level}${list.length === 1 ? '' : 's'}${level === 'error' && acked > 0 ? ` (${acked} acknowledged)` : ''}`);
  }
  return parts.join(', ');
}

/** Terminal lines: a heading, then one line per impact; `tint` colours a level's word. */
export function impactTextLines(impact: readonly Impact[], tint: (level: Impact['level'], s: string) => string): string[] {
  if (impact.length === 0) return [];
  const out = [`Learner impact: ${impactCounts(impact)}`];
  for (const i of impact) {
    // Paths and messages quote file and folder names: one line each, whatever they hold.
    out.push(`  ${tint(i.level, i.level.padEnd(7))} ${i.rule.padEnd(15)} ${escapeControl(i.path)}: ${escapeControl(i.message)}${i.acknowledged ? ' (acknowledged)' : i.accepts !== undefined && i.level === 'error' ? ` (to accept: acknowledge ${ackToken(i.rule, i.accepts)})` : ''}`);
  }
  return out;
}

/** At most this many impacts are listed in a comment; the rest are counted. */
const MAX_ROWS = 200;

/** A Markdown section of the comment: a table, errors first. `esc` escapes text for Markdown. */
export function impactMarkdown(impact: readonly Impact[], esc: (s: string) => string): string[] {
  if (impact.length === 0) return [];
  const icon = { error: '⛔ error', warning: '⚠️ warning', info: 'ℹ️ info' } as const;
  const out = [`### Learner impact: ${impactCounts(impact)}`, '', '| level | rule | lesson | what learners get |', '|---|---|---|---|'];
  for (const i of impact.slice(0, MAX_ROWS)) {
    out.push(`| ${icon[i.level]}${i.acknowledged ? ' (acknowledged)' : ''} | \`${i.rule}\` | ${esc(escapeControl(i.path))} | ${esc(escapeControl(i.message))} |`);
  }
  if (impact.length > MAX_ROWS) out.push('', `…and ${impact.length - MAX_ROWS} more (the JSON plan lists every one).`);
  const open = impact.filter((i) => i.level === 'error' && !i.acknowledged).length;
  if (open > 0) {
    out.push(
      '',
      `apply refuses ${open === 1 ? 'this error' : `these ${open} errors`} until each is acknowledged in the repo (\`acknowledge: [rule]\` in the lesson's front-matter, with the size it accepts for a sized rule, e.g. \`drip-grows=21\`, or an \`acknowledge:\` entry in coursesync.yaml) or run with \`--accept-impact\`.`,
    );
  }
  out.push('');
  return out;
}
