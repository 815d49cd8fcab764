/**
 * Building blocks for query-string parameters, which arrive as text. A number parameter is
 * coerced first, so "abc" fails the `type` check and "0" fails `minimum`, one check per rule.
 */
import { z } from 'zod';

/** An integer query parameter between min and max (inclusive). */
export function queryInt(min: number, max: number) {
  return z.coerce.number().int().min(min).max(max);
}
