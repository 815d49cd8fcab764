/**
 * The course repo as import, duplicate and clone need it (I/O): the compiled repo, its state
 * with the lock held, a school client, and the lookups those commands share (a section folder
 * and its school id, the keys already taken, free file names).
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { readdir } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { resolveConnection, type ConnectionFlags } from '../school/connection.js';
import { listProgramSections, sectionNamed } from '../school/program-sections.js';
import { keyFromFileName } from '../compile/compile-lesson.js';
import { compareNatural } from '../compile/natural-order.js';
import { sectionSource, type DesiredLesson, type DesiredProgram, type DesiredSection, type DesiredState } from '../model/desired.js';
import { LESSON_KEY_PATTERN } from '../model/lesson.js';
import { slugify } from '../model/program-folder.js';
import { createSchoolClient, type SchoolClient } from '../school/client.js';
import { loadCourse } from '../load/load-course.js';
import { StateStore } from '../state/state-store.js';
import { checkBaseUrl } from '../state/check-environment.js';
import { checkStateEnvironment } from '../state/check-environment.js';
import { stampEnvironment } from '../state/stamp-environment.js';

export interface OpenRepoOptions extends ConnectionFlags {
  env?: NodeJS.ProcessEnv;
  /** A client to use instead of one made from the connection settings (tests). */
  client?: SchoolClient;
  forceUnlock?: boolean;
  onNotice?: (message: string) => void;
  /** The environment chosen with --env, in a repo with environments (docs/environments.md). */
  environment?: string | undefined;
}

/** A course repo opened for a command that writes files and state. Close it with `close()`. */
export interface OpenRepo {
  /** Absolute folder of the repo. */
  dir: string;
  desired: DesiredState;
  store: StateStore;
  client: SchoolClient;
  baseUrl: string;
  close(): Promise<void>;
}

/** Where a section folder sits in the repo, and its school id. */
export interface SectionPlace {
  program: DesiredProgram;
  section: DesiredSection;
  sectionId: string;
  /** Absolute folder. */
  abs: string;
}

/**
 * Open the repo at `dir`: it must be valid (as for plan), the state must belong to the school,
 * and the state lock is held until `close()`.
 */
export async function openRepo(dir: string, options: OpenRepoOptions = {}): Promise<OpenRepo> {
  const abs = resolve(dir);
  const environment = options.environment;
  const result = await loadCourse(abs, { environment });
  if (!result.desired) {
    const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
    throw failure('course/invalid', { dir, errors, action: 'changed' }, { diagnostics: result.diagnostics });
  }
  const desired = result.desired;
  const connection = resolveConnection({ flags: options, config: desired.config, env: options.env ?? process.env, environment });
  const store = await StateStore.load(abs, { lock: true, force: options.forceUnlock, warn: options.onNotice, environment });
  try {
    checkStateEnvironment(store.data, store.file, environment, desired);
    checkBaseUrl(store.data, connection.baseUrl, store.file);
    // What these commands record belongs to this environment from the first write.
    if (environment !== undefined && store.data.environment !== environment) await store.update((d) => stampEnvironment(d, environment, desired));
  } catch (e) {
    await store.close();
    throw e;
  }
  const client = options.client ?? createSchoolClient({ baseUrl: connection.baseUrl, token: connection.token, timeoutMs: connection.timeoutMs });
  return { dir: abs, desired, store, client, baseUrl: connection.baseUrl, close: () => store.close() };
}

/** Repo-relative path with `/` separators. */
export function repoPath(repo: OpenRepo, abs: string): string {
  return relative(repo.dir, abs).split(sep).join('/');
}

/** Every section of the repo with its program. */
function sections(desired: DesiredState): Array<{ program: DesiredProgram; section: DesiredSection }> {
  return desired.programs.flatMap((program) => program.sections.map((section) => ({ program, section })));
}

/** The school id of a section: `id:`, a `name:` the state resolved, or GET /sections (recorded in state). */
export async function sectionIdOf(repo: OpenRepo, program: DesiredProgram, section: DesiredSection): Promise<string> {
  if ('id' in section.ref) return section.ref.id;
  const name = section.ref.name;
  const known = repo.store.data.sections[section.path];
  if (known && known.name === name && known.program_id === program.id) return known.id;
  const { id } = sectionNamed(await listProgramSections(repo.client, program.id), name, { path: section.path, programId: program.id, file: sectionSource(section) });
  await repo.store.update((d) => {
    d.sections[section.path] = { id, name, program_id: program.id };
  });
  return id;
}

/**
 * The section folder `arg` (a path, relative to the current folder) of the repo.
 * @throws CoursesyncError `clone/not-a-section` naming the folder and what a section folder is
 */
export async function findSectionFolder(repo: OpenRepo, arg: string): Promise<SectionPlace> {
  const abs = resolve(arg);
  const rel = repoPath(repo, abs);
  for (const { program, section } of sections(repo.desired)) {
    if (section.path === rel) return { program, section, sectionId: await sectionIdOf(repo, program, section), abs };
  }
  throw failure('clone/not-a-section', { arg, dir: repo.dir });
}

/**
 * A section given as a folder (when `arg` is one) or as a school section id. For an id, the
 * repo folder of that section, if any (`folder` undefined when the repo has none).
 */
export async function findSection(repo: OpenRepo, arg: string): Promise<{ sectionId: string; folder?: SectionPlace }> {
  const isDir = await readdir(resolve(arg)).then(() => true, () => false);
  if (isDir) {
    const folder = await findSectionFolder(repo, arg);
    return { sectionId: folder.sectionId, folder };
  }
  if (/[\\/]/.test(arg)) {
    throw failure('clone/not-a-section', { arg, dir: repo.dir, idAllowed: true });
  }
  for (const { program, section } of sections(repo.desired)) {
    const known = 'id' in section.ref ? section.ref.id : repo.store.data.sections[section.path]?.id;
    if (known === arg) return { sectionId: arg, folder: { program, section, sectionId: arg, abs: resolve(repo.dir, section.path) } };
  }
  return { sectionId: arg };
}

/** Every key and alias in use: repo files, state entries, plus `extra`. */
export function takenKeys(repo: OpenRepo, extra: Iterable<string> = []): Set<string> {
  const taken = new Set<string>(extra);
  for (const { section } of sections(repo.desired)) for (const l of section.lessons) for (const k of [l.key, ...l.aliases]) taken.add(k);
  for (const k of Object.keys(repo.store.data.lessons)) taken.add(k);
  return taken;
}

/** The repo lesson with this key, and where it is. */
export function findLessonByKey(desired: DesiredState, key: string): { program: DesiredProgram; section: DesiredSection; lesson: DesiredLesson } | undefined {
  for (const { program, section } of sections(desired)) for (const lesson of section.lessons) if (lesson.key === key) return { program, section, lesson };
  return undefined;
}

/** A key from a name: lower-case letters, digits and `-`; never empty. */
export function slugKey(name: string): string {
  const slug = slugify(name);
  return LESSON_KEY_PATTERN.test(slug) ? slug : 'lesson';
}

/** `base`, else `base-2`, `base-3`, …: the first not in `taken` (which it is added to). */
export function uniqueKey(base: string, taken: Set<string>): string {
  let key = base;
  for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
  taken.add(key);
  return key;
}

/** Lesson file names of a folder (natural order). */
export async function lessonFileNames(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.md')).map((e) => e.name).sort(compareNatural);
}

const PREFIX = /^(\d+)[-_.]/;

/**
 * File names for `count` new lessons of a folder so that, in natural file-name order, they come
 * at `index` (0-based among the folder's lessons; default: after the last) in the given order.
 * Numbers are taken from the gap between the neighbours' numeric prefixes, else (one file) a
 * letter after the previous number (`01a-`).
 * @throws CoursesyncError `clone/no-free-name` when the neighbours leave no free number
 */
export function newFileNames(existing: readonly string[], keys: readonly string[], index?: number): string[] {
  const numbers = existing.map((n) => PREFIX.exec(n)).map((m) => (m ? Number(m[1]) : null));
  const width = Math.max(2, ...existing.map((n) => PREFIX.exec(n)?.[1]?.length ?? 0));
  const at = index === undefined ? existing.length : Math.max(0, Math.min(index, existing.length));
  const before = numbers.slice(0, at).filter((n): n is number => n !== null);
  // Number 0 is free before a folder that starts at 1.
  const low = before.length > 0 ? Math.max(...before) : at === 0 ? (at < existing.length ? -1 : 0) : existing.length;
  const after = numbers.slice(at).filter((n): n is number => n !== null);
  const high = at < existing.length ? (after.length > 0 ? Math.min(...after) : Infinity) : Infinity;
  const unnumbered = numbers.some((n) => n === null);
  if (high - low - 1 >= keys.length && !(unnumbered && index !== undefined && at < existing.length)) {
    return keys.map((key, i) => `${String(low + 1 + i).padStart(width, '0')}-${key}.md`);
  }
  // No free number: a letter after the previous file's number (`01a-`, `01b-`) sorts between
  // the neighbours in natural order; checked by sorting, never assumed.
  const prev = at > 0 ? PREFIX.exec(existing[at - 1]!)?.[1] : undefined;
  if (prev !== undefined && keys.length === 1) {
    for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
      const name = `${prev}${letter}-${keys[0]}.md`;
      const sorted = [...existing, name].sort(compareNatural);
      if (!existing.includes(name) && sorted.indexOf(name) === at) return [name];
    }
  }
  throw failure('clone/no-free-name', { before: existing[at - 1] ?? '(start)', after: existing[at] ?? '(end)', count: keys.length });
}

/** The key a lesson file name gives (no explicit `key:`). */
export { keyFromFileName };

/** Whether a section folder's section.yaml lists its lessons (`lessons:`), which new files would break. */
export async function hasLessonsList(folder: string): Promise<boolean> {
  const { readYamlLeniently } = await import('../source/read-yaml-leniently.js');
  const value = await readYamlLeniently(resolve(folder, 'section.yaml'));
  return typeof value === 'object' && value !== null && 'lessons' in value;
}

/** Refuse a destination folder whose section.yaml lists the lesson order: a new file would make it invalid. */
export async function checkNoLessonsList(folder: SectionPlace): Promise<void> {
  if (!(await hasLessonsList(folder.abs))) return;
  throw failure('clone/section-has-lessons-list', { path: folder.section.path });
}
