/**
 * The sections of a program, as the commands need them: every page of GET /sections, and the
 * one section a `name:` in section.yaml names (exactly one match, or an error that lists them).
 */
import { failure } from '../diagnostics/error-codes/index.js';
import type { SchoolClient } from './client.js';
import { explainSchoolError } from './connection.js';
import type { Section } from '../school-api/wire/sections.js';

/**
 * Every section of `programId`, all pages.
 * @throws the school's error explained with the program named (`connection/not-found`, …)
 */
export async function listProgramSections(client: SchoolClient, programId: string): Promise<Section[]> {
  const list: Section[] = [];
  try {
    for await (const s of client.sections.list({ product_id: programId })) list.push(s);
  } catch (e) {
    throw explainSchoolError(e, `program ${programId}`);
  }
  return list;
}

/**
 * The section of `sections` whose name is exactly `name` (section.yaml at `path`, or the book chapter at `file`, gives it).
 * @throws CoursesyncError `plan/section-not-found` or `plan/section-ambiguous`, listing the program's sections
 */
export function sectionNamed(sections: readonly Section[], name: string, where: { path: string; programId: string; file?: string }): Section {
  const hits = sections.filter((s) => s.name === name);
  if (hits.length === 1) return hits[0]!;
  const args = { path: where.file ?? `${where.path}/section.yaml`, programId: where.programId, name, sections: sections.map((x) => `"${x.name}" (${x.id})`).join(', ') || 'none' };
  throw hits.length === 0 ? failure('plan/section-not-found', args) : failure('plan/section-ambiguous', { ...args, count: hits.length });
}
