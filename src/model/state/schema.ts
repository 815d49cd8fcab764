/**
 * The state file's format (docs/architecture.md#state), as zod schemas: the single source of its types. The file
 * records what the tool last applied, so plans compare inputs with inputs, and what it is doing
 * right now (write-ahead `pending` records), so an interrupted apply loses nothing.
 */
import { z } from 'zod';
import { DEFAULT_LESSON_FIELDS, LESSON_FIELDS, LESSON_FIELDS_SHAPE, type LessonFields } from '../../school-api/school-rules.js';
import { LESSON_KEY_PATTERN } from '../lesson.js';
import { FINGERPRINT_HEX, FINGERPRINT_PATTERN, FINGERPRINT_PREFIX, FINGERPRINTED_FIELDS, fingerprintOf } from './fingerprint.js';
import { RESPONSE_RECORD_PATTERN } from './hash-response.js';
import { expandLessons } from './state-layout.js';

/**
 * A record keyed by names from the repo or the state file (lesson keys, section folders, call
 * ids), without a prototype: a key such as `constructor` or `toString` then finds nothing
 * instead of an inherited member. Spreading it (`{ ...r }`) gives a plain object again: copy
 * with this function instead.
 */
export function nullRecord<T>(entries?: Readonly<Record<string, T>>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

/**
 * Where a parsed state file holds a `__proto__` key in one of its keyed records, e.g.
 * `lessons.__proto__`. No lesson key, section folder or call id is `__proto__`, so such an
 * entry was edited by hand; zod would silently drop it (and the next write lose it), so it is
 * looked for before the schema and refused.
 */
export function protoKeyIn(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  for (const field of ['lessons', 'sections', 'pending', 'folders'] as const) {
    const record = (raw as Record<string, unknown>)[field];
    if (typeof record === 'object' && record !== null && Object.hasOwn(record, '__proto__')) return `${field}.__proto__`;
  }
  return undefined;
}

export const lessonKey = () =>
  z.string().regex(LESSON_KEY_PATTERN, 'not a lesson key (a letter or digit, then letters, digits, ".", "_" or "-"); the entry was not written by coursesync');


/**
 * Bump when the format changes incompatibly; a newer file is refused, never overwritten.
 * 2: compact (bodies as fingerprints, packed response hashes, one lesson per line) with the
 * digests that let a plan skip unchanged lessons; a version-1 file is read and migrated
 * (state-v1.ts).
 * 3: smaller lesson lines (state-layout.ts: a `folders` table, paths relative to it; 24-hex
 * fingerprints). A version-2 file reads as it is (StateSchema takes both) and is written as
 * version 3 by the next write; a version-2 coursesync refuses a version-3 file.
 */
export const STATE_VERSION = 3;

/** Where the state file lives inside a course repo. */
export const STATE_DIR = '.coursesync';
export const STATE_FILE = 'state.json';
export const LOCK_FILE = 'state.lock';

/**
 * The folder of a state's files (state.json, its journal, lock and temp files), from the repo
 * root: `.coursesync` for a repo without environments, `.coursesync/env/<name>` for each
 * environment of one that has them (docs/environments.md#state).
 */
export function stateFolderOf(environment?: string): string {
  return environment === undefined ? STATE_DIR : `${STATE_DIR}/env/${environment}`;
}

export { LessonFieldsSchema } from '../../school-api/school-rules.js';

/** A create whose outcome is unknown (the connection dropped after the request was sent). */
export const UncertainCreateSchema = z.strictObject({
  name: z.string(),
  section_id: z.string(),
  /** ISO time of the request. */
  since: z.string(),
});

/** `applied` body or description: a fingerprint's hex digits (as written), a whole one (in memory, format 2), or "". */
export const FINGERPRINT_OR_EMPTY_PATTERN = new RegExp(`^(|${FINGERPRINT_PATTERN.source.slice(1, -1)}|[0-9a-f]{24})$`);
const fingerprintOrEmpty = () => z.string().regex(FINGERPRINT_OR_EMPTY_PATTERN, 'not a fingerprint (24 hex digits; "sha256:" and them in memory) or ""');

/**
 * The last-applied inputs as written: a field still at the school's default is left out, and
 * body and description are fingerprints of the HTML sent. Read back whole (defaults filled in,
 * a format-2 fingerprint shortened).
 */
export const AppliedSchema = z
  .strictObject({
    ...Object.fromEntries(Object.entries(LESSON_FIELDS_SHAPE).map(([f, schema]) => [f, schema.optional()])),
    body: fingerprintOrEmpty().optional(),
    description: fingerprintOrEmpty().optional(),
  })
  .transform(appliedFromDisk);

/** `applied` as read back whole: the fields given over the defaults, fingerprints with their prefix. */
export function appliedFromDisk(given: Partial<LessonFields>): LessonFields {
  // Parsed JSON holds no undefined: the fields given lay over the defaults as they are. One
  // object per lesson (appliedOf's copies, 10,000 times over, cost as much as the checks).
  const fields = { ...DEFAULT_LESSON_FIELDS, ...given };
  fields.body = fingerprintRead(fields.body);
  fields.description = fingerprintRead(fields.description);
  return fields;
}

/**
 * A checked `applied` body or description (FINGERPRINT_OR_EMPTY_PATTERN) as kept in memory:
 * what fingerprintOf(fingerprintFromDisk(value)) gives, told apart by length alone (the pattern
 * was matched already; two more regular expressions per field were a tenth of a 10,000-lesson read).
 */
function fingerprintRead(value: string): string {
  if (value === '') return value;
  return value.length === FINGERPRINT_HEX ? FINGERPRINT_PREFIX + value : value.slice(0, FINGERPRINT_PREFIX.length + FINGERPRINT_HEX);
}

/**
 * `applied` as written: only the fields that differ from the school's defaults; never HTML;
 * body and description as the fingerprint's hex digits (read back by state-layout.ts).
 */
export function appliedOnDisk(applied: Readonly<LessonFields>): Partial<LessonFields> {
  const out: Record<string, unknown> = {};
  for (const f of LESSON_FIELDS) if (applied[f] !== DEFAULT_LESSON_FIELDS[f]) out[f] = applied[f];
  for (const f of FINGERPRINTED_FIELDS) if (out[f] !== undefined) out[f] = fingerprintOf(out[f] as string).slice(FINGERPRINT_PREFIX.length);
  return out as Partial<LessonFields>;
}

/** A git blob id: sha1 of `blob <size>\0` and the bytes, 40 hex digits. */
export const BLOB_PATTERN = /^[0-9a-f]{40}$/;
/** A lesson digest (lesson-digest.ts): 32 hex digits. */
export const DIGEST_PATTERN = /^[0-9a-f]{32}$/;
/** A compiler digest: 12 to 16 hex digits. */
export const COMPILER_PATTERN = /^[0-9a-f]{12,16}$/;
/** An input record (compile/lesson-digest.ts inputsRecord): `include:<path>` or `var:<name>`, `@` and 8 hex. */
export const INPUT_RECORD_PATTERN = /^(include|var):.+@[0-9a-f]{8}$/;

/**
 * The warnings a lesson's own text can give that depend on nothing but what its digest covers:
 * its HTML's (an unknown element, an event handler, a `javascript:` URL) and its template tags
 * that are not run (the expander's `include/unsupported`). A lesson with only these is recorded
 * with them, and a plan that takes it from the state reports them as a compile would.
 */
export const RECORDED_WARNING_CODES = ['include/unsupported', 'lesson/event-handler', 'lesson/javascript-url', 'lesson/unknown-element'] as const;

/** Whether this coursesync reports `code` again from a record (known-lessons.ts takes no lesson recorded with another). */
export function isRecordedCode(code: string): boolean {
  return (RECORDED_WARNING_CODES as readonly string[]).includes(code);
}

/** The form of every diagnostic code (`area/name`). */
export const WARNING_CODE_PATTERN = /^[a-z][a-z-]*\/[a-z0-9][a-z0-9-]*$/;

/**
 * One of them as recorded: a diagnostic without its severity (a warning) and, when it is about
 * the lesson's own file, without its file. Any code of the form is read, so a state recorded
 * by a later coursesync (which may record more codes) still reads: a lesson recorded with a
 * code this one does not record is compiled, never taken from the state.
 */
export const RecordedWarningSchema = z.strictObject({
  code: z.string().regex(WARNING_CODE_PATTERN, 'not a warning code coursesync writes'),
  /** The repo path of the file it is about, when that is a file the lesson includes (absent: the lesson's own). */
  file: z.string().min(1).optional(),
  line: z.int().min(1).optional(),
  column: z.int().min(1).optional(),
  message: z.string(),
  hint: z.string().optional(),
  excerpt: z.string().optional(),
});

/**
 * One tracked lesson, by key. `id` is null only for an uncertain create (then `uncertain` is
 * set and `position` is null): the lesson may or may not exist in the school.
 */
export const LessonStateSchema = z.strictObject({
  id: z.string().nullable(),
  program_id: z.string(),
  section_id: z.string(),
  position: z.int().min(1).nullable(),
  /** Repo-relative path of the lesson file when it was last applied. */
  path: z.string(),
  /** The input values last sent (or adopted), in API names: what plans compare against. */
  applied: AppliedSchema,
  /** The last response's fields that differ from `applied`, hashed (responseRecord), for drift; left out when none. */
  response: z.string().regex(RESPONSE_RECORD_PATTERN, 'not the response record coursesync writes').default(''),
  /** Git blob id of the lesson file as last applied (absent when unknown). */
  blob: z.string().regex(BLOB_PATTERN).optional(),
  /** Digest of everything the compiled lesson depends on; only for a lesson that compiled with no diagnostic. */
  digest: z.string().regex(DIGEST_PATTERN).optional(),
  /** Digest of the compiling code that produced what was sent. */
  compiler: z.string().regex(COMPILER_PATTERN).optional(),
  /** Repo-relative paths of the files the lesson references (images, files, linked lessons), each with `@` and 4 hex of its digest (compile/lesson-digest.ts depRecord). */
  deps: z.array(z.string()).min(1).optional(),
  /** What its text took in: `include:<path>@<8 hex>` and `var:<name>@<8 hex>` (compile/lesson-digest.ts inputsRecord). */
  inputs: z.array(z.string().regex(INPUT_RECORD_PATTERN, 'not an input record coursesync writes')).min(1).optional(),
  /** The lesson's aliases and acknowledged impact rules, kept with the digest so an unchanged file need not be read. */
  aliases: z.array(lessonKey()).min(1).optional(),
  acknowledge: z.array(z.string()).min(1).optional(),
  /** The warnings its own text gave when it was recorded (RECORDED_WARNING_CODES), in order. */
  warnings: z.array(RecordedWarningSchema).min(1).optional(),
  uncertain: UncertainCreateSchema.optional(),
});

/** A section given by `name:` in section.yaml, once resolved, so plan needs no request. */
export const SectionStateSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  program_id: z.string(),
});

/**
 * Write-ahead record of a call in flight: written before the request, removed after it. A
 * `read-back` record is not a call but a mark: read this lesson (and its section) back.
 */
export const PendingCallSchema = z.strictObject({
  action: z.enum(['create', 'update', 'move', 'unpublish', 'read-back']),
  key: z.string(),
  /** Lesson id, null for a create. */
  lesson_id: z.string().nullable(),
  /** Method and path, e.g. `PATCH /lessons/les_1`. */
  request: z.string(),
  /** The names of the body fields sent (never values, never the token). */
  fields: z.array(z.string()),
  started_at: z.string(),
  /** Create only: the lesson name and section sent, so an interrupted create can be reported. */
  name: z.string().optional(),
  section_id: z.string().optional(),
  /**
   * A read-back cut short (a 429, a timeout): the keys of the lessons still to read. What was
   * read is recorded already, so the next run reads only these (resolve-pending.ts).
   */
  left: z.array(z.string()).min(1).optional(),
});

/** The `folders` table of state.json (state-layout.ts), by section id. */
const SectionFolderSchema = z.strictObject({ path: z.string(), program_id: z.string() });

/** A lesson as state.json writes it (state-layout.ts): its `program_id` may be its section folder's. */
export const LessonOnDiskSchema = z.strictObject({ ...LessonStateSchema.shape, program_id: z.string().optional() });

/**
 * A state as state.json holds it (format 3; format 2 reads the same way and is written as 3
 * by the next write), and as the journal replays it (lessons whole, no `folders`): its fields,
 * each checked. StateSchema reads it whole.
 */
export const StateFieldsSchema = z
  .strictObject({
    version: z.literal([2, STATE_VERSION]).transform(() => STATE_VERSION),
    lineage: z.uuid(),
    serial: z.int().min(0),
    /** The school this state belongs to; null until the first apply. */
    base_url: z.string().nullable(),
    /** The environment this state belongs to (repos with environments; docs/environments.md). */
    environment: z.string().optional(),
    /** The program ids of the school this state belongs to, stamped by every apply of an environment. */
    program_ids: z.array(z.string()).optional(),
    /** What the last complete apply of an environment applied, for promotion (docs/environments.md#promotion). */
    content: z
      .strictObject({
        /** sha256 over every lesson's content digest. */
        digest: z.string(),
        /** The git commit the repo was at, when known. */
        commit: z.string().nullable(),
        /** Per lesson key: 16 hex of its content (file, referenced files, settings, place; no ids, no vars). */
        lessons: z.record(z.string(), z.string()).transform((r) => nullRecord(r)),
      })
      .optional(),
    /** As written: the `compiler` of every lesson with a digest that does not give its own (serialize-state.ts). */
    compiler: z.string().regex(COMPILER_PATTERN).optional(),
    /** As written: each section's folder and program, which its lessons' lines leave out (state-layout.ts). */
    folders: z.record(z.string(), SectionFolderSchema).optional(),
    lessons: z.record(lessonKey(), LessonOnDiskSchema).transform((r) => nullRecord(r)),
    sections: z.record(z.string(), SectionStateSchema).transform((r) => nullRecord(r)),
    pending: z.record(z.string(), PendingCallSchema).transform((r) => nullRecord(r)),
  });

/**
 * A state file's data, read back: every lesson whole (completeState). The one definition of a
 * valid state; parse-state.ts checks the lesson entries faster and asks this for every error.
 */
export const StateSchema = StateFieldsSchema.transform((fields, ctx) => {
  const done = completeState(fields);
  if (!('orphans' in done)) return done.state;
  for (const key of done.orphans) ctx.issues.push({ code: 'custom', input: fields.lessons[key], path: ['lessons', key, 'program_id'], message: 'no program_id, and no folders entry for its section to take it from' });
  return z.NEVER;
});

/**
 * The last step of reading a state, once its fields are checked: each lesson whole (its
 * compiler and location from the file-wide `compiler` and `folders`, state-layout.ts), in place.
 * The keys of lessons left with no program_id make it invalid.
 */
export function completeState({ compiler, folders, ...state }: z.output<typeof StateFieldsSchema>): { state: StateData } | { orphans: string[] } {
  if (compiler !== undefined) for (const l of Object.values(state.lessons)) if (l.digest !== undefined) l.compiler ??= compiler;
  const orphans = expandLessons(state.lessons, folders);
  return orphans.length > 0 ? { orphans } : { state: { ...state, lessons: state.lessons as Record<string, LessonState> } };
}

/** A state as read: every lesson whole (no `compiler`, no `folders`). */
export type StateData = Omit<z.output<typeof StateFieldsSchema>, 'compiler' | 'folders' | 'lessons'> & { lessons: Record<string, LessonState> };
export type LessonState = z.output<typeof LessonStateSchema>;
export type SectionState = z.output<typeof SectionStateSchema>;
export type PendingCall = z.output<typeof PendingCallSchema>;
export type UncertainCreate = z.output<typeof UncertainCreateSchema>;
export type RecordedWarning = z.output<typeof RecordedWarningSchema>;

/** A fresh state: what a repo that was never applied has. */
export function emptyState(lineage: string, base_url: string | null = null): StateData {
  return { version: STATE_VERSION, lineage, serial: 0, base_url, lessons: nullRecord(), sections: nullRecord(), pending: nullRecord() };
}
