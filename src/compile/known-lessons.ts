/**
 * The lessons a state knows compiled clean by a given compiler, as compile takes them
 * (compile-course.ts `known`): by file path, with the fields last applied, the files they
 * referenced and their digest; and where the school has each tracked lesson, for the digests
 * of links to it.
 */
import type { KnownByPath, KnownLesson, KnownLessons } from './lesson-builds.js';
import type { LinkPlace } from '../model/desired.js';
import { isRecordedCode, type LessonState, type StateData } from '../model/state/schema.js';
import { parseDepRecord, parseInputs } from './lesson-digest.js';

/**
 * What `state` knows of lessons compiled by `compiler` (the short compiler digest). One pass
 * over the state's lessons that builds one map (file path → key and entry); each answer (a known lesson,
 * a place) is made from the state's entry when it is asked for: at 10,000 lessons this runs on
 * every plan, before anything else can start, and a pass that built them all cost ~90 ms.
 * The answers read `state` when first asked, and are kept: it must not change while they are in
 * use (a compile).
 */
export function knownLessonsOf(state: Readonly<StateData>, compiler: string): KnownLessons {
  const busy = new Set(Object.values(state.pending).map((p) => p.key));
  // Path → its key and entry (the pair entryAt answers with, made once).
  const byPath = new Map<string, [string, LessonState]>();
  // Path → the last entry there this compiler knows, as a pass in key order finds it: what get answers from.
  const knownAt = new Map<string, [string, LessonState]>();
  // Paths two entries claim (a hand-edited state): answered as a pass in key order would, last one wins.
  let shared: Set<string> | undefined;
  let size = 0;
  const isKnown = (key: string, l: Readonly<LessonState>) => isPlaced(l) && l.digest !== undefined && l.compiler === compiler && !busy.has(key) && reportsAgain(l);
  for (const key in state.lessons) {
    const l = state.lessons[key]!;
    if (byPath.has(l.path)) (shared ??= new Set()).add(l.path);
    const pair: [string, LessonState] = [key, l];
    byPath.set(l.path, pair);
    if (isKnown(key, l)) {
      knownAt.set(l.path, pair);
      size++;
    }
  }
  /** The last entry at `path` that `ok` takes (the one entry there, but for a shared path). */
  const entryAt = (path: string, ok: (key: string, l: Readonly<LessonState>) => boolean): [string, LessonState] | undefined => {
    if (shared?.has(path)) {
      let found: [string, LessonState] | undefined;
      for (const key in state.lessons) if (state.lessons[key]!.path === path && ok(key, state.lessons[key]!)) found = [key, state.lessons[key]!];
      return found;
    }
    const found = byPath.get(path);
    return found && ok(found[0], found[1]) ? found : undefined;
  };
  // Each answer made once: a plan may make them all while it waits for the read (prepareKnown).
  const made = new Map<string, KnownLesson | undefined>();
  const lessons: KnownByPath = {
    size,
    get(path) {
      let known = made.get(path);
      if (known === undefined && !made.has(path)) {
        const found = knownAt.get(path);
        made.set(path, (known = found && knownLesson(found[0], found[1], found[1].digest!)));
      }
      return known;
    },
    keys: () => knownAt.keys(),
  };
  return {
    lessons,
    placeOf: (path) => {
      const found = entryAt(path, placed);
      return found && placeText(found[1]);
    },
    keyAt: (path) => byPath.get(path)?.[0],
  };
}

/**
 * Make every answer of `known` ahead of its asking, `chunk` lessons a step: a plan of a fresh
 * checkout runs the steps while its main thread would otherwise wait for the read
 * (load/read-aside.ts), and the frame then finds them made.
 */
export function* prepareKnown(known: KnownLessons, chunk = 500): Generator<void> {
  let n = 0;
  for (const path of known.lessons.keys()) {
    known.lessons.get(path);
    if (++n % chunk === 0) yield;
  }
}

/** Whether every warning recorded with it is one this coursesync reports from a record (a later one may record more). */
const reportsAgain = (l: Readonly<LessonState>): boolean => l.warnings === undefined || l.warnings.every((w) => isRecordedCode(w.code));

/** Whether the school has the lesson for sure (an id, no create in doubt). */
const isPlaced = (l: Readonly<LessonState>): boolean => l.id !== null && !l.uncertain;
const placed = (_: string, l: Readonly<LessonState>): boolean => isPlaced(l);

/** A lesson the state recorded compiled clean, as compile takes it. */
function knownLesson(key: string, l: Readonly<LessonState>, digest: string): KnownLesson {
  const deps: string[] = [];
  let links: Map<string, LinkPlace[]> | undefined;
  let pages: string[] | undefined;
  for (const record of l.deps ?? []) {
    const dep = depPathOf(record) ?? parseDepRecord(record);
    if (typeof dep === 'string') {
      deps.push(dep);
      continue;
    }
    if (dep.page) {
      (pages ??= []).push(dep.path);
      continue;
    }
    deps.push(dep.path);
    if (dep.at !== undefined) (links ??= new Map()).set(dep.path, dep.at);
  }
  const known: KnownLesson = { key, aliases: l.aliases ?? [], fields: l.applied, deps, digest };
  if (pages) known.pages = pages;
  if (links) known.lessonLinks = links;
  if (l.acknowledge) known.acknowledge = l.acknowledge;
  if (l.inputs) {
    const inputs = parseInputs(l.inputs);
    if (inputs.includes.size > 0) known.includes = [...inputs.includes.keys()];
    if (inputs.vars.size > 0) known.vars = [...inputs.vars.keys()];
  }
  if (l.warnings) known.warnings = l.warnings;
  return known;
}

/**
 * The path of a `deps` record that ends in `@` and 4 hex (nearly every one: no link places),
 * as parseDepRecord reads it, without its regular expression; undefined for any other record
 * (one ending in `@page` among them).
 */
function depPathOf(record: string): string | undefined {
  const n = record.length;
  if (n < 6 || record.charCodeAt(n - 5) !== 64 /* @ */) return undefined;
  for (let i = n - 4; i < n; i++) {
    const c = record.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return undefined;
  }
  return record.slice(0, n - 5);
}

/** Where the school has a tracked lesson (`program/id`): what a link to it holds. */
const placeText = (l: Readonly<LessonState>): string => `${l.program_id}/${l.id}`;

/** Where the school has each tracked lesson, by file path (`program/id`): what a link to it holds. */
export function placesOf(state: Readonly<StateData>): (path: string) => string | undefined {
  const places = new Map<string, string>();
  for (const l of Object.values(state.lessons)) if (l.id !== null && !l.uncertain) places.set(l.path, placeText(l));
  return (path) => places.get(path);
}
