/**
 * The plan as one pull-request comment (PURE): the summary line first, then one folded
 * <details> block per action with each change's fields and ```diff fences for bodies. GitHub
 * limits a comment to 65,536 characters: when the full plan is longer, bodies are dropped
 * first, then changes, and the comment says so plainly.
 */
import { placeOf } from '../diagnostics/diagnostic.js';
import type { Plan, PlanChange } from './plan-schema.js';
import { ACTIONS } from './plan-schema.js';
import { LONG_FIELDS, SYMBOL, diffLinesOf, headline, showValue, summaryLine } from './describe-change.js';
import { impactMarkdown } from './render-impact.js';

/** GitHub's comment limit, and the budget we aim under (room for a bot's own header). */
export const COMMENT_LIMIT = 65_536;
const DEFAULT_BUDGET = 60_000;

export interface RenderMarkdownOptions {
  /** Maximum characters; defaults to 60,000 (under GitHub's 65,536). */
  maxChars?: number;
}

const TITLES: Record<PlanChange['action'], string> = {
  create: 'to create',
  update: 'to update',
  move: 'to move',
  unpublish: 'to unpublish',
  orphan: 'orphaned (removed from the repo, kept in the school)',
  drift: 'drifted (changed in the school)',
  uncertain: 'uncertain (interrupted creates to resolve)',
};

/** Escape text placed in Markdown/HTML so lesson names cannot inject markup. */
function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/([\\`*[\]|])/g, '\\$1');
}

/** A code fence longer than any backtick run in the content. */
function fence(lines: string[], lang: string): string[] {
  const longest = Math.max(2, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((m) => m.length))));
  const f = '`'.repeat(longest + 1);
  return [`${f}${lang}`, ...lines, f];
}

function renderChange(c: PlanChange, withBodies: boolean): string[] {
  const out = [`- \`${SYMBOL[c.action]}\` **${esc(c.path)}** ${esc(headline(c))}`];
  if (c.action === 'uncertain') out.push(`  - ${esc(c.hint)}`);
  if ('why' in c && c.why) for (const why of c.why) out.push(`  - because: ${esc(why)}`);
  const diffs: string[] = [];
  for (const f of c.fields) {
    if (LONG_FIELDS.has(f.field)) {
      if (withBodies) diffs.push(`# ${f.field}`, ...diffLinesOf(f.before, f.after));
      else out.push(`  - \`${f.field}\` changed (diff left out to fit one comment)`);
    } else if (c.action === 'create') {
      out.push(`  - \`${f.field}\` = ${esc(showValue(f.after))}`);
    } else {
      out.push(`  - \`${f.field}\`: ${esc(showValue(f.before))} → ${esc(showValue(f.after))}`);
    }
  }
  if (diffs.length > 0) out.push('', ...fence(diffs, 'diff').map((l) => `  ${l}`));
  return out;
}

function render(plan: Plan, withBodies: boolean, perAction: number): { text: string; omitted: number } {
  const out = [`**${summaryLine(plan.summary)}**`, ''];
  for (const n of plan.notes ?? []) out.push(`> ${esc(n)}`, '');
  const warnings = plan.warnings ?? [];
  if (warnings.length > 0) {
    // Open, so a reviewer sees them without unfolding anything.
    out.push(`<details open><summary>⚠ ${warnings.length} warning${warnings.length === 1 ? '' : 's'}</summary>`, '');
    for (const w of warnings) out.push(`- ${esc(placeOf(w))}: ${esc(w.message)} [${esc(w.code)}]${w.hint ? ` (${esc(w.hint)})` : ''}`);
    out.push('', '</details>', '');
  }
  out.push(...impactMarkdown(plan.impact, esc));
  let omitted = 0;
  for (const action of ACTIONS) {
    const list = plan.changes.filter((c) => c.action === action);
    if (list.length === 0) continue;
    out.push(`<details><summary>${esc(SYMBOL[action])} ${list.length} ${TITLES[action]}</summary>`, '');
    for (const c of list.slice(0, perAction)) out.push(...renderChange(c, withBodies));
    if (list.length > perAction) {
      omitted += list.length - perAction;
      out.push(`- …and ${list.length - perAction} more not shown here`);
    }
    out.push('', '</details>', '');
  }
  return { text: out.join('\n'), omitted };
}

/** Render a plan as Markdown for a pull-request comment or GITHUB_STEP_SUMMARY. */
export function renderMarkdown(plan: Plan, options: RenderMarkdownOptions = {}): string {
  const budget = options.maxChars ?? DEFAULT_BUDGET;
  const notice = (what: string) =>
    `\n> This plan was shortened to fit one comment: ${what}. Run \`coursesync plan\` locally or save it with \`--out plan.json\` for the full plan.\n`;
  const full = render(plan, true, Infinity);
  if (full.text.length <= budget) return full.text;
  const noBodies = render(plan, false, Infinity);
  if (noBodies.text.length + 300 <= budget) return noBodies.text + notice('body and description diffs are left out');
  // Halve the changes shown per action until it fits.
  let per = Math.max(1, Math.floor(plan.changes.length / 2));
  for (;;) {
    const r = render(plan, false, per);
    if (r.text.length + 300 <= budget || per === 1) {
      const text = r.text + notice(`diffs are left out and ${r.omitted} changes are not listed`);
      return text.length <= budget ? text : text.slice(0, budget - 200) + notice('the list was cut');
    }
    per = Math.max(1, Math.floor(per / 2));
  }
}
