/**
 * Acknowledging a learner impact in the repo, so it is reviewed in the pull request: the rule
 * names (docs/learner-impact.md) and the two places an acknowledgement is written, a lesson's
 * front-matter (`acknowledge: [drip-grows]`) and coursesync.yaml (`acknowledge:` entries naming
 * the rule and the lesson key, for lessons whose file is gone or renamed).
 */
import { z } from 'zod';

/** Every learner-impact rule, by level (the table in docs/learner-impact.md). */
export const IMPACT_RULES = {
  unpublished: 'error',
  archived: 'error',
  'lock-added': 'error',
  'drip-grows': 'error',
  'later-section': 'error',
  'identity-change': 'error',
  'type-change': 'warning',
  'behind-lock': 'warning',
  'calendar-shift': 'warning',
  'new-lesson': 'info',
  published: 'info',
} as const;
export type ImpactRule = keyof typeof IMPACT_RULES;
export const IMPACT_RULE_NAMES = Object.keys(IMPACT_RULES) as ImpactRule[];

export const IMPACT_LEVELS = ['error', 'warning', 'info'] as const;
export type ImpactLevel = (typeof IMPACT_LEVELS)[number];

/**
 * Rules whose impact has a size: an acknowledgement of them names the size it accepted
 * (`drip-grows=21`: unlocking on day 21 at the latest; `lock-added=3`: gating up to 3 lessons;
 * `later-section=30`; `type-change=text`: to that type), so a later, bigger change is not
 * covered by an old acknowledgement and needs a new one. A bare `drip-grows` accepts nothing.
 */
export const SIZED_RULES = { 'drip-grows': 'at-most', 'later-section': 'at-most', 'lock-added': 'at-most', 'type-change': 'exact' } as const satisfies Partial<Record<ImpactRule, 'at-most' | 'exact'>>;

/** `rule` or `rule=value`, as written in an acknowledgement. */
const AckToken = z
  .string()
  .regex(new RegExp(`^(${IMPACT_RULE_NAMES.join('|')})(=[^\\s=]+)?$`), `a learner-impact rule (${IMPACT_RULE_NAMES.join(', ')}), with =value for ${Object.keys(SIZED_RULES).join(', ')} (e.g. drip-grows=21)`);

/** Whether the acknowledgement `token` accepts an impact of `rule` whose size is `accepts`. */
export function ackCovers(token: string, rule: ImpactRule, accepts: string | undefined): boolean {
  const [name, value] = token.split('=') as [string, string | undefined];
  if (name !== rule) return false;
  const kind = (SIZED_RULES as Partial<Record<ImpactRule, 'at-most' | 'exact'>>)[rule];
  if (kind === undefined || accepts === undefined) return true;
  if (value === undefined) return false;
  return kind === 'exact' ? value === accepts : Number(value) >= Number(accepts);
}

/** What to write to acknowledge an impact: `rule`, or `rule=value` for a sized rule. */
export const ackToken = (rule: ImpactRule, accepts: string | undefined) => (accepts === undefined ? rule : `${rule}=${accepts}`);

/** Lesson front-matter `acknowledge:`: the rules this lesson's next apply may break for learners. */
export const LessonAcknowledgeSchema = z
  .array(AckToken)
  .describe('Learner-impact rules acknowledged for this lesson (e.g. unpublished, drip-grows=21): apply then proceeds without --accept-impact. A sized rule names the size it accepts, so a bigger later change needs a new acknowledgement.');

/** coursesync.yaml `acknowledge:`. */
export const ConfigAcknowledgeSchema = z
  .array(
    z.strictObject({
      rule: AckToken.describe('The learner-impact rule, e.g. unpublished; a sized rule with the size it accepts, e.g. drip-grows=21.'),
      lesson: z.string().min(1).max(255).describe('The lesson key the plan names (for a removed or re-keyed lesson: its old key).'),
      reason: z.string().describe('Why learners may be affected; for the reviewer.').optional(),
    }),
  )
  .describe('Error-level learner impacts acknowledged in review: apply then proceeds without --accept-impact.');
export type ConfigAcknowledge = z.output<typeof ConfigAcknowledgeSchema>;
