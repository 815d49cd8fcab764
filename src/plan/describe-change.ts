/**
 * Shared pieces of the plan renderings (PURE): the summary line, how a value and a body diff
 * are shown, and which changes count as "changes" for --detailed-exitcode.
 */
import { quoted } from '../diagnostics/diagnostic.js';
import { isFingerprint } from '../model/state/fingerprint.js';
import { showPendingLinks } from '../model/lesson-links.js';
import { structuredPatch } from 'diff';
import type { FieldChange, Plan, PlanChange, PlanSummary } from './plan-schema.js';

/** Fields shown as unified line diffs rather than `before → after`. */
export const LONG_FIELDS = new Set(['body', 'description', 'settings_embed_code', 'embed_code']);

/** Terraform-like symbols per action. */
export const SYMBOL: Record<PlanChange['action'], string> = {
  create: '+',
  update: '~',
  move: '>',
  unpublish: '-',
  orphan: '?',
  uncertain: '?',
  drift: '!',
};

/**
 * Whether a plan has changes for `--detailed-exitcode`: any call to make, an uncertain create
 * to resolve, or drift found by --refresh (as Terraform's refresh reports drift). Orphans are
 * reported but are not changes: with `removed_lessons: keep` an orphan stays forever and must
 * not keep CI at exit 2.
 */
export function hasChanges(plan: Plan): boolean {
  const s = plan.summary;
  return s.create + s.update + s.move + s.unpublish + s.uncertain + s.drift > 0;
}

/** The two ways to settle an orphan (a lesson removed from the repo, kept in the school). */
export function orphanHint(key: string): string {
  return `\`coursesync state rm ${key}\` stops tracking it (the school keeps it); to unpublish removed lessons instead, set \`removed_lessons: unpublish\` in coursesync.yaml`;
}

/** `Plan: 3 to create, 2 to move, 4 to update, 1 orphaned, 40 unchanged.` or `No changes. …` */
export function summaryLine(summary: PlanSummary): string {
  const notes: string[] = [];
  if (summary.orphan) notes.push(`${summary.orphan} orphaned`);
  if (summary.drift) notes.push(`${summary.drift} drifted`);
  if (summary.uncertain) notes.push(`${summary.uncertain} uncertain`);
  const parts: string[] = [];
  if (summary.create) parts.push(`${summary.create} to create`);
  if (summary.move) parts.push(`${summary.move} to move`);
  if (summary.update) parts.push(`${summary.update} to update`);
  if (summary.unpublish) parts.push(`${summary.unpublish} to unpublish`);
  // "No changes" exactly when hasChanges is false, so it never comes with exit 2.
  if (parts.length === 0 && summary.uncertain === 0 && summary.drift === 0) {
    const lessons = `${summary.unchanged} lesson${summary.unchanged === 1 ? '' : 's'} unchanged`;
    return `No changes. ${[lessons, ...notes].join(', ')}.`;
  }
  return `Plan: ${[...parts, ...notes, `${summary.unchanged} unchanged`].join(', ')}.`;
}

/** A short value: strings quoted (and cut at 80 characters), others as JSON. */
export function showValue(v: FieldChange['before']): string {
  if (v === null) return 'null';
  if (typeof v !== 'string') return String(v);
  const s = quoted(showPendingLinks(v));
  return s.length > 82 ? `${s.slice(0, 79)}…"` : s;
}

/**
 * A long field's change as unified diff lines (`@@`, `-`, `+`, ` `), without file headers.
 * HTML without line breaks is split at block tags first, so a one-line body diffs readably.
 */
export function diffLinesOf(before: FieldChange['before'], after: FieldChange['before']): string[] {
  // The state keeps only a fingerprint of the HTML last sent: the new HTML is shown whole.
  const known = !isFingerprint(before);
  const a = known ? splitForDiff(before) : '';
  const b = splitForDiff(after);
  const patch = structuredPatch('before', 'after', a, b, '', '', { context: 2 });
  const out: string[] = known ? [] : [`(the HTML last sent is not kept in state, only its fingerprint ${String(before)})`];
  for (const h of patch.hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const line of h.lines) if (!line.startsWith('\\')) out.push(line);
  }
  return out;
}

function splitForDiff(v: FieldChange['before']): string {
  if (v === null || v === '') return '';
  // A link to a lesson this apply creates is shown as it is sent when still unknown then.
  const s = showPendingLinks(String(v));
  const text = s.includes('\n') ? s : s.replace(/(<\/(?:p|h[1-6]|li|ul|ol|blockquote|pre|table|tr|div)>)/g, '$1\n');
  return text.endsWith('\n') ? text : text + '\n';
}

/** Where a change sits: `sec_x at 3`, or `sec_x` when the position is not known. */
export function placeText(sectionId: string, position: number | null): string {
  return position === null ? sectionId : `${sectionId} at ${position}`;
}

/** One-line description of a change after its symbol and path. */
export function headline(c: PlanChange): string {
  switch (c.action) {
    case 'create':
      return `will be created in ${placeText(c.section_id, c.position)}`;
    case 'update':
      return `(${c.lesson_id}) will be updated in place`;
    case 'move':
      return c.from.section_id === c.section_id
        ? `(${c.lesson_id}) will move from position ${c.from.position ?? '?'} to ${c.position ?? '?'} in ${c.section_id}`
        : `(${c.lesson_id}) will move from ${placeText(c.from.section_id, c.from.position)} to ${placeText(c.section_id, c.position)}` +
            (c.from.program_id !== c.program_id ? ` (program ${c.from.program_id} → ${c.program_id})` : '');
    case 'unpublish':
      return c.archived
        ? `(${c.lesson_id}) was removed from the repo: will be unpublished and archived to ${placeText(c.section_id, c.position)}`
        : `(${c.lesson_id}) was removed from the repo: will be unpublished`;
    case 'orphan':
      return `(${c.lesson_id}) was removed from the repo: kept in the school (removed_lessons: keep)`;
    case 'drift':
      return `(${c.lesson_id}) was changed in the school since the last apply: ${c.drifted.join(', ')}`;
    case 'uncertain':
      return `create of ${quoted(c.name)} in ${c.section_id} was interrupted${c.since ? ` at ${c.since}` : ''}; its outcome is unknown`;
  }
}
