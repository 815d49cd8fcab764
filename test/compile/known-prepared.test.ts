/**
 * What the state knows, made ahead (prepareKnown: a plan of a fresh checkout makes it while the
 * read goes on, cli/plan.ts) answers as made on demand, and a plan given it plans what a plan
 * without it plans: a book with includes, an image and variables, applied to the emulator,
 * then one lesson edited and its caches removed, as CI checks it out. Applied and planned by
 * the sources (the test runner's compiler id), so the state knows what this code compiled.
 */
import { appendFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { knownLessonsOf, prepareKnown } from '../../src/compile/known-lessons.js';
import { compilerId } from '../../src/load/compiler-id.js';
import { readStateFile } from '../../src/state/state-file.js';
import { buildPlan } from '../../src/sync/build-plan.js';
import { useTestSchool } from '../apply/helpers.js';
import { applyCourse } from '../../src/apply/apply-course.js';
import { runCli } from '../e2e/helpers.js';
import { fixtureWorkspace } from '../e2e/odin-workspace.js';

const BOOK = path.resolve(import.meta.dirname, '../fixtures/repos/includes');

let emu: RunningEmulator;
let school: Record<string, string>;
useTestSchool((e, vars) => {
  emu = e;
  school = vars;
});

describe('what the state knows, made ahead', () => {
  it('answers as made on demand, and a plan given it plans the same', async () => {
    const workspace = await fixtureWorkspace(emu, 'coursesync-prepared-', BOOK, 'http://assets.test/book/');
    try {
      const repo = workspace.repo;
      expect((await runCli(['assets', repo, '--out', workspace.published])).code).toBe(0);
      // Applied by this very code (the sources, under the test runner): its compiler id is the one recorded.
      const applied = await applyCourse(repo, { env: { ...school, COURSESYNC_RENDER_THREADS: '1' } });
      expect(applied.result?.outcomes.every((o) => o.status === 'done')).toBe(true);
      const loaded = await readStateFile(repo);
      const id = await compilerId();
      const onDemand = knownLessonsOf(loaded.state, id);
      const ahead = knownLessonsOf(loaded.state, id);
      let steps = 0;
      for (const _ of prepareKnown(ahead, 1)) steps++;
      const paths = [...onDemand.lessons.keys()];
      expect(paths.length).toBeGreaterThanOrEqual(2);
      expect(steps).toBe(paths.length);
      for (const p of paths) expect(ahead.lessons.get(p), p).toEqual(onDemand.lessons.get(p));
      // Made once: the frame gets the answer made ahead.
      expect(ahead.lessons.get(paths[0]!)).toBe(ahead.lessons.get(paths[0]!));

      const lesson = loaded.state.lessons[Object.keys(loaded.state.lessons)[0]!]!.path;
      await appendFile(path.join(repo, lesson), '\nOne more paragraph.\n');
      const plan = async (known?: ReturnType<typeof knownLessonsOf>) => {
        await rm(path.join(repo, '.coursesync/cache'), { recursive: true, force: true });
        return (await buildPlan(repo, { env: { ...school, COURSESYNC_RENDER_THREADS: '1' }, state: loaded, known })).plan;
      };
      const without = await plan();
      // Counted, to see the plan took it (and did not make its own).
      let asked = 0;
      const counted = { ...ahead, lessons: { size: ahead.lessons.size, keys: () => ahead.lessons.keys(), get: (p: string) => (asked++, ahead.lessons.get(p)) } };
      const given = await plan(counted);
      expect(asked).toBeGreaterThan(0);
      expect(without.changes.map((c) => c.action)).toEqual(['update']);
      expect(given).toEqual(without);
    } finally {
      await workspace.close();
    }
  });
});
