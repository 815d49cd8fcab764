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

/**
 * serializeStable for the state file, fast on large states: each lesson entry's text is cached
 * and reused while the entry's scalar fields and its `applied`/`response`/`uncertain` objects
 * are the same (by identity). Those nested objects are frozen once cached, so changing one in
 * place throws instead of silently writing a stale state: replace them instead.
 * The output is byte-for-byte serializeStable(state).
 */
export class StateSerializer {
  private readonly cache = new Map<string, { fp: unknown[]; text: string }>();

  serialize(state: { lessons: Record<string, object> } & Record<string, unknown>): string {
    const parts: string[] = [];
    for (const key of Object.keys(state).sort()) {
      const value = state[key];
      if (value === undefined) continue;
      const text = key === 'lessons' ? this.lessonsText(state.lessons) : indent(JSON.stringify(sortKeys(value), null, 2), '  ');
      parts.push(`  ${JSON.stringify(key)}: ${text}`);
    }
    return `{\n${parts.join(',\n')}\n}\n`;
  }

  private lessonsText(lessons: Record<string, object>): string {
    const keys = Object.keys(lessons).sort();
    if (keys.length === 0) return '{}';
    const seen = new Set<string>();
    const out: string[] = [];
    for (const key of keys) {
      const entry = lessons[key] as Record<string, unknown>;
      const fp = fingerprint(entry);
      let hit = this.cache.get(key);
      if (!hit || hit.fp.length !== fp.length || hit.fp.some((v, i) => v !== fp[i])) {
        for (const nested of ['applied', 'response', 'uncertain']) {
          const v = entry[nested];
          if (v !== null && typeof v === 'object') Object.freeze(v);
        }
        hit = { fp, text: indent(JSON.stringify(sortKeys(entry), null, 2), '    ') };
        this.cache.set(key, hit);
      }
      seen.add(key);
      out.push(`    ${JSON.stringify(key)}: ${hit.text}`);
    }
    for (const key of this.cache.keys()) if (!seen.has(key)) this.cache.delete(key);
    return `{\n${out.join(',\n')}\n  }`;
  }
}

/** What identifies an entry's content: its own keys and values (nested objects by identity). */
function fingerprint(entry: Record<string, unknown>): unknown[] {
  const fp: unknown[] = [];
  for (const k of Object.keys(entry).sort()) fp.push(k, entry[k]);
  return fp;
}

function indent(text: string, by: string): string {
  return text.replace(/\n/g, `\n${by}`);
}
