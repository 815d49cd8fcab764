/**
 * `coursesync duplicate lesson|section|program` against the emulator (in-process): copies
 * written with fresh keys and copied_from, recorded in state, placed through the planner, so
 * the next plan is empty; the same key with other details and a failed operation give clear
 * errors; a retry after a failure makes one copy, not two.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyCourse } from '../../src/apply/apply-course.js';
import { runDuplicateLessons, runDuplicateProgram } from '../../src/cli/duplicate.js';
import { duplicationKey } from '../../src/clone/idempotency-key.js';
import { readJournal } from '../../src/clone/journal.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { readStateFile } from '../../src/state/state-file.js';
import { SECRET, SEED, collector, useSchool } from '../cli/school-helpers.js';
import { lessonMd, makeRepo, planOf, removeRepos } from './helpers.js';

const school = useSchool({ operationDelayMs: 20 });
afterEach(removeRepos);

const REPO = {
  'p/program.yaml': 'id: prog_intro\n',
  'p/a/section.yaml': 'id: sec_start\n',
  'p/a/01-welcome.md': lessonMd('Welcome', '# Welcome\n\n> Read this first.\n'),
  'p/a/02-install.md': lessonMd('Install', 'Run `npm i`.\n', 'drip_delay: 2\n'),
  'p/a/03-hello.md': lessonMd('Hello', 'Hello **world**.\n'),
  'p/b/section.yaml': 'id: sec_types\n',
};

async function appliedRepo(env: NodeJS.ProcessEnv): Promise<string> {
  const dir = await makeRepo(REPO);
  const result = await applyCourse(dir, { env });
  expect(result.result?.outcomes.every((o) => o.status === 'done')).toBe(true);
  return dir;
}

async function schoolLessons(sectionId: string): Promise<Array<{ id: string; name: string; is_published: boolean; steps: unknown[] }>> {
  const state = await school.state();
  for (const p of state.programs) for (const s of p.sections) if (s.id === sectionId) return s.lessons;
  throw new Error(`no section ${sectionId}`);
}

describe('duplicate lesson', () => {
  it('copies a lesson into another section folder; the file has a fresh key and copied_from; the next plan is empty', async () => {
    const io = school.io();
    const dir = await appliedRepo(io.env);
    expect(await runDuplicateLessons('lesson', join(dir, 'p/a/01-welcome.md'), { yes: true, to: join(dir, 'p/b'), dir }, io)).toBe(0);
    const text = await readFile(join(dir, 'p/b/01-welcome-copy.md'), 'utf8');
    expect(text).toMatch(/^name: Copy of Welcome$/m);
    expect(text).toMatch(/^key: welcome-copy$/m);
    expect(text).toMatch(/^copied_from: welcome$/m);
    expect(text).toMatch(/^is_published: false$/m);
    const copies = await schoolLessons('sec_types');
    expect(copies).toHaveLength(1);
    expect(copies[0]!.steps).toHaveLength(1);
    const state = (await readStateFile(dir)).state;
    expect(state.lessons['welcome-copy']).toMatchObject({ id: copies[0]!.id, section_id: 'sec_types', path: 'p/b/01-welcome-copy.md' });
    expect((await planOf(dir, io.env)).summary).toMatchObject({ create: 0, update: 0, move: 0, unchanged: 4 });
    expect((await readJournal(dir)).jobs).toEqual({});
    school.assertNoTokenLeaked();
  });

  it('--name and --position: the copy is placed through the planner, in the school and the repo alike', async () => {
    const io = school.io();
    const dir = await appliedRepo(io.env);
    // Gaps in the numbers leave room for a file placed at position 2.
    expect(await runDuplicateLessons('lesson', join(dir, 'p/a/03-hello.md'), { yes: true, to: join(dir, 'p/b'), dir, name: 'Hi again' }, io)).toBe(0);
    expect(await runDuplicateLessons('lesson', join(dir, 'p/a/02-install.md'), { yes: true, to: join(dir, 'p/b'), dir, position: '1' }, io)).toBe(0);
    expect((await readdir(join(dir, 'p/b'))).sort()).toEqual(['00-install-copy.md', '01-hello-copy.md', 'section.yaml'].sort());
    expect((await schoolLessons('sec_types')).map((l) => l.name)).toEqual(['Copy of Install', 'Hi again']);
    expect((await planOf(dir, io.env)).summary).toMatchObject({ create: 0, update: 0, move: 0, unchanged: 5 });
  });

  it('the same idempotency key with other details: a clear error, and nothing written', async () => {
    const io = school.io();
    const dir = await appliedRepo(io.env);
    const source = (await readStateFile(dir)).state.lessons.welcome!.id!;
    // Someone already used the key this command will send, for a copy under another name.
    const key = duplicationKey({ kind: 'lesson', sourceId: source, destinationId: 'sec_types', name: '', requestId: 'r-1' });
    await school.client().lessons.duplicate(source, { destination_section_id: 'sec_types', name: 'Other', idempotency_key: key });
    const err = await school.fails(runDuplicateLessons('lesson', join(dir, 'p/a/01-welcome.md'), { yes: true, to: join(dir, 'p/b'), dir, requestId: 'r-1' }, school.io()));
    expect(err.code).toBe('duplicate/key-conflict');
    expect(err.message).toMatch(/already used for a duplication with other details/);
    expect(await readdir(join(dir, 'p/b'))).toEqual(['section.yaml']);
  });

  it('by lesson id into a section the repo has no folder for: the copy is made, and the output says how to import it', async () => {
    const io = school.io();
    const dir = await appliedRepo(io.env);
    const source = (await readStateFile(dir)).state.lessons.hello!.id!;
    expect(await runDuplicateLessons('lesson', source, { yes: true, to: 'sec_archive', dir }, io)).toBe(0);
    const copies = await schoolLessons('sec_archive');
    expect(copies.map((l) => l.name)).toEqual(['Copy of Hello']);
    expect(io.stdout.text).toContain(`coursesync import ${copies[0]!.id} --into <section folder>`);
    const state = (await readStateFile(dir)).state;
    expect(Object.values(state.lessons).some((l) => l.id === copies[0]!.id)).toBe(false);
    expect((await readJournal(dir)).jobs).toEqual({});
  });
});

describe('duplicate section', () => {
  it('copies every lesson in order; the next plan is empty', async () => {
    const io = school.io();
    const dir = await appliedRepo(io.env);
    expect(await runDuplicateLessons('section', join(dir, 'p/a'), { yes: true, to: join(dir, 'p/b'), dir, concurrency: '3' }, io)).toBe(0);
    expect((await schoolLessons('sec_types')).map((l) => l.name)).toEqual(['Welcome', 'Install', 'Hello']);
    expect((await readdir(join(dir, 'p/b'))).sort()).toEqual(['01-welcome-copy.md', '02-install-copy.md', '03-hello-copy.md', 'section.yaml']);
    const install = await readFile(join(dir, 'p/b/02-install-copy.md'), 'utf8');
    expect(install).toMatch(/^copied_from: install$/m);
    expect(install).toMatch(/^drip_delay: 2$/m);
    expect((await planOf(dir, io.env)).summary).toMatchObject({ create: 0, update: 0, move: 0, unchanged: 6 });
    expect(io.stdout.text).toContain('3 lessons copied to section sec_types');
  });
});

describe('duplicate program', () => {
  it('writes program.yaml with the new id and a section folder per section; says how to adopt lessons', async () => {
    const io = school.io();
    const dir = await appliedRepo(io.env);
    expect(await runDuplicateProgram(join(dir, 'p'), { yes: true, dir, name: 'Intro copy', into: join(dir, 'copy') }, io)).toBe(0);
    const programYaml = await readFile(join(dir, 'copy/program.yaml'), 'utf8');
    const id = /^id: "(.+)"$/m.exec(programYaml)![1]!;
    expect(id).not.toBe('prog_intro');
    const state = await school.state();
    const copy = state.programs.find((p: { id: string }) => p.id === id);
    expect(copy.name).toBe('Intro copy');
    const folders = (await readdir(join(dir, 'copy'))).filter((f) => f !== 'program.yaml').sort();
    expect(folders).toEqual(['01-getting-started', '02-types', '03-tooling']);
    for (const [i, s] of copy.sections.entries()) expect(await readFile(join(dir, 'copy', folders[i]!, 'section.yaml'), 'utf8')).toContain(`id: "${s.id}"`);
    expect(io.stdout.text).toMatch(/can neither list the lessons of a section/);
    expect(io.stdout.text).toContain('coursesync import <lesson id>... --into copy/01-getting-started');
    expect((await planOf(dir, io.env)).summary).toMatchObject({ create: 0, update: 0, move: 0, unchanged: 3 });
  });
});

describe('a failed operation', () => {
  let failing: RunningEmulator;
  beforeAll(async () => {
    failing = await startEmulator({ port: 0, seed: SEED, operationDelayMs: 10, failOperations: true });
  });
  afterAll(() => failing.close());

  it('is a clear error; nothing is written; a re-run with other details is refused before any request', async () => {
    const env = { COURSESYNC_BASE_URL: failing.url, COURSESYNC_TOKEN: SECRET };
    const io = { stdout: collector(), stderr: collector(), env };
    const dir = await makeRepo(REPO);
    await applyCourse(dir, { env });
    const err = await school.fails(runDuplicateLessons('lesson', join(dir, 'p/a/01-welcome.md'), { yes: true, to: join(dir, 'p/b'), dir }, io));
    expect(err.code).toBe('duplicate/operation-failed');
    expect(err.message).toMatch(/could not copy lesson les_\S+ \(welcome\): operation op_\S+ \(duplicate_lesson\) failed: Duplication failed/);
    expect(err.hint).toMatch(/run the same command again/);
    expect(await readdir(join(dir, 'p/b'))).toEqual(['section.yaml']);
    const conflict = await school.fails(runDuplicateLessons('lesson', join(dir, 'p/a/01-welcome.md'), { yes: true, to: join(dir, 'p/b'), dir, name: 'Else' }, io));
    expect(conflict.code).toBe('duplicate/job-conflict');
    const program = await school.fails(runDuplicateProgram('prog_intro', { yes: true, dir }, io));
    expect(program.code).toBe('duplicate/operation-failed');
  });
});
