/**
 * Check before any write (docs/cli.md#section-check): every section folder's id exists in the
 * school and belongs to its folder's program, through GET /sections (one listing per program).
 * A mistake is an error at `section.yaml:line:col` with the nearest real section as a hint, so a
 * typo is never found halfway through an apply and a lesson never lands in another program.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { diag } from '../compile/codes.js';
import { parseYaml } from '../compile/parse-yaml.js';
import { suggest } from '../compile/suggest.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { failure } from '../diagnostics/error-codes/index.js';
import { isCoursesyncError } from '../diagnostics/errors.js';
import type { DesiredState } from '../model/desired.js';
import type { SchoolClient } from '../school/client.js';
import { listProgramSections } from '../school/program-sections.js';
import type { Section } from '../school-api/wire/sections.js';

/** The sections of one program as GET /sections lists them. */
export type Listed = Section[];

/** Where `key` of a YAML file of the repo is (its value), or undefined when unreadable. */
async function placeIn(dir: string, file: string, key: string) {
  const text = await readFile(join(dir, file), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseYaml(text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'), file, []).placeOf([key]);
}

/**
 * @param sectionIds section folder → the id it resolves to
 * @param known sections already listed for a program (e.g. while resolving `name:`), reused
 * @returns every program's sections as listed (null: the program is unknown or not this key's)
 * @throws CoursesyncError `plan/sections-invalid` with one diagnostic per wrong section or program
 */
export async function verifySections(
  dir: string,
  desired: DesiredState,
  sectionIds: ReadonlyMap<string, string>,
  api: SchoolClient,
  known: ReadonlyMap<string, Listed> = new Map(),
): Promise<ReadonlyMap<string, Listed | null>> {
  const lists = new Map<string, Listed | null>(known);
  await Promise.all(
    desired.programs
      .filter((p) => !lists.has(p.id))
      .map(async (p) => {
        try {
          lists.set(p.id, await listProgramSections(api, p.id));
        } catch (e) {
          // A program this key cannot see is reported at its program.yaml below.
          if (isCoursesyncError(e) && (e.code === 'connection/not-found' || e.code === 'connection/forbidden')) lists.set(p.id, null);
          else throw e;
        }
      }),
  );
  const owner = new Map<string, string>();
  for (const p of desired.programs) for (const s of lists.get(p.id) ?? []) owner.set(s.id, p.id);

  const out: Diagnostic[] = [];
  for (const program of desired.programs) {
    const list = lists.get(program.id);
    if (list === null) {
      const file = `${program.path}/program.yaml`;
      out.push(diag('program/not-found', file, await placeIn(dir, file, 'id'), `the school has no program ${program.id} that this API token may see (GET /sections answered 403 or 404)`));
      continue;
    }
    for (const section of program.sections) {
      const id = sectionIds.get(section.path);
      if (id === undefined || list!.some((s) => s.id === id)) continue;
      const file = section.toc?.file ?? `${section.path}/section.yaml`;
      const place = section.toc ?? (await placeIn(dir, file, 'id' in section.ref ? 'id' : 'name'));
      const other = owner.get(id);
      const near = suggest(id, list!.map((s) => s.id));
      const hint = near
        ? `did you mean ${near} ("${list!.find((s) => s.id === near)!.name}")? Sections of ${program.id}: ${list!.map((s) => s.id).join(', ')}`
        : `sections of ${program.id}: ${list!.map((s) => `${s.id} ("${s.name}")`).join(', ') || 'none'}`;
      out.push(
        other !== undefined
          ? diag('section/other-program', file, place, `section ${id} belongs to program ${other}, not to ${program.id} (the program of ${program.path})`, hint)
          : diag('section/not-found', file, place, `program ${program.id} has no section ${id}`, hint),
      );
    }
  }
  if (out.length > 0) throw failure('plan/sections-invalid', { count: out.length }, { diagnostics: out });
  return lists;
}
