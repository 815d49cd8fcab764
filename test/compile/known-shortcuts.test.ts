/**
 * What compile skips for lessons known unchanged from the state (their keys, their order,
 * their references) is still checked against the lessons compiled now: a duplicate key between
 * a known and a new lesson, a file name a new lesson shares with a known one, a known lesson
 * whose place in its section changed. Each case compiles the same repo with and without the
 * state's lessons and expects the same keys, order and diagnostics.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { knownLessonsOf, placesOf } from '../../src/compile/known-lessons.js';
import { depRecord, inputsRecord, lessonDigest } from '../../src/compile/lesson-digest.js';
import { loadCourse, type LoadedCourse } from '../../src/load/load-course.js';
import { emptyState, type StateData } from '../../src/model/state/schema.js';
import { removeRepos, writeRepo } from '../e2e/helpers.js';

afterAll(removeRepos);

const COMPILER = '0123456789ab';
const lesson = (title: string, extra = '') => `# ${title}\n\nSome text about ${title.toLowerCase()}, with a [link](https://example.com/${title.length}).\n${extra}`;

const REPO = {
  'coursesync.yaml': 'school:\n  base_url: http://127.0.0.1:4010/api/v1\n  lesson_url: https://academy.example.com/p/{program_id}/l/{lesson_id}\n',
  'c/program.yaml': 'id: prog_1\n',
  'c/01-basics/section.yaml': 'id: sec_1\n',
  'c/01-basics/1-intro.md': lesson('Intro'),
  'c/01-basics/10-later.md': lesson('Later'),
  'c/01-basics/homework.md': lesson('Homework'),
  'c/02-more/section.yaml': 'id: sec_2\n',
  'c/02-more/1-setup.md': `---\nkey: setup\naliases: [old-setup]\n---\n${lesson('Setup')}`,
  'c/02-more/2-next.md': lesson('Next', 'See [the intro](../01-basics/1-intro.md).\n'),
};

/** The state an apply of the repo at `dir` records: every lesson placed, its build recorded by COMPILER. */
async function appliedState(dir: string): Promise<StateData> {
  const course = await loadCourse(dir, { renderThreads: 1 });
  expect(course.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const state = emptyState('00000000-0000-4000-8000-000000000000');
  for (const program of course.desired!.programs) {
    for (const section of program.sections) {
      section.lessons.forEach((l, i) => {
        const id = 'id' in section.ref ? section.ref.id : '';
        state.lessons[l.key] = { id: `les_${l.key}`, program_id: program.id, section_id: id, position: i + 1, path: l.path, applied: l.fields, response: '' };
      });
    }
  }
  const placeOf = placesOf(state);
  for (const program of course.desired!.programs) {
    for (const l of program.sections.flatMap((s) => s.lessons)) {
      const entry = state.lessons[l.key]!;
      entry.digest = lessonDigest(l.path, l.build!, placeOf);
      entry.compiler = COMPILER;
      if (l.build!.deps.length > 0) entry.deps = l.build!.deps.map(depRecord);
      const inputs = inputsRecord(l.build!);
      if (inputs) entry.inputs = inputs;
      if (l.aliases.length > 0) entry.aliases = l.aliases;
    }
  }
  return state;
}

/** The repo compiled with the state's known lessons, and compiled cold (the state only keeping keys at their paths, as a plan's compile has it). */
async function bothWays(dir: string, state: StateData): Promise<{ known: LoadedCourse; cold: LoadedCourse }> {
  const known = await loadCourse(dir, { renderThreads: 1, known: knownLessonsOf(state, COMPILER) });
  const keyAt = knownLessonsOf(state, COMPILER).keyAt;
  const cold = await loadCourse(dir, { renderThreads: 1, known: { lessons: new Map(), placeOf: () => undefined, keyAt } });
  return { known, cold };
}

const layout = (c: LoadedCourse) => c.desired?.programs.map((p) => p.sections.map((s) => s.lessons.map((l) => `${l.key} ${l.path}`)));
const problems = (c: LoadedCourse) => c.diagnostics.map((d) => `${d.file} ${d.code} ${d.message}`);

describe('lessons known from the state', () => {
  it('are taken as recorded when nothing changed', async () => {
    const dir = await writeRepo(REPO);
    const { known, cold } = await bothWays(dir, await appliedState(dir));
    expect(known.unchanged).toHaveLength(5);
    expect(layout(known)).toEqual(layout(cold));
  });

  it('still clash with a new lesson that takes a known key or alias', async () => {
    const dir = await writeRepo(REPO);
    const state = await appliedState(dir);
    await writeRepo({ 'c/02-more/3-copy.md': `---\nkey: old-setup\n---\n${lesson('Copy')}`, 'c/01-basics/2-again.md': `---\nkey: intro\n---\n${lesson('Again')}` }, dir);
    const { known, cold } = await bothWays(dir, state);
    expect(known.unchanged).toHaveLength(5);
    expect(problems(known)).toEqual([
      'c/01-basics/2-again.md repo/duplicate-key key "intro" is also used by c/01-basics/1-intro.md',
      'c/02-more/3-copy.md repo/duplicate-key key "old-setup" is also used by c/02-more/1-setup.md',
    ]);
    expect(problems(known)).toEqual(problems(cold));
  });

  it('keep their key when a new lesson shares their file name, which the new one qualifies', async () => {
    const dir = await writeRepo(REPO);
    const state = await appliedState(dir);
    await writeRepo({ 'c/02-more/homework.md': lesson('More homework') }, dir);
    const { known, cold } = await bothWays(dir, state);
    expect(known.unchanged).toContain('c/01-basics/homework.md');
    expect(problems(known)).toEqual([]);
    expect(layout(known)![0]![0]).toContain('homework c/01-basics/homework.md');
    expect(layout(known)![0]![1]).toContain('more.homework c/02-more/homework.md');
    expect(layout(known)).toEqual(layout(cold));
  });

  it('take their place in natural order among new lessons, and the order a lessons: list gives', async () => {
    const dir = await writeRepo(REPO);
    const state = await appliedState(dir);
    await writeRepo({ 'c/01-basics/2-middle.md': lesson('Middle'), 'c/02-more/section.yaml': 'id: sec_2\nlessons: [next, setup]\n' }, dir);
    await rm(join(dir, 'c/01-basics/10-later.md'));
    await writeRepo({ 'c/01-basics/03-later.md': lesson('Later') }, dir);
    const { known, cold } = await bothWays(dir, state);
    expect(known.unchanged).toEqual(expect.arrayContaining(['c/01-basics/1-intro.md', 'c/01-basics/homework.md', 'c/02-more/1-setup.md', 'c/02-more/2-next.md']));
    expect(layout(known)).toEqual([
      [
        ['intro c/01-basics/1-intro.md', 'middle c/01-basics/2-middle.md', 'later c/01-basics/03-later.md', 'homework c/01-basics/homework.md'],
        ['next c/02-more/2-next.md', 'setup c/02-more/1-setup.md'],
      ],
    ]);
    expect(layout(known)).toEqual(layout(cold));
  });
});
