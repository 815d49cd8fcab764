/**
 * The lessons a state knows compiled clean by a given compiler, as compile takes them
 * (compile-course.ts `known`): by file path, with the fields last applied, the files they
 * referenced and their digest; and where the school has each tracked lesson, for the digests
 * of links to it.
 */
import type { KnownLesson, KnownLessons } from './compile-course.js';
import type { LinkPlace } from '../model/desired.js';
import type { LessonState, StateData } from '../model/state/schema.js';
import { parseDepRecord, parseInputs } from './lesson-digest.js';

/**
 * What `state` knows of lessons compiled by `compiler` (the short compiler digest). One pass
 * over the state's lessons, and no object a lesson does not need: at 10,000 lessons this runs
 * on every plan, before anything else can start.
 */
export function knownLessonsOf(state: Readonly<StateData>, compiler: string): KnownLessons {
  const busy = new Set(Object.values(state.pending).map((p) => p.key));
  const lessons = new Map<string, KnownLesson>();
  const keys = new Map<string, string>();
  const places = new Map<string, string>();
  for (const [key, l] of Object.entries(state.lessons)) {
    keys.set(l.path, key);
    if (l.id === null || l.uncertain) continue;
    places.set(l.path, placeText(l));
    if (l.digest === undefined || l.compiler !== compiler || busy.has(key)) continue;
    lessons.set(l.path, knownLesson(key, l, l.digest));
  }
  return { lessons, placeOf: (path) => places.get(path), keyAt: (path) => keys.get(path) };
}

/** A lesson the state recorded compiled clean, as compile takes it. */
function knownLesson(key: string, l: Readonly<LessonState>, digest: string): KnownLesson {
  const deps: string[] = [];
  let links: Map<string, LinkPlace[]> | undefined;
  for (const record of l.deps ?? []) {
    const dep = parseDepRecord(record);
    deps.push(dep.path);
    if (dep.at !== undefined) (links ??= new Map()).set(dep.path, dep.at);
  }
  const known: KnownLesson = { key, aliases: l.aliases ?? [], fields: l.applied, deps, digest };
  if (links) known.lessonLinks = links;
  if (l.acknowledge) known.acknowledge = l.acknowledge;
  if (l.inputs) {
    const inputs = parseInputs(l.inputs);
    if (inputs.includes.size > 0) known.includes = [...inputs.includes.keys()];
    if (inputs.vars.size > 0) known.vars = [...inputs.vars.keys()];
  }
  return known;
}

/** Where the school has a tracked lesson (`program/id`): what a link to it holds. */
const placeText = (l: Readonly<LessonState>): string => `${l.program_id}/${l.id}`;

/** Where the school has each tracked lesson, by file path (`program/id`): what a link to it holds. */
export function placesOf(state: Readonly<StateData>): (path: string) => string | undefined {
  const places = new Map<string, string>();
  for (const l of Object.values(state.lessons)) if (l.id !== null && !l.uncertain) places.set(l.path, placeText(l));
  return (path) => places.get(path);
}
