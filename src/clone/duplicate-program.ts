/**
 * `coursesync duplicate program` (I/O composer): POST /products/{id}/duplicate, waited for, then
 * a program folder for the copy: program.yaml with the new id and one section folder with
 * section.yaml per section that GET /sections lists for the new program. Lessons are not
 * written: the API can neither list a section's lessons nor map copied lessons to their
 * sources, so the copy's lesson ids cannot be found through it. The job is journalled like a
 * lesson copy, so a re-run after an interruption resumes the same operation.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { explainSchoolError } from '../school/connection.js';
import { listProgramSections } from '../school/program-sections.js';
import { programFolderFiles, sectionFolderName } from '../model/program-folder.js';
import { resolveProgramId } from '../sync/resolve-program-id.js';
import { OperationFailedError, SchoolApiError } from '../school/errors.js';
import { waitForOperation } from '../school/operations.js';
import type { ProgramOperation } from '../school-api/wire/operations.js';
import { duplicationKey } from './idempotency-key.js';
import { readJournal, writeJournal } from './journal.js';
import { openRepo, repoPath, slugKey, type OpenRepoOptions } from './open-repo.js';

export interface DuplicateProgramOptions extends OpenRepoOptions {
  /** Name of the copy (default: the school's "Copy of …"). */
  name?: string;
  /** Folder to write the copy's program folder into (default: the repo, named after the copy). */
  into?: string;
  requestId?: string;
  timeoutMs?: number;
  intervalMs?: number;
  onProgress?: (operation: ProgramOperation, elapsedMs: number) => void;
}

export interface DuplicateProgramResult {
  sourceId: string;
  programId: string;
  name: string;
  /** Repo-relative program folder written, and the files in it. */
  folder: string;
  files: string[];
  sections: Array<{ id: string; name: string; folder: string }>;
  resumed: boolean;
}

/** Copy a program in the school and write its folder (see the file header). */
export async function duplicateProgram(dir: string, programArg: string, options: DuplicateProgramOptions): Promise<DuplicateProgramResult> {
  const sourceId = await resolveProgramId(programArg, options.environment);
  const repo = await openRepo(dir, options);
  try {
    if (options.into !== undefined && (await access(join(resolve(options.into), 'program.yaml')).then(() => true, () => false))) {
      throw failure('duplicate/folder-exists', { into: options.into });
    }
    const journal = await readJournal(repo.dir, repo.store.environment);
    const jobId = `program:${sourceId}`;
    const name = options.name ?? '';
    let job = journal.jobs[jobId];
    const resumed = job !== undefined;
    if (job) {
      const other = (options.requestId !== undefined && options.requestId !== job.request_id && `request id ${job.request_id}`) || (job.items[0]!.name !== name && `name "${job.items[0]!.name || '(the school default)'}"`);
      if (other) {
        throw failure('duplicate/job-conflict', { what: `program ${sourceId}`, other, jobId });
      }
    } else {
      job = {
        kind: 'program',
        request_id: options.requestId ?? `${repo.store.data.lineage}.${repo.store.data.serial}.${journal.next}`,
        destination_id: null,
        position: null,
        started_at: new Date().toISOString(),
        items: [{ source_id: sourceId, source_key: null, name, key: sourceId, path: null, lesson_id: null, attempt: 0, done: false }],
      };
      journal.next += 1;
      journal.jobs[jobId] = job;
      await writeJournal(repo.dir, journal, repo.store.environment);
    }
    const item = job.items[0]!;
    const requestId = item.attempt === 0 ? job.request_id : `${job.request_id}.retry${item.attempt}`;
    const key = duplicationKey({ kind: 'program', sourceId, destinationId: null, name, requestId });
    let op: ProgramOperation;
    try {
      op = await waitForOperation(() => repo.client.programs.duplicate(sourceId, { idempotency_key: key, ...(name !== '' ? { name } : {}) }), {
        timeoutMs: options.timeoutMs ?? 300_000,
        intervalMs: options.intervalMs,
        onProgress: options.onProgress,
      });
    } catch (e) {
      if (e instanceof OperationFailedError) {
        item.attempt += 1;
        await writeJournal(repo.dir, journal, repo.store.environment);
        throw failure('duplicate/operation-failed', { what: `program ${sourceId}`, reason: e.message }, { cause: e });
      }
      if (e instanceof SchoolApiError && e.status === 422) {
        throw failure('duplicate/key-conflict', { what: `program ${sourceId}`, reason: e.message, program: true }, { cause: e });
      }
      throw explainSchoolError(e, `program ${sourceId}`);
    }
    const program = op.result;
    if (!program) throw failure('duplicate/no-program', { operationId: op.id });
    const sections = await listProgramSections(repo.client, program.id);
    const folderAbs = resolve(options.into ?? join(repo.dir, slugKey(program.name)));
    const files = programFolderFiles(program.id, sections, program.name);
    const clashes: string[] = [];
    for (const f of files) if (await access(join(folderAbs, f.path)).then(() => true, () => false)) clashes.push(join(folderAbs, f.path));
    if (clashes.length > 0) {
      throw failure('duplicate/folder-exists', { into: options.into ?? '', programId: program.id, clashes });
    }
    for (const f of files) {
      await mkdir(dirname(join(folderAbs, f.path)), { recursive: true });
      await writeFile(join(folderAbs, f.path), f.text, { flag: 'wx' });
    }
    delete journal.jobs[jobId];
    await writeJournal(repo.dir, journal, repo.store.environment);
    const folder = repoPath(repo, folderAbs);
    return {
      sourceId,
      programId: program.id,
      name: program.name,
      folder,
      files: files.map((f) => `${folder}/${f.path}`),
      sections: sections.map((s, i) => ({ id: s.id, name: s.name, folder: `${folder}/${sectionFolderName(i, s.name)}` })),
      resumed,
    };
  } finally {
    await repo.close();
  }
}
