/**
 * The plan as one pull-request comment (PURE): a header naming the course folder and the
 * school, the summary line, the repo's warnings, then one folded <details> block per action
 * with each change's fields, the lesson file's Markdown diff (or a new file's first lines), and
 * the HTML-only updates grouped by cause, one line each. GitHub limits a comment to 65,536
 * characters: when the full plan is longer, diffs are dropped first, then changes, and the
 * comment says so plainly. A failed plan is a comment too (renderFailureMarkdown), so the
 * previous plan never stays up looking current.
 */
import { escapeControl } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { placeOf, sortDiagnostics } from '../diagnostics/diagnostic.js';
import type { Plan, PlanChange } from './plan-schema.js';
import { ACTIONS } from './plan-steps.js';
import { SYMBOL, diffLinesOf, headline, orphanHint, summaryLine } from './describe-change.js';
import { changeDetail, type DetailOptions } from './change-detail.js';
import { heldBackNote, htmlOnlyCause, htmlOnlyGroups, htmlOnlyTitle } from './html-only.js';
import { impactMarkdown } from './render-impact.js';
import { fieldLabel } from './source-diff.js';

/** GitHub's comment limit, and the budget we aim under (room for a bot's own header). */
export const COMMENT_LIMIT = 65_536;
const DEFAULT_BUDGET = 60_000;

export interface RenderMarkdownOptions extends DetailOptions {
  /** Maximum characters; defaults to 60,000 (under GitHub's 65,536). */
  maxChars?: number;
  /** The course folder, named in the header (with the school's host from the plan's base URL). */
  folder?: string;
}

/** The school as a header names it: the base URL's host (never a path, query or credentials). */
export function schoolHost(baseUrl: string | null | undefined): string | null {
  if (!baseUrl) return null;
  try {
    return new URL(baseUrl).host || null;
  } catch {
    return null;
  }
}

/** `### coursesync plan for `intro-course` on school.example.com` */
function header(folder: string | undefined, baseUrl: string | null | undefined, environment?: string): string[] {
  if (folder === undefined) return [];
  const host = schoolHost(baseUrl);
  const where = `${environment === undefined ? '' : `environment **${esc(environment)}** `}${host ? `on ${esc(host)}` : '(no school base URL configured)'}`;
  return [`### coursesync plan for \`${folder.replace(/`/g, "'")}\` ${where}`, ''];
}

/** An overridden promotion check, in the comment reviewers read (docs/environments.md#promotion). */
function promotionSkipped(plan: Plan): string[] {
  const skipped = plan.promotion_skipped;
  if (!skipped) return [];
  const list = skipped.lessons.map((l) => `\`${l.path.replace(/`/g, "'")}\` (${esc(l.why)})`).join(', ');
  return [
    `> **⚠ Promotion check skipped** (\`--skip-promotion-check\`): ${skipped.lessons.length === 0 ? `every lesson is as ${esc(skipped.from)} last applied it` : `not applied to ${esc(skipped.from)} first: ${list}`}`,
    '',
  ];
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
  return escapeControl(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/([\\`*[\]|])/g, '\\$1');
}

/** A code fence longer than any backtick run in the content. */
function fence(lines: string[], lang: string): string[] {
  const longest = Math.max(2, ...lines.map((l) => Math.max(0, ...(l.match(/`+/g) ?? []).map((m) => m.length))));
  const f = '`'.repeat(longest + 1);
  return [`${f}${lang}`, ...lines, f];
}

function renderChange(c: PlanChange, withBodies: boolean, options: DetailOptions): string[] {
  const out = [`- \`${SYMBOL[c.action]}\` **${esc(c.path)}** ${esc(headline(c))}`];
  if (c.action === 'uncertain') out.push(`  - ${esc(c.hint)}`);
  if (c.action === 'orphan') out.push(`  - ${esc(orphanHint(c.key))}`);
  if ('why' in c && c.why) for (const why of c.why) out.push(`  - because: ${esc(why)}`);
  const detail = changeDetail(c, options);
  if (detail.preview) out.push(`  - ${esc(detail.preview.summary)}`);
  for (const f of detail.fields) out.push(`  - \`${f.label}\`${esc(f.change)}`);
  for (const n of detail.notes) out.push(`  - ${esc(n)}`);
  const shown = detail.diffs.length + (detail.preview?.lines.length ? 1 : 0);
  if (!withBodies) {
    if (shown > 0) out.push(`  - ${detail.preview ? 'first lines' : 'diff'} left out to fit one comment`);
    return out;
  }
  if (detail.preview?.lines.length) out.push('', ...fence(detail.preview.lines, 'markdown').map((l) => `  ${l}`));
  const diffs = detail.diffs.flatMap((d) => (d.title === null ? d.lines : [`# ${d.title}`, ...d.lines]));
  if (diffs.length > 0) out.push('', ...fence(diffs, 'diff').map((l) => `  ${l}`));
  return out;
}

function render(plan: Plan, withBodies: boolean, perAction: number, options: RenderMarkdownOptions): { text: string; omitted: number } {
  const out = [...header(options.folder, plan.base_url, plan.environment), ...promotionSkipped(plan), `**${summaryLine(plan.summary)}**`, ''];
  for (const n of plan.notes ?? []) out.push(`> ${esc(n)}`, '');
  const warnings = plan.warnings ?? [];
  if (warnings.length > 0) {
    // Open, so a reviewer sees them without unfolding anything.
    out.push(`<details open><summary>⚠ ${warnings.length} warning${warnings.length === 1 ? '' : 's'}</summary>`, '');
    for (const w of warnings) out.push(diagnosticItem(w));
    out.push('', '</details>', '');
  }
  out.push(...impactMarkdown(plan.impact, esc));
  let omitted = 0;
  const cut = <T>(list: T[]): T[] => {
    if (list.length > perAction) omitted += list.length - perAction;
    return list.slice(0, perAction);
  };
  const more = (n: number) => (n > perAction ? [`- …and ${n - perAction} more not shown here`] : []);
  for (const action of ACTIONS) {
    const list = plan.changes.filter((c) => c.action === action && !htmlOnlyCause(c));
    if (list.length === 0) continue;
    out.push(`<details><summary>${esc(SYMBOL[action])} ${list.length} ${TITLES[action]}</summary>`, '');
    for (const c of cut(list)) out.push(...renderChange(c, withBodies, options));
    out.push(...more(list.length), '', '</details>', '');
  }
  for (const group of htmlOnlyGroups(plan)) {
    out.push(`<details><summary>${esc(SYMBOL.update)} ${esc(htmlOnlyTitle(group.cause, group.steps.length))}</summary>`, '');
    for (const step of cut(group.steps)) {
      const why = group.cause === 'references' && step.why?.length ? `: ${esc(step.why.join('; '))}` : '';
      out.push(`- **${esc(step.path)}** (${esc(step.lesson_id ?? '')})${why}`);
      if (withBodies && options.htmlDiff) {
        const lines = step.fields.flatMap((f) => [`# ${fieldLabel(f.field)}`, ...diffLinesOf(f.before, f.after)]);
        out.push('', ...fence(lines, 'diff').map((l) => `  ${l}`));
      }
    }
    out.push(...more(group.steps.length), '');
    if (!heldBackNote(plan)) out.push('Apply the rest without them with `coursesync apply --skip-html-only`, or only them with `--html-only`.', '');
    out.push('</details>', '');
  }
  return { text: out.join('\n'), omitted };
}

function diagnosticItem(d: Pick<Diagnostic, 'file' | 'line' | 'column' | 'message' | 'code' | 'hint'>): string {
  return `- ${esc(placeOf(d))}: ${esc(d.message)} [${esc(d.code)}]${d.hint ? ` (${esc(d.hint)})` : ''}`;
}

/** Render a plan as Markdown for a pull-request comment or GITHUB_STEP_SUMMARY. */
export function renderMarkdown(plan: Plan, options: RenderMarkdownOptions = {}): string {
  const budget = options.maxChars ?? DEFAULT_BUDGET;
  const notice = (what: string) =>
    `\n> This plan was shortened to fit one comment: ${what}. Run \`coursesync plan\` locally or save it with \`--out plan.json\` for the full plan.\n`;
  const full = render(plan, true, Infinity, options);
  if (full.text.length <= budget) return full.text;
  const noBodies = render(plan, false, Infinity, options);
  if (noBodies.text.length + 300 <= budget) return noBodies.text + notice('the file diffs are left out');
  // Halve the changes shown per action until it fits.
  let per = Math.max(1, Math.floor(plan.changes.length / 2));
  for (;;) {
    const r = render(plan, false, per, options);
    if (r.text.length + 300 <= budget || per === 1) {
      const text = r.text + notice(`diffs are left out and ${r.omitted} changes are not listed`);
      return text.length <= budget ? text : text.slice(0, budget - 200) + notice('the list was cut');
    }
    per = Math.max(1, Math.floor(per / 2));
  }
}

/** What a failed plan says in the comment it replaces: the error, its hint and the files' problems. */
export interface PlanFailure {
  /** The course folder, as in the plan's header. */
  folder: string;
  /** The school's base URL when known. */
  baseUrl: string | null;
  /** The environment planned for, in a repo with environments. */
  environment?: string | undefined;
  message: string;
  hint?: string;
  diagnostics: readonly Diagnostic[];
}

/** A failed plan as the pull-request comment (PURE). */
export function renderFailureMarkdown(f: PlanFailure): string {
  const out = [...header(f.folder, f.baseUrl, f.environment), `**✖ The plan failed:** ${esc(f.message)}`, ''];
  if (f.hint) out.push(`> ${esc(f.hint)}`, '');
  const sorted = sortDiagnostics([...f.diagnostics]);
  const errors = sorted.filter((d) => d.severity === 'error');
  const warnings = sorted.filter((d) => d.severity !== 'error');
  for (const [list, title] of [
    [errors, `✖ ${errors.length} error${errors.length === 1 ? '' : 's'}`],
    [warnings, `⚠ ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`],
  ] as const) {
    if (list.length === 0) continue;
    out.push(`<details open><summary>${title}</summary>`, '');
    for (const d of list.slice(0, 100)) out.push(diagnosticItem(d));
    if (list.length > 100) out.push(`- …and ${list.length - 100} more (run \`coursesync validate\` for all)`);
    out.push('', '</details>', '');
  }
  out.push('Nothing was planned: fix the above and push again.');
  return out.join('\n');
}
