/** Natural order of file names (PURE): `2-x` before `10-x`. */
const collator = new Intl.Collator('en', { numeric: true });

/** Compare in natural order; ties broken by code-unit order so the order is total and stable. */
export function compareNatural(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
