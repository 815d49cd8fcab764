/**
 * Rules that tie the fields of one file together ("id or name, not both", "exactly one video
 * source", "embed_code only on embed lessons"), each stated once as data (PURE). validate asks a
 * rule through `presentKeys` / `allows`, and the generated JSON schemas carry the same rule
 * (`fieldRulesSchema`, attached to the zod model with `.meta()`), so an editor rejects what
 * validate rejects.
 */

/** Exactly one of `keys` must be present. */
export interface ExactlyOneRule<K extends string> {
  kind: 'exactly-one';
  keys: readonly K[];
}

/**
 * `key` may be present only when `field` is `value`. A file that leaves `field` out is accepted by
 * the schema: its value then comes from `lesson_defaults` of the section, program or repo, which
 * only validate sees.
 */
export interface OnlyWhenRule<K extends string, F extends string, V extends string> {
  kind: 'only-when';
  key: K;
  field: F;
  value: V;
  /** Shown on the field by editors that read `errorMessage` (the YAML extension of VS Code does). */
  message: string;
}

export type FieldRule = ExactlyOneRule<string> | OnlyWhenRule<string, string, string>;

export function exactlyOne<K extends string>(keys: readonly K[]): ExactlyOneRule<K> {
  return { kind: 'exactly-one', keys };
}

export function onlyWhen<K extends string, F extends string, V extends string>(key: K, field: F, value: V, message: string): OnlyWhenRule<K, F, V> {
  return { kind: 'only-when', key, field, value, message };
}

/** The keys of an exactly-one rule that `value` gives (the rule holds when there is one). */
export function presentKeys<K extends string>(rule: ExactlyOneRule<K>, value: Partial<Record<K, unknown>>): K[] {
  return rule.keys.filter((k) => value[k] !== undefined);
}

/** Whether a file whose `field` is (in effect) `fieldValue` may give the rule's key. */
export function allows<V extends string>(rule: OnlyWhenRule<string, string, V>, fieldValue: string): boolean {
  return fieldValue === rule.value;
}

/** The JSON Schema keywords of `rules`, to merge into the object's schema (`.meta(...)`). */
export function fieldRulesSchema(rules: readonly FieldRule[]): Record<string, unknown> {
  const parts = rules.map((rule): Record<string, unknown> => {
    if (rule.kind === 'exactly-one') {
      return { oneOf: rule.keys.map((k) => ({ required: [k] })) };
    }
    // Only a present `field` is checked: a left-out one comes from lesson_defaults.
    return {
      if: { required: [rule.key] },
      then: { properties: { [rule.field]: { const: rule.value, errorMessage: rule.message } } },
    };
  });
  return parts.length === 1 ? (parts[0] as Record<string, unknown>) : { allOf: parts };
}
