/**
 * `coursesync duplicate lesson|section` (I/O composer): server-side copies (content, media and
 * steps kept) through POST /lessons/{id}/duplicate.
 *
 * 1. The job (request id, the new keys and file paths) is written to the journal before the
 *    first request; each copy's idempotency key is a hash of source, destination, name and the
 *    request id, so a re-run after an interruption polls the same operations and makes no
 *    second copy.
 * 2. Copies start in section order, at most `concurrency` at a time; each is polled until it
 *    completes or fails. A completed copy's file is written into the destination folder (fresh
 *    key, `copied_from`, `is_published: false` as copies are unpublished) and recorded in state.
 * 3. The normal planner then runs, and the calls it plans for the new lessons (the requested
 *    position, or the section order when copies finished out of order) are applied with
 *    applyPlan, so the next plan is empty.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pLimit from 'p-limit';
import { applyPlan, type ApplyResult } from '../apply/apply-plan.js';
import { explainSchoolError } from '../school/connection.js';
import { buildPlan } from '../sync/build-plan.js';
import type { StateData } from '../model/state/schema.js';
import { CoursesyncError } from '../diagnostics/errors.js';
import type { Plan } from '../plan/plan-schema.js';
import { isCall } from '../plan/plan-steps.js';
import { OperationFailedError, SchoolApiError } from '../school/errors.js';
import { waitForOperation } from '../school/operations.js';
import { LessonSchema, type Lesson } from '../school-api/wire/lessons.js';
import type { LessonOperation } from '../school-api/wire/operations.js';
import { duplicationKey } from './idempotency-key.js';
import { readJournal, writeJournal, type Job, type JobItem, type Journal } from './journal.js';
import { lessonToFile } from './lesson-file.js';
import {
  checkNoLessonsList,
  findSection,
  findSectionFolder,
  lessonFileNames,
  newFileNames,
  openRepo,
  repoPath,
  slugKey,
  takenKeys,
  uniqueKey,
  type OpenRepo,
  type OpenRepoOptions,
  type SectionPlace,
} from './open-repo.js';
import { keyOfLessonId, recordAdopted } from './record-adopted.js';
import { DEFAULT_CONCURRENCY } from '../model/config.js';

export interface DuplicateLessonsOptions extends OpenRepoOptions {
  /** Destination: a section folder of the repo, or a section id. */
  to: string;
  /** Lesson copy only: its name (default: the school's "Copy of …"). */
  name?: string;
  /** Lesson copy only: 1-based place among the destination folder's lessons (default: last). */
  position?: number;
  /** Makes the idempotency keys; default: recorded in the journal on the first run. */
  requestId?: string;
  concurrency?: number;
  /** Per copy: give up waiting after this long (the job stays in the journal; a re-run resumes it). */
  timeoutMs?: number;
  /** Pause between polls (default 250 ms). */
  intervalMs?: number;
  onProgress?: (event: DuplicateProgress) => void;
}

export type DuplicateProgress =
  | { type: 'polled'; sourceId: string; operation: LessonOperation; elapsedMs: number }
  | { type: 'copied'; copy: DuplicatedLesson };

export interface DuplicatedLesson {
  sourceId: string;
  sourceKey: string | null;
  lessonId: string;
  name: string;
  /** The copy's key and file; null path when the destination has no folder in the repo. */
  key: string;
  path: string | null;
}

export interface DuplicateLessonsResult {
  copies: DuplicatedLesson[];
  /** True when an interrupted run of the same command was resumed. */
  resumed: boolean;
  requestId: string;
  destinationId: string;
  /** The calls run after the copies (position, order); null when none was needed. */
  applied: ApplyResult | null;
}

interface Source {
  id: string;
  key: string | null;
  /** Name to send ('' for the school's default). */
  name: string;
}

/** The source lesson: a lesson file of the repo (applied already) or a lesson id. */
async function lessonSource(repo: OpenRepo, arg: string, name: string | undefined): Promise<Source> {
  const isFile = await readFile(resolve(arg)).then(() => true, () => false);
  if (!isFile) {
    if (/[\\/]/.test(arg) || arg.endsWith('.md')) {
      throw failure('duplicate/no-source', { arg, dir: repo.dir, notAFile: true });
    }
    return { id: arg, key: keyOfLessonId(repo.store.data, arg) ?? null, name: name ?? '' };
  }
  const path = repoPath(repo, resolve(arg));
  for (const p of repo.desired.programs)
    for (const s of p.sections)
      for (const l of s.lessons) {
        if (l.path !== path) continue;
        const id = repo.store.data.lessons[l.key]?.id;
        if (!id) throw notApplied([l.path]);
        return { id, key: l.key, name: name ?? '' };
      }
  throw failure('duplicate/no-source', { arg, dir: repo.dir, notAFile: false });
}

function notApplied(paths: string[]): CoursesyncError {
  return failure('duplicate/not-applied', { paths });
}

/** Every lesson of a section folder, in order; each must be applied. Copies keep their names. */
async function sectionSources(repo: OpenRepo, folder: SectionPlace): Promise<Source[]> {
  const missing = folder.section.lessons.filter((l) => !repo.store.data.lessons[l.key]?.id).map((l) => l.path);
  if (missing.length > 0) throw notApplied(missing);
  if (folder.section.lessons.length === 0) throw failure('duplicate/empty-section', { path: folder.section.path });
  return folder.section.lessons.map((l) => {
    const entry = repo.store.data.lessons[l.key]!;
    return { id: entry.id!, key: l.key, name: entry.applied.name };
  });
}

/** Explain a failure of one copy. */
function copyError(e: unknown, item: JobItem, sourceLabel: string): unknown {
  if (e instanceof OperationFailedError) {
    return failure('duplicate/operation-failed', { what: `lesson ${item.source_id}${sourceLabel}`, reason: e.message }, { cause: e });
  }
  if (e instanceof SchoolApiError && e.status === 422) {
    return failure('duplicate/key-conflict', { what: `lesson ${item.source_id}${sourceLabel}`, reason: e.message, program: false }, { cause: e });
  }
  return explainSchoolError(e, `lesson ${item.source_id} (or the destination section)`);
}

/** Copy lessons (one, or a whole section folder) — see the file header. */
export async function duplicateLessons(dir: string, source: { kind: 'lesson' | 'section'; arg: string }, options: DuplicateLessonsOptions): Promise<DuplicateLessonsResult> {
  if (source.kind === 'section' && (options.name !== undefined || options.position !== undefined)) {
    throw failure('duplicate/bad-option', {});
  }
  const repo = await openRepo(dir, options);
  try {
    let sources: Source[];
    let sourceId: string;
    if (source.kind === 'lesson') {
      sources = [await lessonSource(repo, source.arg, options.name)];
      sourceId = sources[0]!.id;
    } else {
      const folder = await findSectionFolder(repo, source.arg);
      sources = await sectionSources(repo, folder);
      sourceId = folder.sectionId;
    }
    const dest = await findSection(repo, options.to);
    if (dest.folder) await checkNoLessonsList(dest.folder);
    else if (options.position !== undefined) {
      throw failure('duplicate/position-needs-folder', { sectionId: dest.sectionId });
    }

    const journal = await readJournal(repo.dir, repo.store.environment);
    const jobId = `${source.kind}:${sourceId}->${dest.sectionId}`;
    const { job, resumed } = await findOrStartJob(repo, journal, jobId, sources, dest.folder, dest.sectionId, options);
    let journalWrite: Promise<void> = Promise.resolve();
    const saveJournal = () => (journalWrite = journalWrite.then(() => writeJournal(repo.dir, journal, repo.store.environment)));

    const copies: DuplicatedLesson[] = [];
    const limit = pLimit(Math.max(1, options.concurrency ?? repo.desired.config.apply?.concurrency ?? DEFAULT_CONCURRENCY));
    const settled = await Promise.allSettled(
      job.items.map((item) =>
        limit(async () => {
          if (item.done) return;
          const copy = await copyOne(repo, job, item, dest.folder, options);
          item.lesson_id = copy.lessonId;
          item.done = true;
          await saveJournal();
          copies.push(copy);
          options.onProgress?.({ type: 'copied', copy });
        }).catch(async (e: unknown) => {
          if (e instanceof OperationFailedError) {
            item.attempt += 1;
            await saveJournal();
          }
          throw copyError(e, item, item.source_key ? ` (${item.source_key})` : '');
        }),
      ),
    );
    const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
    if (failures.length === 0) delete journal.jobs[jobId];
    await saveJournal();
    if (failures.length > 0) throw failures[0];

    // Done copies of an earlier run count too (their files and state are already written).
    for (const item of job.items) {
      if (copies.some((c) => c.lessonId === item.lesson_id) || item.lesson_id === null) continue;
      copies.push({ sourceId: item.source_id, sourceKey: item.source_key, lessonId: item.lesson_id, name: item.name, key: item.key, path: item.path });
    }
    const order = new Map(job.items.map((it, i) => [it.key, i]));
    copies.sort((a, b) => order.get(a.key)! - order.get(b.key)!);
    const applied = dest.folder ? await applyNewLessons(repo, new Set(copies.filter((c) => c.path !== null).map((c) => c.key)), options) : null;
    return { copies, resumed, requestId: job.request_id, destinationId: dest.sectionId, applied };
  } finally {
    await repo.close();
  }
}

async function findOrStartJob(
  repo: OpenRepo,
  journal: Journal,
  jobId: string,
  sources: Source[],
  folder: SectionPlace | undefined,
  destinationId: string,
  options: DuplicateLessonsOptions,
): Promise<{ job: Job; resumed: boolean }> {
  const found = journal.jobs[jobId];
  if (found) {
    // The same copy asked again with other details: refuse before any request, as the school would.
    const other =
      (options.requestId !== undefined && options.requestId !== found.request_id && `request id ${found.request_id}`) ||
      (found.kind === 'lesson' && found.items[0]!.name !== (options.name ?? '') && `name "${found.items[0]!.name || '(the school default)'}"`) ||
      ((options.position ?? null) !== found.position && `position ${found.position ?? '(last)'}`);
    if (other) {
      throw failure('duplicate/job-conflict', { what: `the same source to section ${destinationId}`, other, jobId });
    }
    return { job: found, resumed: true };
  }
  const requestId = options.requestId ?? `${repo.store.data.lineage}.${repo.store.data.serial}.${journal.next}`;
  journal.next += 1;
  const journalKeys = Object.values(journal.jobs).flatMap((j) => j.items.map((i) => i.key));
  const taken = takenKeys(repo, journalKeys);
  const keys = sources.map((s) => uniqueKey(`${s.key ?? slugKey(s.name || 'lesson')}-copy`, taken));
  const names = folder ? newFileNames(await lessonFileNames(folder.abs), keys, options.position === undefined ? undefined : options.position - 1) : null;
  const job: Job = {
    kind: sources.length === 1 && jobId.startsWith('lesson:') ? 'lesson' : 'section',
    request_id: requestId,
    destination_id: destinationId,
    position: options.position ?? null,
    started_at: new Date().toISOString(),
    items: sources.map((s, i) => ({
      source_id: s.id,
      source_key: s.key,
      name: s.name,
      key: keys[i]!,
      path: folder && names ? `${folder.section.path}/${names[i]}` : null,
      lesson_id: null,
      attempt: 0,
      done: false,
    })),
  };
  journal.jobs[jobId] = job;
  await writeJournal(repo.dir, journal, repo.store.environment);
  return { job, resumed: false };
}

/** Start or resume one copy, wait for it, write its file and record it in state. */
async function copyOne(repo: OpenRepo, job: Job, item: JobItem, folder: SectionPlace | undefined, options: DuplicateLessonsOptions): Promise<DuplicatedLesson> {
  const requestId = item.attempt === 0 ? job.request_id : `${job.request_id}.retry${item.attempt}`;
  const key = duplicationKey({ kind: 'lesson', sourceId: item.source_id, destinationId: job.destination_id, name: item.name, requestId });
  const body = { destination_section_id: job.destination_id!, idempotency_key: key, ...(item.name !== '' ? { name: item.name } : {}) };
  const op = await waitForOperation(() => repo.client.lessons.duplicate(item.source_id, body), {
    timeoutMs: options.timeoutMs,
    intervalMs: options.intervalMs,
    onProgress: (operation, elapsedMs) => options.onProgress?.({ type: 'polled', sourceId: item.source_id, operation, elapsedMs }),
  });
  const parsed = LessonSchema.safeParse(op.result);
  if (!parsed.success) {
    throw failure('duplicate/no-lesson-id', { sourceId: item.source_id, operationId: op.id, name: item.name, folder: folder?.section.path ?? '<section folder>' });
  }
  const lesson: Lesson = parsed.data;
  const copy: DuplicatedLesson = { sourceId: item.source_id, sourceKey: item.source_key, lessonId: lesson.id, name: lesson.name, key: item.key, path: item.path };
  if (keyOfLessonId(repo.store.data, lesson.id) !== undefined || item.path === null || !folder) return copy;
  const file = lessonToFile(lesson, { key: item.key, copiedFrom: item.source_key ?? undefined, path: item.path });
  const abs = join(repo.dir, item.path);
  const existing = await readFile(abs, 'utf8').catch(() => undefined);
  // A file at the journal's path is ours only if it carries the job's key (an interrupted run wrote it).
  if (existing !== undefined && !declaresKey(existing, item.key)) {
    throw failure('duplicate/file-exists', { path: item.path, lessonId: lesson.id, folder: folder.section.path });
  }
  await writeFile(abs, file.text);
  await recordAdopted(repo.store, [{ key: item.key, lesson, programId: folder.program.id, path: item.path, applied: file.fields }], repo.baseUrl);
  return copy;
}

/**
 * Run the planner and apply only the calls it plans for `keys` (a requested position, or the
 * folder order when copies finished out of order). Other changes of the repo are left to apply.
 */
async function applyNewLessons(repo: OpenRepo, keys: ReadonlySet<string>, options: DuplicateLessonsOptions): Promise<ApplyResult | null> {
  if (keys.size === 0) return null;
  // Compiled again on purpose (the copies' files were just written); the state, the school and
  // its client are the open repo's. Only moves of existing copies are sent: no section check.
  const { plan } = await buildPlan(repo.dir, {
    env: options.env,
    state: { state: repo.store.data as StateData, exists: true },
    school: { baseUrl: repo.baseUrl, client: repo.client },
    verifySections: false,
  });
  const calls = plan.changes.filter((c) => isCall(c) && keys.has(c.key));
  if (calls.length === 0) return null;
  const ids = new Set(calls.map((c) => (isCall(c) ? c.call_id : '')));
  const sub: Plan = { ...plan, changes: calls, chains: plan.chains.map((c) => ({ ...c, steps: c.steps.filter((s) => ids.has(s)) })).filter((c) => c.steps.length > 0) };
  const result = await applyPlan(sub, { client: repo.client, store: repo.store, concurrency: options.concurrency ?? repo.desired.config.apply?.concurrency ?? DEFAULT_CONCURRENCY });
  const failed = result.outcomes.find((o) => o.status === 'failed' || o.status === 'uncertain');
  if (failed && 'error' in failed) {
    throw failure('duplicate/place-failed', { key: failed.step.key, reason: failed.error.message });
  }
  return result;
}

/** Whether a lesson file's text has the line `key: <key>` (compared as text: a key may hold `.`). */
export function declaresKey(text: string, key: string): boolean {
  return text.split('\n').includes(`key: ${key}`);
}
