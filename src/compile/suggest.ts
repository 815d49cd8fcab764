/** Did-you-mean hints (PURE). */
import { closest, distance } from 'fastest-levenshtein';

/** The closest candidate to `word`, when it is close enough to be a likely typo. */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const best = closest(word, [...candidates]);
  const limit = Math.max(2, Math.floor(word.length / 3));
  return distance(word.toLowerCase(), best.toLowerCase()) <= limit ? best : undefined;
}
