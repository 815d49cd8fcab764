/**
 * A seeded pseudo-random source for the reliability tests (mulberry32): the same seed gives
 * the same hostile repos, kill moments and fuzzed requests on every run.
 */

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T;
  /** `s` with each letter upper- or lower-cased at random (`ScRiPt`). */
  oddCase(s: string): string;
  /** `n` random bytes. */
  bytes(n: number): Buffer;
}

/** mulberry32: tiny, fast, and good enough to spread test cases. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(list: readonly T[]): T => list[int(0, list.length - 1)]!,
    oddCase: (s) => [...s].map((c) => (next() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join(''),
    bytes: (n) => Buffer.from(Array.from({ length: n }, () => int(0, 255))),
  };
}

/** Read an integer count from the environment (the full-count runs raise it), else `ci`. */
export function countFromEnv(name: string, ci: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return ci;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}
