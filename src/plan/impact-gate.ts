/**
 * What a plan's learner impact stops (PURE): apply refuses an error-level impact that was not
 * acknowledged in the repo, and `plan --fail-on <level>` fails CI on impacts of that level or
 * worse. An acknowledged impact was reviewed in the pull request: it stops neither.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { ackToken, IMPACT_LEVELS, type ImpactLevel } from '../model/impact-rules.js';
import type { Impact, Plan } from './plan-schema.js';

/** Unacknowledged impacts of `level` or worse (error is the worst). */
export function impactsAtLeast(plan: Pick<Plan, 'impact'>, level: ImpactLevel): Impact[] {
  const worst = IMPACT_LEVELS.indexOf(level);
  return plan.impact.filter((i) => !i.acknowledged && IMPACT_LEVELS.indexOf(i.level) <= worst);
}

/** Parse `--fail-on`; a wrong value is a clear error. */
export function parseImpactLevel(value: string, option: string): ImpactLevel {
  if ((IMPACT_LEVELS as readonly string[]).includes(value)) return value as ImpactLevel;
  throw failure('cli/bad-impact-level', { option, value });
}

/**
 * Refuse a plan that takes something from enrolled learners without a reviewed
 * acknowledgement. Nothing has been sent when this throws.
 */
export function refuseUnacknowledgedImpact(plan: Pick<Plan, 'impact'>, accept: boolean): void {
  if (accept) return;
  const open = impactsAtLeast(plan, 'error');
  if (open.length === 0) return;
  const list = open
    .slice(0, 5)
    .map((i) => `${i.path} (${i.rule}): ${i.message}`)
    .join('; ');
  const first = open[0]!;
  throw failure('apply/learner-impact', { count: open.length, list: `${list}${open.length > 5 ? `; and ${open.length - 5} more` : ''}`, path: first.path, rule: ackToken(first.rule, first.accepts), key: first.key });
}
