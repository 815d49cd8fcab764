/** Listing a program's sections (every page, errors explained) and finding one by its exact name. */
import { describe, expect, it } from 'vitest';
import { listProgramSections, sectionNamed } from '../../src/school/program-sections.js';
import type { Section } from '../../src/school-api/wire/sections.js';
import { caught, useEmulator } from './emulator-fixture.js';

const ctx = useEmulator();

describe('listProgramSections', () => {
  it('lists every section of a program from the school', async () => {
    const sections = await listProgramSections(ctx.client(), 'prog_intro');
    expect(sections.map((s) => s.id)).toContain('sec_start');
    expect(sections.every((s) => s.product_id === 'prog_intro')).toBe(true);
  });

  it('an unknown program is explained, naming the program', async () => {
    const e = await caught(listProgramSections(ctx.client(), 'prog_nope'));
    expect(e.code).toBe('connection/not-found');
    expect(e.message).toContain('program prog_nope');
  });
});

describe('sectionNamed', () => {
  const section = (id: string, name: string) => ({ id, name }) as Section;
  const list = [section('sec_1', 'Getting started'), section('sec_2', 'Types'), section('sec_3', 'Types')];
  const where = { path: 'intro/01-start', programId: 'prog_intro' };

  it('finds the one section with exactly that name', () => {
    expect(sectionNamed(list, 'Getting started', where).id).toBe('sec_1');
  });

  it('none or several is an error at the section.yaml that lists the program\'s sections', () => {
    expect(() => sectionNamed(list, 'getting started', where)).toThrow(expect.objectContaining({ code: 'plan/section-not-found', message: 'intro/01-start/section.yaml: program prog_intro has no section named "getting started"', hint: expect.stringContaining('"Getting started" (sec_1), "Types" (sec_2)') }));
    expect(() => sectionNamed(list, 'Types', where)).toThrow(expect.objectContaining({ code: 'plan/section-ambiguous', message: 'intro/01-start/section.yaml: program prog_intro has 2 sections named "Types"' }));
  });
});
