/**
 * Settled sections (compile/desired-state.ts settle): a section whose every lesson is known
 * unchanged from the state carries their keys, and its lessons are made only when asked for.
 * The plan's steps (the diff, the links between lessons, the learner impact, the reasons) ask
 * for none of them, and plan exactly what they plan from the same desired state made whole:
 * an unchanged checkout, an edited lesson that links into a settled section, a settled section
 * the school has out of order, and so one whose lesson moves behind a progression lock and
 * acknowledges it.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCourse } from '../../src/compile/compile-course.js';
import { knownLessonsOf } from '../../src/compile/known-lessons.js';
import { renderMarkdown } from '../../src/compile/render.js';
import type { DesiredState } from '../../src/model/desired.js';
import type { StateData } from '../../src/model/state/schema.js';
import { diffCourse } from '../../src/plan/diff-course.js';
import { explainReferences } from '../../src/plan/explain-references.js';
import { linkLessons } from '../../src/plan/lesson-links.js';
import type { Plan } from '../../src/plan/plan-schema.js';
import { readSource } from '../../src/source/read-source.js';
import { appliedState } from '../compile/applied-state.js';

const BOOK = path.resolve(import.meta.dirname, '../fixtures/repos/includes');
const START = 'book/01-getting-started';
const GAME = 'book/02-guessing-game/01-guessing-game.md';
const CARGO = `${START}/02-cargo.md`;
const COMPILER = '0123456789abcdef';

let work: string;
let base: string;
let recorded: StateData;

/** A copy of the course to change. */
async function checkout(): Promise<string> {
  const dir = await mkdtemp(path.join(work, 'repo-'));
  await cp(base, dir, { recursive: true });
  return dir;
}

/** The desired state of `dir` with what `state` knows. */
async function compiled(dir: string, state: StateData): Promise<DesiredState> {
  const { desired, diagnostics } = compileCourse(await readSource(dir), { render: renderMarkdown, known: knownLessonsOf(state, COMPILER) });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return desired!;
}

/** Count every time a settled section's lessons are asked for. */
function watched(desired: DesiredState): { asked: () => number } {
  let asked = 0;
  for (const p of desired.programs) {
    for (const s of p.sections) {
      if (!s.settled) continue;
      const { get, set } = Object.getOwnPropertyDescriptor(s, 'lessons')!;
      Object.defineProperty(s, 'lessons', {
        get: () => {
          asked++;
          return get!.call(s);
        },
        set,
        enumerable: true,
        configurable: true,
      });
    }
  }
  return { asked: () => asked };
}

/** The same desired state made whole: every section's lessons made, none settled. */
function whole(desired: DesiredState): DesiredState {
  return { ...desired, programs: desired.programs.map((p) => ({ ...p, sections: p.sections.map(({ settled: _settled, ...s }) => ({ ...s, lessons: [...s.lessons] })) })) };
}

/** `state` with the school holding lessons `a` and `b` (of one section) in each other's places. */
function swappedIn(state: StateData, a: string, b: string): StateData {
  const swapped = structuredClone(state);
  [swapped.lessons[a]!.position, swapped.lessons[b]!.position] = [state.lessons[b]!.position, state.lessons[a]!.position];
  return swapped;
}

/** The plan as build-plan.ts makes it: links filled, the diff, the reasons. */
function planOf(desired: DesiredState, state: StateData): Plan {
  const linked = linkLessons(desired, state);
  const plan = diffCourse(linked.desired, state, { sectionIds: new Map(), compiler: COMPILER });
  return explainReferences(plan, linked.desired, linked.pending);
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'coursesync-settled-'));
  base = path.join(work, 'base');
  await cp(BOOK, base, { recursive: true });
  // The guessing game locks the rest of the program until it is completed.
  const game = path.join(base, GAME);
  await writeFile(game, (await readFile(game, 'utf8')).replace('name: Programming a Guessing Game', 'name: Programming a Guessing Game\nis_progression_locked: true'));
  // A second lesson in each section (order in it means something); the second of the guessing
  // game acknowledges what moving behind its lock does to learners.
  await writeFile(path.join(base, CARGO), '---\nname: Hello, Cargo\n---\nCargo builds your code, downloads the libraries it depends on and builds them.\n');
  await writeFile(path.join(base, 'book/02-guessing-game/02-plain.md'), '---\nname: Ownership in plain words\nacknowledge: [behind-lock]\n---\nEach value has one owner; when the owner goes out of scope, the value is dropped.\n');
  recorded = await appliedState(base, COMPILER);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('a plan asks nothing of a settled section it need not, and plans what the whole desired state plans', () => {
  it('an unchanged checkout: every section settled, no call, no lesson made', async () => {
    const desired = await compiled(await checkout(), recorded);
    expect(desired.programs.flatMap((p) => p.sections.map((s) => s.settled?.keys.length))).toEqual([2, 2]);
    const seen = watched(desired);
    const plan = planOf(desired, recorded);
    expect(seen.asked()).toBe(0);
    expect(plan.changes).toEqual([]);
    expect(plan.summary.unchanged).toBe(4);
    expect(plan).toEqual(planOf(whole(desired), recorded));
  });

  it('an edited lesson linking into a settled section: its link filled from the state, the settled section never made', async () => {
    const dir = await checkout();
    const text = await readFile(path.join(dir, GAME), 'utf8');
    await writeFile(path.join(dir, GAME), text.replace('guess', 'Guess'));
    const desired = await compiled(dir, recorded);
    const [start, game] = desired.programs[0]!.sections;
    expect(start!.settled?.keys).toEqual(['hello-world', 'cargo']);
    expect(game!.settled).toBeUndefined();
    const seen = watched(desired);
    const plan = planOf(desired, recorded);
    expect(seen.asked()).toBe(0);
    expect(plan.changes.map((c) => [c.action, c.key])).toEqual([['update', 'guessing-game']]);
    // The link to Hello, World (settled) is filled with its id from the state.
    const hello = recorded.lessons['hello-world']!;
    expect(JSON.stringify(plan.changes[0])).toContain(`/lessons/${hello.id}`);
    expect(plan).toEqual(planOf(whole(desired), recorded));
  });

  it('a settled section the school has out of order: moved as the whole desired state moves it', async () => {
    const swapped = swappedIn(recorded, 'hello-world', 'cargo');
    const desired = await compiled(await checkout(), swapped);
    expect(desired.programs[0]!.sections[0]!.settled).toBeDefined();
    const plan = planOf(desired, swapped);
    expect(plan.changes.map((c) => c.action)).toEqual(['move']);
    expect(plan).toEqual(planOf(whole(desired), swapped));
  });

  it('a settled section the school has out of order, a lesson moved behind a lock: its impact, and what its front-matter acknowledges, as the whole state has them', async () => {
    const swapped = swappedIn(recorded, 'guessing-game', 'plain');
    const desired = await compiled(await checkout(), swapped);
    expect(desired.programs[0]!.sections[1]!.settled?.keys).toEqual(['guessing-game', 'plain']);
    const plan = planOf(desired, swapped);
    expect(plan.impact.map((i) => [i.rule, i.key, i.acknowledged])).toEqual([['behind-lock', 'plain', true]]);
    expect(plan).toEqual(planOf(whole(desired), swapped));
  });
});
