/**
 * The learner-impact rules (docs/learner-impact.md) and what an acknowledgement of one accepts,
 * as plain data: the plan's renderings need them without the schemas of acknowledge.ts (which
 * re-exports them).
 */

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

