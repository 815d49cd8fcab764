/**
 * knownLessonsOf: what a state knows of lessons compiled clean by one compiler, as compile
 * takes it, over lessons of every kind a state holds (uncertain creates, another compiler's,
 * a call in flight, links to drafts with their places, includes and variables).
 */
import { describe, expect, it } from 'vitest';
import { knownLessonsOf } from '../../src/compile/known-lessons.js';
import { emptyState, type LessonState, type StateData } from '../../src/model/state/schema.js';

const COMPILER = 'abcdef012345';
const digest = (n: number) => String(n).padStart(32, '0');
const lesson = (n: number, extra: Partial<LessonState> = {}): LessonState => ({
  id: `les_${n}`,
  program_id: 'prog_1',
  section_id: 'sec_1',
  position: n,
  path: `p/s/${n}.md`,
  applied: { name: `Lesson ${n}` } as LessonState['applied'],
  response: '',
  digest: digest(n),
  compiler: COMPILER,
  ...extra,
});

function state(): StateData {
  const s = emptyState('00000000-0000-4000-8000-000000000000');
  s.lessons['l-1'] = lesson(1);
  s.lessons['l-2'] = lesson(2, { deps: ['p/s/1.md@1a2b@3:5,7:1', 'img/a.png@00ff', 'img/old@2x.png'], aliases: ['old-2'], acknowledge: ['lock-added'] });
  s.lessons['l-3'] = lesson(3, { inputs: ['include:parts/x.md@0123abcd', 'var:year@89abcdef'] });
  s.lessons['l-4'] = lesson(4, { compiler: 'ffffffffffff' });
  s.lessons['l-5'] = lesson(5, { digest: undefined });
  s.lessons['l-6'] = lesson(6, { id: null, position: null, uncertain: { name: 'Lesson 6', section_id: 'sec_1', since: '2026-01-01T00:00:00.000Z' } });
  s.lessons['l-7'] = lesson(7);
  s.pending['call-1'] = { action: 'update', key: 'l-7', lesson_id: 'les_7', request: 'PATCH /lessons/les_7', fields: ['body'], started_at: '2026-01-01T00:00:00.000Z' };
  return s;
}

describe('knownLessonsOf', () => {
  it('knows the lessons compiled clean by this compiler with no call in flight, as recorded', () => {
    const known = knownLessonsOf(state(), COMPILER);
    expect([...known.lessons.keys()]).toEqual(['p/s/1.md', 'p/s/2.md', 'p/s/3.md']);
    expect(known.lessons.get('p/s/1.md')).toEqual({ key: 'l-1', aliases: [], fields: { name: 'Lesson 1' }, deps: [], digest: digest(1) });
    expect(known.lessons.get('p/s/2.md')).toEqual({
      key: 'l-2',
      aliases: ['old-2'],
      acknowledge: ['lock-added'],
      fields: { name: 'Lesson 2' },
      deps: ['p/s/1.md', 'img/a.png', 'img/old@2x.png'],
      lessonLinks: new Map([['p/s/1.md', [{ line: 3, column: 5 }, { line: 7, column: 1 }]]]),
      digest: digest(2),
    });
    expect(known.lessons.get('p/s/3.md')).toEqual({ key: 'l-3', aliases: [], fields: { name: 'Lesson 3' }, deps: [], includes: ['parts/x.md'], vars: ['year'], digest: digest(3) });
  });

  it('places every tracked lesson and keys every lesson, known or not', () => {
    const known = knownLessonsOf(state(), COMPILER);
    expect(known.placeOf('p/s/4.md')).toBe('prog_1/les_4');
    expect(known.placeOf('p/s/7.md')).toBe('prog_1/les_7');
    expect(known.placeOf('p/s/6.md')).toBeUndefined(); // an uncertain create has no place yet
    expect(known.keyAt?.('p/s/6.md')).toBe('l-6');
    expect(known.keyAt?.('p/s/5.md')).toBe('l-5');
    expect(known.keyAt?.('p/s/9.md')).toBeUndefined();
  });

  it('answers a path two entries claim (a hand-edited state) with the last one known, in key order', () => {
    const s = state();
    s.lessons['l-8'] = lesson(8, { path: 'p/s/1.md' }); // known too: the later key answers
    s.lessons['l-9'] = lesson(9, { path: 'p/s/3.md' });
    s.lessons['m-3'] = lesson(10, { path: 'p/s/3.md', compiler: 'ffffffffffff' }); // not known: l-9 still answers
    const known = knownLessonsOf(s, COMPILER);
    expect([...known.lessons.keys()]).toEqual(['p/s/1.md', 'p/s/2.md', 'p/s/3.md']);
    expect(known.lessons.size).toBe(5); // entries, not paths
    expect(known.lessons.get('p/s/1.md')).toMatchObject({ key: 'l-8', digest: digest(8) });
    expect(known.lessons.get('p/s/3.md')).toMatchObject({ key: 'l-9', digest: digest(9) });
    expect(known.placeOf('p/s/3.md')).toBe('prog_1/les_10');
    expect(known.keyAt?.('p/s/3.md')).toBe('m-3');
  });
});
