/**
 * The duplication journal `.coursesync/duplications.json` (I/O): a duplication in progress is
 * written here before its first request (request id, the new keys and file paths chosen), and
 * removed once every copy is in the repo and in state. A re-run of an interrupted command finds
 * its job here and sends the same idempotency keys, so the school answers with the same
 * operations instead of making second copies. Written atomically, under the state lock.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { stateFolderOf } from '../model/state/schema.js';
import { writeFileAtomic } from '../state/state-file.js';
import { serializeStable } from '../state/serialize-state.js';

export const JOURNAL_FILE = 'duplications.json';

const JobItemSchema = z.strictObject({
  source_id: z.string(),
  /** Key of the source lesson in the repo, when it has one. */
  source_key: z.string().nullable(),
  /** Name sent with the request ('' for the school's default). */
  name: z.string(),
  /** Key and repo-relative path of the copy's file; null path when the destination has no folder. */
  key: z.string(),
  path: z.string().nullable(),
  /** The copy's lesson id, once known. */
  lesson_id: z.string().nullable(),
  /** Bumped after a failed operation, so the retry is a new operation (a new key). */
  attempt: z.int().min(0),
  done: z.boolean(),
});

const JobSchema = z.strictObject({
  kind: z.enum(['lesson', 'section', 'program']),
  request_id: z.string(),
  destination_id: z.string().nullable(),
  /** Lesson copy: the requested position in the destination folder (1-based), if any. */
  position: z.int().min(1).nullable(),
  started_at: z.string(),
  items: z.array(JobItemSchema),
});

const JournalSchema = z.strictObject({
  version: z.literal(1),
  /** Counter for default request ids, so a new command after a failed one gets a new key. */
  next: z.int().min(0),
  jobs: z.record(z.string(), JobSchema),
});

export type Journal = z.output<typeof JournalSchema>;
export type Job = z.output<typeof JobSchema>;
export type JobItem = z.output<typeof JobItemSchema>;

/** Beside the state: one journal per environment in a repo with environments (they are duplications in different schools). */
export function journalPath(dir: string, environment?: string): string {
  return join(dir, stateFolderOf(environment), JOURNAL_FILE);
}

/** Read the journal (empty when there is none). @throws CoursesyncError `clone/journal-invalid` */
export async function readJournal(dir: string, environment?: string): Promise<Journal> {
  const file = journalPath(dir, environment);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, next: 0, jobs: {} };
    throw failure('clone/journal-invalid', { file, reason: (e as Error).message });
  }
  let parsed;
  try {
    parsed = JournalSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) {
    throw failure('clone/journal-invalid', { file });
  }
  return parsed.data;
}

/** Write the journal atomically; an empty one is written as such (kept small in git). */
export async function writeJournal(dir: string, journal: Journal, environment?: string): Promise<void> {
  await writeFileAtomic(journalPath(dir, environment), serializeStable(journal));
}
