/**
 * The natural order of file names: names of a-z, digits, `_ - . /` are ordered by a sort key,
 * every other name by ICU's numeric collation; the two must give the very same order.
 */
import { describe, expect, it } from 'vitest';
import { compareNatural, sortNatural } from '../../src/compile/natural-order.js';

const collator = new Intl.Collator('en', { numeric: true });
/** The rule as it was: ICU's numeric collation, ties broken by code units. */
const byIcu = (a: string, b: string) => collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
const sign = (n: number) => Math.sign(n);

describe('natural order', () => {
  it('orders every pair of short names of the keyed characters as ICU does', () => {
    const alphabet = ['a', 'b', 'z', '0', '1', '2', '9', '_', '-', '.', '/'];
    const names = [''];
    for (let length = 1; length <= 3; length++) for (const n of names.filter((x) => x.length === length - 1)) for (const c of alphabet) names.push(n + c);
    let compared = 0;
    for (const a of names) for (const b of names) {
      if (sign(compareNatural(a, b)) !== sign(byIcu(a, b))) expect([a, b, compareNatural(a, b)]).toEqual([a, b, byIcu(a, b)]);
      compared++;
    }
    expect(compared).toBe(names.length ** 2);
  });

  it('orders numbers by value, leading zeros and long runs included, as ICU does', () => {
    const names = ['1-intro.md', '01-intro.md', '001-intro.md', '2-x.md', '10-x.md', '010-x.md', 'a0', 'a00', 'a', 'a0b', 'a00b', 'ab', 'x1.md', 'x.md', 'x-1.md',
      '1.5', '1.10', 'lesson-9.md', 'lesson-10.md', `n${'9'.repeat(30)}`, `n1${'0'.repeat(30)}`, `n${'7'.repeat(250)}`, `n${'8'.repeat(201)}`, 'readme.md', 'index.md'];
    for (const a of names) for (const b of names) expect(sign(compareNatural(a, b)), `${a} vs ${b}`).toBe(sign(byIcu(a, b)));
  });

  it('falls back to ICU for any other name (capitals, accents, spaces), in the same order', () => {
    const names = ['README.md', 'readme.md', 'Intro.md', 'intro.md', 'élan.md', 'elan.md', 'two words.md', 'two-words.md', '2 x.md', '10 x.md', 'A1', 'a1', 'ß.md', 'ss.md', 'x+y.md', 'x~y'];
    for (const a of names) for (const b of names) expect(sign(compareNatural(a, b)), `${a} vs ${b}`).toBe(sign(byIcu(a, b)));
  });

  it('sorts with keys as the comparison would, the `first` ones first, mixed names included', () => {
    const random = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const next = random(7);
    const chars = 'ab9010_-./AÉ ';
    for (let round = 0; round < 200; round++) {
      const names = Array.from({ length: 20 }, () => Array.from({ length: 1 + Math.floor(next() * 8) }, () => chars[Math.floor(next() * (round % 2 ? chars.length : 10))]).join(''));
      const first = (n: string) => n.startsWith('a');
      const want = [...names].sort((a, b) => Number(first(b)) - Number(first(a)) || byIcu(a, b));
      expect(sortNatural(names, (n) => n, first)).toEqual(want);
    }
  });
});
