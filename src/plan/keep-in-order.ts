/**
 * Which lessons already in a section can stay where they are: a maximum-weight subsequence of
 * the current order that is already in the desired order (weighted longest increasing
 * subsequence). An unchanged lesson weighs 2 and a changed one 1: a changed lesson needs a call
 * anyway, so keeping an unchanged one saves more. O(n log n) with a Fenwick tree of maxima.
 */

export interface OrderItem {
  /** Index of the lesson in the desired order of the section. */
  desiredIndex: number;
  /** Weight: 2 for an unchanged lesson, 1 for one with field changes. */
  weight: number;
}

/**
 * Given the lessons that stay in a section, in their current position order, return the
 * indexes (into `items`) of a maximum-weight subsequence whose desired indexes increase.
 */
export function keepInOrder(items: readonly OrderItem[]): Set<number> {
  const size = items.reduce((m, it) => Math.max(m, it.desiredIndex + 1), 0);
  // Fenwick tree over desired indexes: best chain weight ending at or below an index, and where.
  const treeBest = new Array<number>(size + 1).fill(0);
  const treeAt = new Array<number>(size + 1).fill(-1);
  const query = (i: number): [number, number] => {
    let best = 0;
    let at = -1;
    for (let j = i; j > 0; j -= j & -j) {
      if (treeBest[j]! > best) {
        best = treeBest[j]!;
        at = treeAt[j]!;
      }
    }
    return [best, at];
  };
  const update = (i: number, value: number, at: number): void => {
    for (let j = i; j <= size; j += j & -j) {
      if (value > treeBest[j]!) {
        treeBest[j] = value;
        treeAt[j] = at;
      }
    }
  };
  const prev = new Array<number>(items.length).fill(-1);
  let bestTotal = 0;
  let bestEnd = -1;
  items.forEach((it, k) => {
    // Strictly increasing: chains ending at desired indexes < this one (1-based tree: ≤ index).
    const [best, at] = query(it.desiredIndex);
    const total = best + it.weight;
    prev[k] = at;
    update(it.desiredIndex + 1, total, k);
    if (total > bestTotal) {
      bestTotal = total;
      bestEnd = k;
    }
  });
  const kept = new Set<number>();
  for (let k = bestEnd; k !== -1; k = prev[k]!) kept.add(k);
  return kept;
}
