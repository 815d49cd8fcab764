/**
 * A generated course of ten sections over two programs, for the crash and fault runs: a first
 * version of creates, then a second version with creates, moves (within and across sections
 * and programs) and updates, with the school seed it syncs to and helpers that compare the
 * school with the desired state. Lesson names are unique (`L <key>…`), so an untracked lesson
 * in the school can be traced back to the key it was created for.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { readStateFile } from '../../src/state/state-file.js';
import { SECRET, schoolSections, type SchoolLesson } from '../apply/helpers.js';
import { writeRepo } from '../e2e/helpers.js';
import type { Rng } from './random.js';

export const SECTIONS = Array.from({ length: 10 }, (_, i) => `sec_${i + 1}`);
const programOf = (section: string) => (Number(section.slice(4)) <= 5 ? 'prog_one' : 'prog_two');

/** The school: two programs of five sections each, one key. */
export const SCENARIO_SEED = {
  api_keys: [{ token: SECRET, programs: 'all' as const }],
  programs: ['prog_one', 'prog_two'].map((id) => ({
    id,
    name: id,
    section_groups: [{ id: `grp_${id}`, name: 'All', position: 1 }],
    sections: SECTIONS.filter((s) => programOf(s) === id).map((s, i) => ({ id: s, name: s, section_group_id: `grp_${id}`, position: i + 1 })),
  })),
};

export interface DesiredLesson {
  key: string;
  name: string;
  drip: number;
  body: string;
}

/** Section id → its lessons in order. */
export type Course = Map<string, DesiredLesson[]>;

/** Version 1: `n` lessons spread over the ten sections (n creates). */
export function firstVersion(rng: Rng, n: number): Course {
  const course: Course = new Map(SECTIONS.map((s) => [s, []]));
  for (let i = 0; i < n; i++) {
    const key = `k${i}`;
    course.get(rng.pick(SECTIONS))!.push({ key, name: `L ${key}`, drip: 0, body: `Lesson ${key}.` });
  }
  return course;
}

/**
 * Version 2: about `changes` calls — a third creates, a third moves (to another section or
 * another place), a third updates (name, drip delay or body). Moves are counted by what the
 * planner needs: a lesson placed elsewhere is one call.
 */
export function secondVersion(rng: Rng, v1: Course, changes: number, firstNew: number): Course {
  const course: Course = new Map([...v1].map(([s, ls]) => [s, ls.map((l) => ({ ...l }))]));
  const all = () => [...course.values()].flat();
  const creates = Math.floor(changes / 3);
  const moves = Math.floor(changes / 3);
  const updates = changes - creates - moves;
  const touched = new Set<string>();
  const untouched = () => all().filter((l) => !touched.has(l.key));
  for (let i = 0; i < updates; i++) {
    const l = rng.pick(untouched());
    touched.add(l.key);
    const what = rng.int(0, 2);
    if (what === 0) l.name = `${l.name} (v2)`;
    else if (what === 1) l.drip = rng.int(1, 30);
    else l.body = `${l.body}\n\nUpdated.`;
  }
  for (let i = 0; i < moves; i++) {
    const l = rng.pick(untouched());
    touched.add(l.key);
    for (const ls of course.values()) {
      const at = ls.indexOf(l);
      if (at !== -1) ls.splice(at, 1);
    }
    const to = course.get(rng.pick(SECTIONS))!;
    to.splice(rng.int(0, to.length), 0, l);
  }
  for (let i = 0; i < creates; i++) {
    const key = `k${firstNew + i}`;
    const to = course.get(rng.pick(SECTIONS))!;
    to.splice(rng.int(0, to.length), 0, { key, name: `L ${key}`, drip: 0, body: `Lesson ${key}.` });
  }
  return course;
}

/** Write `course` as a repo in `dir` (replacing the lesson files of an earlier version). */
export async function writeCourse(course: Course, dir?: string): Promise<string> {
  const files: Record<string, string> = { 'coursesync.yaml': 'removed_lessons: keep\n' };
  for (const p of ['prog_one', 'prog_two']) files[`${p}/program.yaml`] = `id: ${p}\n`;
  for (const [section, lessons] of course) {
    const folder = `${programOf(section)}/${section}`;
    files[`${folder}/section.yaml`] = `id: ${section}\nlessons: [${lessons.map((l) => l.key).join(', ')}]\n`;
    for (const l of lessons) files[`${folder}/${l.key}.md`] = `---\nname: "${l.name}"\ndrip_delay: ${l.drip}\n${l.drip > 0 ? 'acknowledge: [drip-grows=365]\n' : ''}---\n${l.body}\n`;
  }
  if (dir) {
    // Lessons move between folders: remove the old lesson files first.
    for (const p of ['prog_one', 'prog_two']) {
      for (const s of await readdir(join(dir, p)).catch(() => [])) {
        for (const f of await readdir(join(dir, p, s)).catch(() => [])) if (f.endsWith('.md')) await rm(join(dir, p, s, f));
      }
    }
  }
  return writeRepo(files, dir);
}

export const envOf = (emu: RunningEmulator) => ({ COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url });

/** The state as the next process reads it: state.json with its journal replayed (it must parse). */
export async function readState(dir: string): Promise<any> {
  return (await readStateFile(dir)).state;
}

/** Lessons in the school that the state does not track, by section. */
export async function untracked(emu: RunningEmulator, state: any): Promise<SchoolLesson[]> {
  const ids = new Set(Object.values(state.lessons as Record<string, { id: string | null }>).map((l) => l.id));
  return [...(await schoolSections(emu)).values()].flat().filter((l) => !ids.has(l.id));
}

/**
 * How the school differs from `course`: per section, the names in order (only lessons the
 * state tracks; untracked ones are counted apart) and drip delays. Empty when equal.
 */
export async function differences(emu: RunningEmulator, course: Course, state: any): Promise<string[]> {
  const school = await schoolSections(emu);
  const tracked = new Set(Object.values(state.lessons as Record<string, { id: string | null }>).map((l) => l.id));
  const out: string[] = [];
  for (const [section, lessons] of course) {
    const have = (school.get(section) ?? []).filter((l) => tracked.has(l.id)) as Array<SchoolLesson & { drip_delay?: number }>;
    const want = lessons.map((l) => l.name);
    const got = have.map((l) => l.name);
    if (JSON.stringify(want) !== JSON.stringify(got)) out.push(`${section}: want [${want.join(', ')}] got [${got.join(', ')}]`);
    lessons.forEach((l, i) => {
      const g = have[i];
      if (g && g.name === l.name && g.drip_delay !== undefined && g.drip_delay !== l.drip) out.push(`${section} ${l.key}: drip ${g.drip_delay} ≠ ${l.drip}`);
    });
  }
  return out;
}
