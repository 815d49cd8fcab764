/**
 * A webhook's identity (PURE): url + event type + normalised filters. The API can neither
 * update nor delete a webhook, so identity is all there is to compare: two webhooks with the
 * same identity deliver the same events to the same place.
 */

/**
 * Filters in a canonical form: every filter as a sorted list without duplicates (one offer id
 * and a one-item list are the same), empty or null filters dropped (empty means "all", as
 * absent does), keys sorted.
 */
export function normaliseFilters(extra: Record<string, unknown> | undefined): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const key of Object.keys(extra ?? {}).sort()) {
    const value = extra![key];
    if (value === null || value === undefined) continue;
    const list = Array.isArray(value) ? value : [value];
    const unique = new Map(list.map((v) => [JSON.stringify(v), v]));
    if (unique.size === 0) continue;
    out[key] = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
  }
  return out;
}

/** The URL as the WHATWG parser writes it (host lower-cased, default port dropped). */
export function normaliseUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** The identity key of a webhook: `event_type url filters-json`. */
export function webhookIdentity(w: { webhook_url: string; event_type: string; extra_parameters?: Record<string, unknown> | undefined }): string {
  return `${w.event_type} ${normaliseUrl(w.webhook_url)} ${JSON.stringify(normaliseFilters(w.extra_parameters))}`;
}
