/**
 * HTML-only updates (PURE): lessons whose HTML changes although their file did not (a renderer
 * upgrade, a changed image, an inherited setting). Plans group them, and `--skip-html-only` /
 * `--html-only` apply the rest or only them. Only an update whose fields are all body or
 * description is HTML-only, so holding it back moves nothing and no other step depends on it.
 */
import type { Plan, PlanChange, UpdateStep } from './plan-schema.js';
import { isCall } from './plan-steps.js';

export type HtmlOnlyCause = 'renderer' | 'references' | 'settings';
export const HTML_ONLY_CAUSES: readonly HtmlOnlyCause[] = ['renderer', 'references', 'settings'];

/** Which part of a plan to keep: all of it, all but the HTML-only updates, or only those. */
export type HtmlOnlySelection = 'all' | 'skip' | 'only';

const HTML_FIELDS = new Set(['body', 'description']);

/** The cause when `change` is an HTML-only update, else undefined. */
export function htmlOnlyCause(change: PlanChange): HtmlOnlyCause | undefined {
  if (change.action !== 'update' || change.fields.length === 0) return undefined;
  if (!change.fields.every((f) => HTML_FIELDS.has(f.field))) return undefined;
  const cause = change.cause;
  return cause === 'renderer' || cause === 'references' || cause === 'settings' ? cause : undefined;
}

/** "12 lessons change only because the renderer changed" */
export function htmlOnlyTitle(cause: HtmlOnlyCause, count: number): string {
  const lessons = `${count} lesson${count === 1 ? '' : 's'} change${count === 1 ? 's' : ''} only because`;
  switch (cause) {
    case 'renderer':
      return `${lessons} the renderer changed (a coursesync upgrade; the files did not change)`;
    case 'references':
      return `${lessons} an image, file, lesson, include or variable ${count === 1 ? 'it uses' : 'they use'} changed`;
    case 'settings':
      return `${lessons} inherited settings changed (coursesync.yaml, program or section)`;
  }
}

/** The HTML-only updates of a plan by cause, in plan order (causes without any left out). */
export function htmlOnlyGroups(plan: Plan): Array<{ cause: HtmlOnlyCause; steps: UpdateStep[] }> {
  const groups = new Map<HtmlOnlyCause, UpdateStep[]>();
  for (const c of plan.changes) {
    const cause = htmlOnlyCause(c);
    if (cause) groups.set(cause, [...(groups.get(cause) ?? []), c as UpdateStep]);
  }
  return HTML_ONLY_CAUSES.filter((c) => groups.has(c)).map((cause) => ({ cause, steps: groups.get(cause)! }));
}

/**
 * The plan with its HTML-only updates held back (`skip`) or with only them (`only`). Chains,
 * summary and learner impact follow; changes that send nothing (orphans, drift) and renames
 * stay, as do the state and digest the plan was made from, so a saved selection is checked
 * and applied like any plan.
 */
export function selectHtmlOnly(plan: Plan, selection: HtmlOnlySelection): Plan {
  if (selection === 'all') return plan;
  const keep = (c: PlanChange) => !isCall(c) || (htmlOnlyCause(c) !== undefined) === (selection === 'only');
  const changes = plan.changes.filter(keep);
  const dropped = plan.changes.filter((c) => !keep(c));
  if (dropped.length === 0) return plan;
  const kept = new Set(changes.filter(isCall).map((c) => c.call_id));
  const chains = plan.chains.map((ch) => ({ ...ch, steps: ch.steps.filter((id) => kept.has(id)) })).filter((ch) => ch.steps.length > 0);
  const count = (action: PlanChange['action']) => changes.filter((c) => c.action === action).length;
  const summary = { ...plan.summary, create: count('create'), update: count('update'), move: count('move'), unpublish: count('unpublish') };
  const keys = new Set(changes.map((c) => c.key));
  const gone = new Set(dropped.map((c) => c.key).filter((k) => !keys.has(k)));
  const impact = plan.impact.filter((i) => !gone.has(i.key));
  const what =
    selection === 'skip'
      ? `${dropped.length} HTML-only update${dropped.length === 1 ? '' : 's'} ${HELD_BACK} (--skip-html-only): the next plan still shows ${dropped.length === 1 ? 'it' : 'them'}`
      : `${dropped.length} change${dropped.length === 1 ? '' : 's'} ${HELD_BACK} (--html-only): the next plan still shows ${dropped.length === 1 ? 'it' : 'them'}`;
  return { ...plan, changes, chains, summary, impact, notes: [...(plan.notes ?? []), what] };
}

const HELD_BACK = 'held back';

/** The note selectHtmlOnly added to `plan`, if it held anything back. */
export function heldBackNote(plan: Plan): string | undefined {
  return plan.notes?.find((n) => n.includes(`${HELD_BACK} (--`));
}
