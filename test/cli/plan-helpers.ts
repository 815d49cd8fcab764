/**
 * Helpers for plan CLI tests: copy a fixture repo to a temp folder, and push
 * a plan to a real emulator the way apply will (recording state), checking every predicted
 * position against the school's answer.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSchoolClient } from '../../src/school/client.js';
import type { LessonCreateBody, LessonUpdateBody } from '../../src/school-api/wire/lessons.js';
import type { Plan } from '../../src/plan/plan-schema.js';
import { isCall } from '../../src/plan/plan-steps.js';
import { responseRecord } from '../../src/model/state/hash-response.js';
import { appliedOf } from '../../src/model/state/fingerprint.js';
import type { LessonState, SectionState, StateData } from '../../src/model/state/schema.js';
import { writeStateFile } from '../../src/state/state-file.js';
import { DEFAULT_LESSON_FIELDS, type LessonFields } from '../../src/model/desired.js';

/** The built CLI, run with a clean environment (shared with the e2e tests). */
export { CLI, runCli } from '../e2e/helpers.js';

const copies: string[] = [];

/** A private copy of a fixture repo under test/fixtures/repos/ (removed by removeFixtureCopies). */
export async function copyFixture(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `coursesync-${name}-`));
  copies.push(dir);
  await cp(join(import.meta.dirname, '../fixtures/repos', name), dir, { recursive: true });
  return dir;
}

/** Remove every copy made by copyFixture. */
export async function removeFixtureCopies(): Promise<void> {
  await Promise.all(copies.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

const BLANK: LessonFields = DEFAULT_LESSON_FIELDS;

/**
 * Send a plan's calls to the school (chains in order) and write the resulting state, as apply
 * will. Returns the call ids whose answered position differed from the plan's prediction.
 */
export async function pushPlan(args: {
  dir: string;
  plan: Plan;
  state: StateData;
  baseUrl: string;
  token: string;
  sections?: Record<string, SectionState>;
  /** Run chains concurrently, as apply will (steps of one chain stay in order). */
  parallel?: boolean;
}): Promise<{ state: StateData; mispredicted: string[] }> {
  const client = createSchoolClient({ baseUrl: args.baseUrl, token: args.token });
  const state: StateData = structuredClone(args.state);
  state.base_url = args.baseUrl;
  Object.assign(state.sections, args.sections ?? {});
  const byId = new Map(args.plan.changes.filter(isCall).map((c) => [c.call_id, c]));
  const mispredicted: string[] = [];
  for (const r of args.plan.renames) {
    state.lessons[r.to] = state.lessons[r.from]!;
    delete state.lessons[r.from];
  }
  const runChain = async (chain: Plan['chains'][number]) => {
    for (const id of chain.steps) {
      const step = byId.get(id)!;
      const prior = state.lessons[step.key];
      const lesson =
        step.action === 'create'
          ? await client.lessons.create(step.request as LessonCreateBody)
          : await client.lessons.update(step.lesson_id!, step.request as LessonUpdateBody);
      if (lesson.position !== step.position) mispredicted.push(id);
      const applied = { ...(prior?.applied ?? BLANK) } as Record<string, unknown>;
      for (const f of step.fields) applied[f.field] = f.after;
      const entry: LessonState = {
        id: lesson.id,
        program_id: step.program_id,
        section_id: lesson.section_id,
        position: lesson.position,
        path: step.path,
        applied: appliedOf(applied as unknown as LessonFields),
        response: responseRecord(lesson as unknown as Record<string, unknown>, appliedOf(applied as unknown as LessonFields)),
      };
      state.lessons[step.key] = entry;
    }
  };
  if (args.parallel) await Promise.all(args.plan.chains.map(runChain));
  else for (const chain of args.plan.chains) await runChain(chain);
  // Later calls shift earlier lessons: read every position back.
  for (const l of Object.values(state.lessons)) {
    if (l.id === null) continue;
    const live = await client.lessons.update(l.id, {});
    l.position = live.position;
    l.response = responseRecord(live as unknown as Record<string, unknown>, l.applied);
  }
  state.serial += 1;
  await writeStateFile(args.dir, state);
  return { state, mispredicted };
}
