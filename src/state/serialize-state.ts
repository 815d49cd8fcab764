/** Stable JSON for files kept in git: sorted keys, 2-space indent, trailing newline. */

/** Recursively sort object keys (arrays keep their order). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** Serialize with sorted keys, so a one-field change is a one-line git diff. */
export function serializeStable(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 2) + '\n';
}
