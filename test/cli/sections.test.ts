/** `coursesync sections list` (all pages, --group, program folder, --scaffold) against the real emulator. */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSectionsList } from '../../src/cli/sections.js';
import { sectionFolderName } from '../../src/model/program-folder.js';
import { loadCourse } from '../../src/load/load-course.js';
import { PARTNER_SECRET, SEED, useSchool } from './school-helpers.js';

// A program of 65 sections in two groups: GET /sections pages hold at most 30.
const big = {
  id: 'prog_big',
  name: 'Big',
  section_groups: [
    { id: 'grp_a', name: 'A', position: 1 },
    { id: 'grp_b', name: 'B', position: 2 },
  ],
  sections: Array.from({ length: 65 }, (_, i) => ({
    id: `sec_big_${i + 1}`,
    name: `Part ${i + 1}: Ünïcode & more`,
    section_group_id: i < 40 ? 'grp_a' : 'grp_b',
    position: i < 40 ? i + 1 : i - 39,
  })),
};
const school = useSchool({ seed: { ...SEED, programs: [...SEED.programs!, big] } });
const dirs: string[] = [];
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'coursesync-sections-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('sections list', () => {
  it('iterates every page: 65 sections over 3 pages, each once, in group then position order', async () => {
    const io = school.io();
    expect(await runSectionsList('prog_big', { json: true }, io)).toBe(0);
    const out = JSON.parse(io.stdout.text);
    expect(out.program_id).toBe('prog_big');
    expect(out.sections.map((s: any) => s.id)).toEqual(big.sections.map((s) => s.id));
    expect(school.emu.stats().byRoute['GET /sections']).toBe(3);
  });

  it('--group lists only that group, in its order', async () => {
    const io = school.io();
    await runSectionsList('prog_big', { group: 'grp_b', json: true }, io);
    expect(JSON.parse(io.stdout.text).sections.map((s: any) => s.id)).toEqual(big.sections.slice(40).map((s) => s.id));
  });

  it('takes a program folder (its program.yaml id) and prints tab-separated lines off a TTY', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'program.yaml'), 'id: prog_intro\nname: Intro\n');
    const io = school.io();
    await runSectionsList(dir, {}, io);
    expect(io.stdout.text).toBe('sec_start\tGetting started\tgrp_basics\t1\tyes\nsec_types\tTypes\tgrp_basics\t2\tyes\nsec_tooling\tTooling\tgrp_next\t1\tyes\n');
  });

  it('a folder without program.yaml, or an invalid one, is a clear error before any request', async () => {
    const dir = await tempDir();
    const before = school.emu.stats().requests;
    expect((await school.fails(runSectionsList(dir, {}, school.io()))).message).toMatch(/is a folder without program\.yaml/);
    await writeFile(join(dir, 'program.yaml'), 'idd: prog_intro\n');
    const e = await school.fails(runSectionsList(dir, {}, school.io()));
    expect(e.code).toBe('sections/not-a-program');
    expect(e.diagnostics.map((d: any) => [d.code, d.line])).toEqual(expect.arrayContaining([['program/unknown-key', 1]]));
    expect((await school.fails(runSectionsList('no/such/dir', {}, school.io()))).code).toBe('sections/not-a-program');
    expect(school.emu.stats().requests).toBe(before);
  });

  it('404 for an unknown program, 403 for a program the key may not edit, each saying what to check', async () => {
    const missing = await school.fails(runSectionsList('prog_nope', {}, school.io()));
    expect(missing.code).toBe('connection/not-found');
    expect(missing.message).toMatch(/no program prog_nope/);
    const group = await school.fails(runSectionsList('prog_intro', { group: 'grp_nope' }, school.io()));
    expect(group.message).toMatch(/no program prog_intro or section group grp_nope in it/);
    const forbidden = await school.fails(runSectionsList('prog_intro', {}, school.io({ token: PARTNER_SECRET })));
    expect(forbidden.code).toBe('connection/forbidden');
    expect(forbidden.hint).toMatch(/edit access/);
  });
});

describe('sections list --scaffold', () => {
  it('writes program.yaml and one folder per section; the result is a valid course repo', async () => {
    const repo = await tempDir();
    const dir = join(repo, 'intro');
    const io = school.io({ tty: true });
    await runSectionsList('prog_intro', { scaffold: dir }, io);
    expect((await readdir(dir)).sort()).toEqual(['01-getting-started', '02-types', '03-tooling', 'program.yaml']);
    expect(await readFile(join(dir, 'program.yaml'), 'utf8')).toBe('id: "prog_intro"\n');
    expect(await readFile(join(dir, '01-getting-started/section.yaml'), 'utf8')).toBe('# Getting started (the section\'s name in the school)\nid: "sec_start"\n');
    expect(io.stderr.text).toMatch(/^Wrote 4 files under .*: program\.yaml, 01-getting-started\/section\.yaml, 02-types\/section\.yaml, 03-tooling\/section\.yaml\.\n$/);
    const quiet = school.io();
    await runSectionsList('prog_intro', { scaffold: join(await tempDir(), 'again') }, quiet);
    expect(quiet.stderr.text).toBe('');
    const course = await loadCourse(repo);
    expect(course.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(course.desired?.programs[0]?.sections.map((s) => s.ref)).toEqual([{ id: 'sec_start' }, { id: 'sec_types' }, { id: 'sec_tooling' }]);
  });

  it('refuses to overwrite: names every existing file and writes nothing; an existing program.yaml is kept', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'program.yaml'), 'id: prog_intro # mine\n');
    await mkdir(join(dir, '02-types'));
    await writeFile(join(dir, '02-types/section.yaml'), 'name: Types\n');
    const e = await school.fails(runSectionsList('prog_intro', { scaffold: dir }, school.io()));
    expect(e.code).toBe('sections/scaffold-exists');
    expect(e.message).toMatch(/would overwrite 1 existing file: .*02-types\/section\.yaml; nothing was written$/);
    expect((await readdir(dir)).sort()).toEqual(['02-types', 'program.yaml']);
    await rm(join(dir, '02-types'), { recursive: true });
    await runSectionsList('prog_intro', { scaffold: dir }, school.io());
    expect(await readFile(join(dir, 'program.yaml'), 'utf8')).toBe('id: prog_intro # mine\n');
    expect(await readFile(join(dir, '02-types/section.yaml'), 'utf8')).toMatch(/id: "sec_types"/);
  });

  it.each([
    [0, 'Getting started', '01-getting-started'],
    [9, 'Part 1: Ünïcode & more', '10-part-1-unicode-more'],
    [2, '!!!', '03-section'],
  ])('folder name of section %i "%s" is %s', (i, name, folder) => {
    expect(sectionFolderName(i, name)).toBe(folder);
  });

  it('no token in any output', async () => {
    await runSectionsList('prog_intro', { json: true }, school.io());
    await runSectionsList('prog_intro', {}, school.io({ tty: true }));
    await school.fails(runSectionsList('prog_intro', {}, school.io({ token: PARTNER_SECRET })));
    await school.fails(runSectionsList('prog_intro', {}, school.io({ token: 'wrong-token' })));
    school.assertNoTokenLeaked();
  });
});
