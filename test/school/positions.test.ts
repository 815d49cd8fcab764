import { describe, expect, it } from 'vitest';
import { orderOf, place, placementOf, removeFromSection, type Placement } from '../../src/school-api/positions.js';

const slots = (entries: Record<string, number>) => new Map(Object.entries(entries));

describe('place (docs/architecture.md#plan position model)', () => {
  const cases: Array<{ name: string; start: Record<string, number>; id: string; placement: Placement; want: Record<string, number> }> = [
    { name: 'create last in empty section', start: {}, id: 'X', placement: 'last', want: { X: 1 } },
    { name: 'create last after a gap', start: { A: 1, B: 5 }, id: 'X', placement: 'last', want: { A: 1, B: 5, X: 6 } },
    { name: 'insert at occupied front shifts all', start: { A: 1, B: 2 }, id: 'X', placement: { at: 1 }, want: { X: 1, A: 2, B: 3 } },
    { name: 'insert into a gap shifts nothing', start: { A: 1, B: 3 }, id: 'X', placement: { at: 2 }, want: { A: 1, X: 2, B: 3 } },
    { name: 'insert in the middle shifts only later ones', start: { A: 1, B: 2, C: 3 }, id: 'X', placement: { at: 2 }, want: { A: 1, X: 2, B: 3, C: 4 } },
    { name: 'move within section leaves a gap behind', start: { A: 1, B: 2, C: 3 }, id: 'A', placement: { at: 3 }, want: { B: 2, A: 3, C: 4 } },
    { name: 'move to own position is a no-op', start: { A: 1, B: 2 }, id: 'B', placement: { at: 2 }, want: { A: 1, B: 2 } },
    { name: 'keep leaves a lesson in place', start: { A: 1, B: 2 }, id: 'A', placement: 'keep', want: { A: 1, B: 2 } },
    { name: 'last ignores the lesson itself', start: { A: 1, B: 2 }, id: 'B', placement: 'last', want: { A: 1, B: 2 } },
    { name: 'moving last from the front', start: { A: 1, B: 2 }, id: 'A', placement: 'last', want: { B: 2, A: 3 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const s = slots(c.start);
      const got = place(s, c.id, c.placement);
      expect(Object.fromEntries(s)).toEqual(c.want);
      expect(got).toBe(c.want[c.id]);
    });
  }

  it('removal leaves a gap and renumbers nothing', () => {
    const s = slots({ A: 1, B: 2, C: 3 });
    removeFromSection(s, 'B');
    expect(Object.fromEntries(s)).toEqual({ A: 1, C: 3 });
    expect(orderOf(s)).toEqual(['A', 'C']);
  });
});

describe('placementOf (the API rule for `position`)', () => {
  it.each([
    ['create', undefined, false, 'last'],
    ['create', null, false, 'last'],
    ['create', 0, false, 'last'],
    ['create', 3, false, { at: 3 }],
    ['update', undefined, false, 'keep'],
    ['update', undefined, true, 'last'],
    ['update', 0, false, 'last'],
    ['update', 2, true, { at: 2 }],
  ] as const)('%s with position %s (section changed: %s) → %j', (kind, position, sectionChanged, want) => {
    expect(placementOf({ kind, position, sectionChanged })).toEqual(want);
  });
});
