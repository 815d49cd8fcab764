/**
 * `coursesync import` (I/O composer): adopt existing school lessons into the repo.
 * - into a section folder: read each lesson (`PATCH {}` changes nothing and returns it), write
 *   one file per lesson (never over an existing file), record state so the next plan is empty;
 * - `--key KEY`: adopt one lesson into the existing file of KEY (state only). This is how an
 *   uncertain create is settled: the last-applied values are the school's, so the next plan
 *   shows exactly what the file would still change.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { writeFile, access, readFile } from 'node:fs/promises';
import { parseYamlLeniently } from '../source/read-yaml-leniently.js';
import type { LessonDefaults } from '../model/lesson.js';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { explainSchoolError } from '../school/connection.js';
import { writeFileAtomic } from '../state/state-file.js';
import type { Lesson } from '../school-api/wire/lessons.js';
import { lessonToFile } from './lesson-file.js';
import {
  checkNoLessonsList,
  findLessonByKey,
  findSectionFolder,
  lessonFileNames,
  openRepo,
  slugKey,
  takenKeys,
  uniqueKey,
  type OpenRepo,
  type OpenRepoOptions,
} from './open-repo.js';
import { keyOfLessonId, recordAdopted, type Adopted } from './record-adopted.js';
import { DEFAULT_CONCURRENCY } from '../model/config.js';

export interface ImportOptions extends OpenRepoOptions {
  /** Section folder to write the files into (not with `key`). */
  into?: string;
  /** Adopt the one lesson into the existing file of this key (state only). */
  key?: string;
  keepHtml?: boolean;
  /**
   * With `key`: also write the school's version of the lesson into the file of KEY, keeping an
   * edit made in the school (drift) instead of sending the repo's values back.
   */
  writeFile?: boolean;
  concurrency?: number;
}

export interface ImportedLesson {
  id: string;
  key: string;
  path: string;
  name: string;
  /** Why the body stayed HTML; null when it is Markdown (always null for `--key`). */
  keptAsHtml: string | null;
  notes: string[];
  /** The lesson's school section when it differs from the folder's: the next plan moves it. */
  movesFrom: string | null;
}

export interface ImportResult {
  lessons: ImportedLesson[];
  /** `--key`: whether an uncertain create was settled. */
  resolvedUncertain: boolean;
}

async function readLessons(repo: OpenRepo, ids: readonly string[], concurrency: number): Promise<Lesson[]> {
  const limit = pLimit(concurrency);
  return Promise.all(
    ids.map((id) =>
      limit(async () => {
        try {
          return await repo.client.lessons.update(id, {});
        } catch (e) {
          throw explainSchoolError(e, `lesson ${id}`);
        }
      }),
    ),
  );
}

/** Refuse ids the state already tracks (under another key than `except`). */
function checkUntracked(repo: OpenRepo, ids: readonly string[], except?: string): void {
  for (const id of ids) {
    const key = keyOfLessonId(repo.store.data, id);
    if (key === undefined || key === except) continue;
    const path = repo.store.data.lessons[key]!.path;
    throw failure('import/already-tracked', { id, key, path });
  }
}

/** Import lessons by id (see the file header). The repo lock is held throughout. */
export async function importLessons(dir: string, ids: readonly string[], options: ImportOptions): Promise<ImportResult> {
  if (ids.length === 0) throw failure('import/no-ids', {});
  if (new Set(ids).size !== ids.length) throw failure('import/duplicate-id', {});
  if ((options.into === undefined) === (options.key === undefined)) {
    throw failure('import/into-or-key', { both: options.key !== undefined });
  }
  if (options.writeFile && options.key === undefined) {
    throw failure('import/write-file-needs-key', {});
  }
  const repo = await openRepo(dir, options);
  try {
    return options.key !== undefined ? await adoptIntoKey(repo, ids, options.key, options) : await importInto(repo, ids, options.into!, options);
  } finally {
    await repo.close();
  }
}

/** The lesson defaults a file of the section folder inherits: the section's over its program's over the repo's. */
async function inheritedDefaults(repo: OpenRepo, programPath: string, sectionPath: string): Promise<LessonDefaults> {
  const own = async (file: string) => (parseYamlLeniently(await readFile(join(repo.dir, file), 'utf8')) as { lesson_defaults?: LessonDefaults } | null)?.lesson_defaults;
  return { ...repo.desired.config.lesson_defaults, ...(await own(join(programPath, 'program.yaml'))), ...(await own(join(sectionPath, 'section.yaml'))) };
}

async function adoptIntoKey(repo: OpenRepo, ids: readonly string[], key: string, options: ImportOptions): Promise<ImportResult> {
  if (ids.length !== 1) throw failure('import/key-one-id', { count: ids.length, key });
  const id = ids[0]!;
  const found = findLessonByKey(repo.desired, key);
  if (!found) {
    throw failure('import/unknown-key', { key });
  }
  const prior = repo.store.data.lessons[key];
  if (prior && prior.id !== null && prior.id !== id) {
    throw failure('import/key-tracked', { key, tracked: prior.id, id });
  }
  checkUntracked(repo, ids, key);
  const [lesson] = await readLessons(repo, ids, 1);
  // Last-applied = the school's own values (its HTML kept as is): the plan then shows exactly
  // what the file still changes, and nothing when the lesson was created from this file.
  // Written into the repo, the file holds only what differs from what it inherits.
  const inherited = options.writeFile ? await inheritedDefaults(repo, found.program.path, found.section.path) : undefined;
  const file = lessonToFile(lesson!, { key, path: found.lesson.path, keepHtml: options.writeFile ? options.keepHtml : true, inherited });
  // The file first: a kill before the state is written leaves a plan that sends the file's
  // (now the school's) values, which changes nothing in the school.
  if (options.writeFile) await writeFileAtomic(join(repo.dir, found.lesson.path), file.text);
  const resolvedUncertain = prior?.id === null || Object.values(repo.store.data.pending).some((p) => p.action === 'create' && p.key === key);
  const sectionId = 'id' in found.section.ref ? found.section.ref.id : repo.store.data.sections[found.section.path]?.id;
  await recordAdopted(repo.store, [{ key, lesson: lesson!, programId: found.program.id, path: found.lesson.path, applied: file.fields }], repo.baseUrl);
  return {
    resolvedUncertain,
    lessons: [{ id, key, path: found.lesson.path, name: lesson!.name, keptAsHtml: options.writeFile ? file.keptAsHtml : null, notes: file.notes, movesFrom: sectionId !== undefined && sectionId !== lesson!.section_id ? lesson!.section_id : null }],
  };
}

async function importInto(repo: OpenRepo, ids: readonly string[], into: string, options: ImportOptions): Promise<ImportResult> {
  const folder = await findSectionFolder(repo, into);
  await checkNoLessonsList(folder);
  checkUntracked(repo, ids);
  const lessons = await readLessons(repo, ids, options.concurrency ?? repo.desired.config.apply?.concurrency ?? DEFAULT_CONCURRENCY);

  // Files are numbered by school position, so file order is school order and nothing moves.
  const taken = takenKeys(repo);
  const width = Math.max(2, String(Math.max(...lessons.map((l) => l.position))).length);
  const existing = new Set(await lessonFileNames(folder.abs));
  const planned = lessons.map((lesson) => {
    const key = uniqueKey(slugKey(lesson.name), taken);
    const name = `${String(lesson.position).padStart(width, '0')}-${key}.md`;
    return { lesson, key, name, path: `${folder.section.path}/${name}` };
  });
  const clashes: string[] = [];
  for (const p of planned) if (existing.has(p.name) || (await access(join(folder.abs, p.name)).then(() => true, () => false))) clashes.push(p.path);
  if (clashes.length > 0) {
    throw failure('import/file-exists', { clashes });
  }
  const files = planned.map((p) => ({ ...p, file: lessonToFile(p.lesson, { key: p.key, path: p.path, keepHtml: options.keepHtml }) }));
  for (const f of files) await writeFile(join(folder.abs, f.name), f.file.text, { flag: 'wx' });
  const adopted: Adopted[] = files.map((f) => ({ key: f.key, lesson: f.lesson, programId: folder.program.id, path: f.path, applied: f.file.fields }));
  await recordAdopted(repo.store, adopted, repo.baseUrl);
  return {
    resolvedUncertain: false,
    lessons: files.map((f) => ({
      id: f.lesson.id,
      key: f.key,
      path: f.path,
      name: f.lesson.name,
      keptAsHtml: f.file.keptAsHtml,
      notes: f.file.notes,
      movesFrom: f.lesson.section_id !== folder.sectionId ? f.lesson.section_id : null,
    })),
  };
}
