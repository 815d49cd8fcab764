/**
 * The lessons a state knows compiled clean by a given compiler, as compile takes them
 * (compile-course.ts `known`): by file path, with the fields last applied, the files they
 * referenced and their digest; and where the school has each tracked lesson, for the digests
 * of links to it.
 */
import type { KnownLesson, KnownLessons } from './compile-course.js';
import type { StateData } from '../model/state/schema.js';
import { parseDepRecord, parseInputs } from './lesson-digest.js';

/** What `state` knows of lessons compiled by `compiler` (the short compiler digest). */
export function knownLessonsOf(state: Readonly<StateData>, compiler: string): KnownLessons {
  const busy = new Set(Object.values(state.pending).map((p) => p.key));
  const lessons = new Map<string, KnownLesson>();
  for (const [key, l] of Object.entries(state.lessons)) {
    if (l.id === null || l.uncertain) continue;
    if (l.digest === undefined || l.compiler !== compiler || busy.has(key)) continue;
    const deps = (l.deps ?? []).map(parseDepRecord);
    const known: KnownLesson = { key, aliases: l.aliases ?? [], fields: l.applied, deps: deps.map((d) => d.path), digest: l.digest };
    const links = deps.filter((d) => d.at !== undefined);
    if (links.length > 0) known.lessonLinks = new Map(links.map((d) => [d.path, d.at!]));
    if (l.acknowledge) known.acknowledge = l.acknowledge;
    const inputs = parseInputs(l.inputs);
    if (inputs.includes.size > 0) known.includes = [...inputs.includes.keys()];
    if (inputs.vars.size > 0) known.vars = [...inputs.vars.keys()];
    lessons.set(l.path, known);
  }
  const keys = new Map(Object.entries(state.lessons).map(([key, l]) => [l.path, key]));
  return { lessons, placeOf: placesOf(state), keyAt: (path) => keys.get(path) };
}

/** Where the school has each tracked lesson, by file path (`program/id`): what a link to it holds. */
export function placesOf(state: Readonly<StateData>): (path: string) => string | undefined {
  const places = new Map<string, string>();
  for (const l of Object.values(state.lessons)) if (l.id !== null && !l.uncertain) places.set(l.path, `${l.program_id}/${l.id}`);
  return (path) => places.get(path);
}
