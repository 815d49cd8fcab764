/** File names for new lessons land where they must in natural file-name order. */
import { describe, expect, it } from 'vitest';
import { newFileNames } from '../../src/clone/open-repo.js';
import { compareNatural } from '../../src/compile/natural-order.js';

const placeOf = (existing: string[], name: string) => [...existing, name].sort(compareNatural).indexOf(name);

describe('newFileNames', () => {
  it('appends after the highest number, keeping the width', () => {
    expect(newFileNames([], ['a'])).toEqual(['01-a.md']);
    expect(newFileNames(['01-x.md', '02-y.md'], ['a', 'b'])).toEqual(['03-a.md', '04-b.md']);
    expect(newFileNames(['1-x.md', '10-y.md'], ['a'])).toEqual(['11-a.md']);
  });

  it('places one file at an index: a free number, 0 before 1, or a letter after the previous number', () => {
    const folder = ['01-x.md', '02-y.md', '05-z.md'];
    for (const index of [0, 1, 2, 3]) {
      const [name] = newFileNames(folder, ['new'], index);
      expect(placeOf(folder, name!)).toBe(index);
    }
    expect(newFileNames(folder, ['new'], 0)).toEqual(['00-new.md']);
    expect(newFileNames(folder, ['new'], 1)).toEqual(['01a-new.md']);
    expect(newFileNames(folder, ['new'], 2)).toEqual(['03-new.md']);
  });

  it('says so when several files cannot fit between two neighbours', () => {
    expect(() => newFileNames(['01-x.md', '02-y.md'], ['a', 'b'], 1)).toThrow(/no free file-name number between 01-x.md and 02-y.md/);
  });
});
