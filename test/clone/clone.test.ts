/** `coursesync clone` then apply against the emulator: the copies are created; the next plan is empty. */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyCourse } from '../../src/apply/apply-course.js';
import { runClone } from '../../src/cli/clone.js';
import { cloneLessonText, parseSectionRef } from '../../src/clone/clone-section.js';
import { useSchool } from '../cli/school-helpers.js';
import { lessonMd, makeRepo, planOf, removeRepos } from './helpers.js';

const school = useSchool();
afterEach(removeRepos);

describe('clone', () => {
  it('copies a section folder with fresh keys and copied_from; apply creates the copies; the next plan is empty', async () => {
    const io = school.io();
    const dir = await makeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/a/section.yaml': '# the first section\nid: sec_start\nlessons: [welcome, install]\n',
      'p/a/01-welcome.md': lessonMd('Welcome', '# Welcome\n', 'drip_delay: 1 # keep this comment\naliases: [hello]\n'),
      'p/a/02-install.md': lessonMd('Install', 'Run it.\n', 'key: install\n'),
    });
    expect((await applyCourse(dir, { env: io.env })).result?.outcomes).toHaveLength(2);
    expect(await runClone(join(dir, 'p/a'), join(dir, 'p/b'), { section: 'sec_types', dir }, io)).toBe(0);
    expect((await readdir(join(dir, 'p/b'))).sort()).toEqual(['01-welcome.md', '02-install.md', 'section.yaml']);
    const welcome = await readFile(join(dir, 'p/b/01-welcome.md'), 'utf8');
    expect(welcome).toMatch(/^key: welcome-copy$/m);
    expect(welcome).toMatch(/^copied_from: welcome$/m);
    expect(welcome).toContain('# keep this comment');
    expect(welcome).not.toContain('aliases');
    const section = await readFile(join(dir, 'p/b/section.yaml'), 'utf8');
    expect(section).toContain('# the first section');
    expect(parse(section)).toEqual({ id: 'sec_types', lessons: ['welcome-copy', 'install-copy'] });

    const plan = await planOf(dir, io.env);
    expect(plan.summary).toMatchObject({ create: 2, unchanged: 2 });
    const applied = await applyCourse(dir, { env: io.env });
    expect(applied.result?.outcomes.every((o) => o.status === 'done')).toBe(true);
    const state = await school.state();
    const types = state.programs[0].sections.find((s: { id: string }) => s.id === 'sec_types');
    expect(types.lessons.map((l: { name: string }) => l.name)).toEqual(['Welcome', 'Install']);
    expect((await planOf(dir, io.env)).summary).toMatchObject({ create: 0, update: 0, move: 0, unchanged: 4 });
  });

  it('refuses a folder that is not new, or a section another folder already names', async () => {
    const dir = await makeRepo({
      'p/program.yaml': 'id: prog_intro\n',
      'p/a/section.yaml': 'id: sec_start\n',
      'p/a/01-welcome.md': lessonMd('Welcome'),
    });
    const taken = await school.fails(runClone(join(dir, 'p/a'), join(dir, 'p/b'), { section: 'sec_start', dir }, school.io()));
    expect(taken.code).toBe('clone/section-taken');
    const outside = await school.fails(runClone(join(dir, 'p/a'), join(dir, 'elsewhere'), { section: 'sec_types', dir }, school.io()));
    expect(outside.code).toBe('clone/bad-target');
    const exists = await school.fails(runClone(join(dir, 'p/a'), join(dir, 'p/a'), { section: 'sec_types', dir }, school.io()));
    expect(exists.code).toBe('clone/target-exists');
  });

  it('a bare --section is looked up in the school: a name is written as name:, never taken as an id; without a token it asks which', async () => {
    const files = { 'p/program.yaml': 'id: prog_intro\n', 'p/a/section.yaml': 'id: sec_start\n', 'p/a/01-welcome.md': lessonMd('Welcome', '# Welcome\n\n| step | time |\n|---|---|\n| read | 5 min |\n') };
    const dir = await makeRepo(files);
    const io = school.io();
    expect(await runClone(join(dir, 'p/a'), join(dir, 'p/b'), { section: 'Tooling', dir }, io)).toBe(0);
    expect(parse(await readFile(join(dir, 'p/b/section.yaml'), 'utf8'))).toMatchObject({ name: 'Tooling' });
    expect(io.stdout.text).toContain('(section named "Tooling")');
    const byId = await makeRepo(files);
    expect(await runClone(join(byId, 'p/a'), join(byId, 'p/b'), { section: 'sec_tooling', dir: byId }, school.io())).toBe(0);
    expect(parse(await readFile(join(byId, 'p/b/section.yaml'), 'utf8'))).toMatchObject({ id: 'sec_tooling' });
    const unknown = await school.fails(runClone(join(dir, 'p/a'), join(dir, 'p/c'), { section: 'Toolng', dir }, school.io()));
    expect(unknown.code).toBe('clone/section-unknown');
    expect(unknown.message).toContain('--section Toolng: program prog_intro has no section with that id or name (it has sec_start "Getting started", sec_types "Types", sec_tooling "Tooling")');
    const noToken = school.io({ token: null });
    const offline = await makeRepo(files);
    const unclear = await school.fails(runClone(join(offline, 'p/a'), join(offline, 'p/b'), { section: 'Tooling', dir: offline }, noToken));
    expect(unclear.code).toBe('clone/section-unclear');
    expect(unclear.hint).toBe('write --section id:Tooling or --section name:Tooling, or set COURSESYNC_TOKEN so clone looks it up');
    expect(await runClone(join(offline, 'p/a'), join(offline, 'p/b'), { section: 'name:Tooling', dir: offline }, noToken)).toBe(0);
  });

  it('parses --section and rewrites only key, copied_from and aliases', () => {
    expect(parseSectionRef('sec_1')).toEqual({ id: 'sec_1' });
    expect(parseSectionRef('Next steps')).toEqual({ name: 'Next steps' });
    expect(parseSectionRef('name:Generics')).toEqual({ name: 'Generics' });
    expect(parseSectionRef('id:has space')).toEqual({ id: 'has space' });
    expect(cloneLessonText('---\nname: A\naliases: [x]\nkey: a\n---\nbody\n', 'a-copy', 'a')).toBe('---\nname: A\nkey: a-copy\ncopied_from: a\n---\nbody\n');
    // TOML front-matter (Hugo, Zola) comes out as YAML: the copy's keys written the one way coursesync writes them.
    expect(cloneLessonText('+++\nname = "A"\naliases = ["x"]\ndrip_delay = 2\n+++\nbody\n', 'a-copy', 'a')).toBe('---\nname: A\ndrip_delay: 2\nkey: a-copy\ncopied_from: a\n---\nbody\n');
  });
});
