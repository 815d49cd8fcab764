/**
 * Acknowledging a learner impact in the repo, so it is reviewed in the pull request: the rule
 * names (docs/learner-impact.md) and the two places an acknowledgement is written, a lesson's
 * front-matter (`acknowledge: [drip-grows]`) and coursesync.yaml (`acknowledge:` entries naming
 * the rule and the lesson key, for lessons whose file is gone or renamed).
 */
import { z } from 'zod';

export { IMPACT_LEVELS, IMPACT_RULES, IMPACT_RULE_NAMES, SIZED_RULES, ackCovers, ackToken, type ImpactLevel, type ImpactRule } from './impact-rules.js';
import { IMPACT_RULE_NAMES, SIZED_RULES } from './impact-rules.js';

/** `rule` or `rule=value`, as written in an acknowledgement. */
const AckToken = z
  .string()
  .regex(new RegExp(`^(${IMPACT_RULE_NAMES.join('|')})(=[^\\s=]+)?$`), `a learner-impact rule (${IMPACT_RULE_NAMES.join(', ')}), with =value for ${Object.keys(SIZED_RULES).join(', ')} (e.g. drip-grows=21)`);

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
