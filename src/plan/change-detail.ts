/**
 * What a plan shows under one change (PURE), shared by the text and Markdown renderings: short
 * fields by their front-matter key, the lesson file's diff (or a new file's preview), and one
 * line saying why a Markdown diff is missing. With `htmlDiff`, bodies are diffed as HTML.
 */
import { escapeControl } from '../diagnostics/diagnostic.js';
import { LONG_FIELDS, diffLinesOf, showValue } from './describe-change.js';
import type { PlanChange } from './plan-schema.js';
import { isCall } from './plan-steps.js';
import { isFingerprint } from '../model/state/fingerprint.js';
import { createPreview, fieldLabel, longFieldSummary, sourceDiffLines, type PlanSources } from './source-diff.js';

export interface DetailOptions {
  /** The lesson files (as last applied and now) by call id; see src/sync/plan-sources.ts. */
  sources?: PlanSources;
  /** Diff body and description as the HTML sent (what plans showed before source diffs). */
  htmlDiff?: boolean;
}

export interface ChangeDetail {
  /** Short fields by front-matter key: `: "A" → "B"`, or ` = "A"` on a create with --html-diff. */
  fields: Array<{ label: string; change: string }>;
  /** A create: the new file, briefly. */
  preview?: { summary: string; lines: string[] };
  /** Unified diffs: of the lesson file (title null) or of one field's HTML (title: its label). */
  diffs: Array<{ title: string | null; lines: string[] }>;
  /** One-line notes: a long field shown without its diff, why there is no Markdown diff. */
  notes: string[];
}

/** Fields the author writes as-is (not rendered): their own diff is already the author's text. */
const VERBATIM = new Set(['embed_code', 'settings_embed_code']);

const CAUSE_TEXT = {
  renderer: 'the renderer changed',
  references: 'an image, file, lesson, include or variable it uses changed',
  settings: 'inherited settings changed',
} as const;

/** The detail lines of one change. */
export function changeDetail(c: PlanChange, options: DetailOptions = {}): ChangeDetail {
  return printable(detailOf(c, options));
}

/** A line of the author's text with its unsafe characters escaped; tabs (code) are kept. */
const line = (s: string) => s.split('\t').map(escapeControl).join('\t');

/** Every line of a detail with its unsafe characters escaped (file lines and HTML are the author's text). */
function printable(d: ChangeDetail): ChangeDetail {
  const out: ChangeDetail = {
    fields: d.fields.map((f) => ({ label: f.label, change: escapeControl(f.change) })),
    diffs: d.diffs.map((x) => ({ title: x.title, lines: x.lines.map(line) })),
    notes: d.notes.map(escapeControl),
  };
  if (d.preview) out.preview = { summary: escapeControl(d.preview.summary), lines: d.preview.lines.map(line) };
  return out;
}

function detailOf(c: PlanChange, options: DetailOptions): ChangeDetail {
  const src = isCall(c) ? options.sources?.get(c.call_id) : undefined;
  if (c.action === 'create' && !options.htmlDiff) {
    return { fields: [], preview: createPreview(c, src?.after ?? null), diffs: [], notes: [] };
  }
  const detail: ChangeDetail = { fields: [], diffs: [], notes: [] };
  const long = c.fields.filter((f) => LONG_FIELDS.has(f.field));
  for (const f of c.fields) {
    if (LONG_FIELDS.has(f.field)) continue;
    detail.fields.push({ label: fieldLabel(f.field), change: c.action === 'create' ? ` = ${showValue(f.after)}` : `: ${showValue(f.before)} → ${showValue(f.after)}` });
  }
  // The file's diff whenever it changed: what the author edited, also when only short fields follow from it.
  const fileDiff = src && src.before !== null && src.after !== null ? sourceDiffLines(c.path, src.before, src.after) : [];
  if (fileDiff.length > 0) detail.diffs.push({ title: null, lines: fileDiff });
  if (long.length === 0) return detail;
  if (options.htmlDiff) {
    for (const f of long) detail.diffs.push({ title: fieldLabel(f.field), lines: diffLinesOf(f.before, f.after) });
    return detail;
  }
  if (fileDiff.length > 0) return detail;
  for (const f of long) {
    if (VERBATIM.has(f.field) && !isFingerprint(f.before)) detail.diffs.push({ title: fieldLabel(f.field), lines: diffLinesOf(f.before, f.after) });
    else detail.notes.push(longFieldSummary(f));
  }
  if (!long.some((f) => !VERBATIM.has(f.field))) return detail;
  // Say why the HTML changed without a Markdown diff, in one line.
  const unchangedFile = src && src.before !== null && src.before === src.after;
  const why = unchangedFile
    ? `the lesson file did not change${isCall(c) && c.cause && c.cause !== 'file' ? `: ${CAUSE_TEXT[c.cause]}` : ''}`
    : src?.why
      ? `no Markdown diff: ${src.why}`
      : undefined;
  if (why) detail.notes.push(`${why} (--html-diff shows the HTML)`);
  return detail;
}
