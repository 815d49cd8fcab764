/**
 * Test helper: the state as apply records it after applying a course repo, every lesson placed
 * (ids in order, positions from 1 in each section) and the build of each lesson that compiled
 * clean recorded by `compiler` with its aliases and acknowledged rules, as apply/record-builds.ts
 * records it.
 */
import { expect } from 'vitest';
import { compileCourse } from '../../src/compile/compile-course.js';
import { placesOf } from '../../src/compile/known-lessons.js';
import { depRecord, inputsRecord, lessonDigest } from '../../src/compile/lesson-digest.js';
import { renderMarkdown } from '../../src/compile/render.js';
import { appliedOf } from '../../src/model/state/fingerprint.js';
import { emptyState, type StateData } from '../../src/model/state/schema.js';
import { readSource } from '../../src/source/read-source.js';

export async function appliedState(dir: string, compiler: string, programId = 'prog_intro'): Promise<StateData> {
  const { desired, diagnostics } = compileCourse(await readSource(dir), { render: renderMarkdown });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const state = emptyState('00000000-0000-4000-8000-000000000000');
  const lessons = desired!.programs.flatMap((p) => p.sections.flatMap((s) => s.lessons.map((l, i) => ({ l, i, section: 'id' in s.ref ? s.ref.id : '' }))));
  lessons.forEach(({ l, i, section }, n) => {
    state.lessons[l.key] = { id: `les_${n + 1}`, program_id: programId, section_id: section, position: i + 1, path: l.path, applied: appliedOf(l.fields), response: '' };
  });
  const placeOf = placesOf(state);
  for (const { l } of lessons) {
    // As apply: only a lesson that compiled with no diagnostic of its own has a build to record.
    const build = l.build;
    if (!build) continue;
    Object.assign(state.lessons[l.key]!, { digest: lessonDigest(l.path, build, placeOf), compiler, inputs: inputsRecord(build), warnings: build.warnings });
    if (build.deps.length > 0) state.lessons[l.key]!.deps = build.deps.map(depRecord);
    if (l.aliases.length > 0) state.lessons[l.key]!.aliases = l.aliases;
    if (l.acknowledge && l.acknowledge.length > 0) state.lessons[l.key]!.acknowledge = l.acknowledge;
  }
  return state;
}
