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

const RuleName = z.enum(IMPACT_RULE_NAMES as [ImpactRule, ...ImpactRule[]]);

/** Lesson front-matter `acknowledge:`: the rules this lesson's next apply may break for learners. */
export const LessonAcknowledgeSchema = z
  .array(RuleName)
  .describe('Learner-impact rules acknowledged for this lesson (e.g. drip-grows): apply then proceeds without --accept-impact.');

/** coursesync.yaml `acknowledge:`. */
export const ConfigAcknowledgeSchema = z
  .array(
    z.strictObject({
      rule: RuleName.describe('The learner-impact rule, e.g. unpublished.'),
      lesson: z.string().min(1).max(255).describe('The lesson key the plan names (for a removed or re-keyed lesson: its old key).'),
      reason: z.string().describe('Why learners may be affected; for the reviewer.').optional(),
    }),
  )
  .describe('Error-level learner impacts acknowledged in review: apply then proceeds without --accept-impact.');
export type ConfigAcknowledge = z.output<typeof ConfigAcknowledgeSchema>;
