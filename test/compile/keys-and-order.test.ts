import { describe, expect, it } from 'vitest';
import { compareNatural, keyFromFileName } from '../../src/compile/index.js';

describe('keyFromFileName', () => {
  it.each([
    ['01-welcome.md', 'welcome'],
    ['1_welcome.md', 'welcome'],
    ['01.welcome.md', 'welcome'],
    ['welcome.md', 'welcome'],
    ['10-2-step.md', '2-step'], // only the first ordering prefix goes
    ['2024.md', '2024'], // a number alone is a name, not a prefix
    ['Intro.MD', 'Intro'],
    ['01-.md', ''],
    // A name that gives no valid key so: its words, numbering off, other characters as `-`.
    ['1.1 The CIA triad and other key concepts.md', 'The-CIA-triad-and-other-key-concepts'],
    ['01 - Getting started.md', 'Getting-started'],
    ['Week 1 - Intro.md', 'Week-1-Intro'],
    ['Lesson 3 (advanced).md', 'Lesson-3-advanced'],
    ['第一章.md', '第一章'], // no word a key may hold: still none (lesson/invalid-key)
    ['01-__proto__.md', '__proto__'], // no other character: as before, no key (builtin-names.test.ts)
    // Separators and escapes of other systems are characters like any other: no key holds one.
    ['02-a\\b.md', 'a-b'],
    ['02-a:b.md', 'a-b'],
    ['02-%2e%2e.md', '2e-2e'],
    ['02-C:\\x.md', 'C-x'],
  ])('%s → %s', (file, key) => {
    expect(keyFromFileName(file)).toBe(key);
  });
});

describe('compareNatural', () => {
  it('orders numbers by value, then falls back to a total order', () => {
    const files = ['10-x.md', '2-x.md', '1-b.md', '1-a.md', '02-y.md', 'b.md', 'B.md', 'a.md'];
    expect([...files].sort(compareNatural)).toEqual(['1-a.md', '1-b.md', '2-x.md', '02-y.md', '10-x.md', 'a.md', 'b.md', 'B.md']);
  });
});
