/**
 * Reading a state's data fast, with StateSchema's answer (docs/architecture.md#state). A plan
 * reads the whole state file, and zod's pass over 10,000 lesson entries costs several times
 * JSON.parse; the lesson entries are nearly all of a state, so they are checked here by a plain
 * function instead, and zod checks the rest (a few hundred entries). The check accepts only
 * what StateSchema accepts and gives what it gives (test/model/parse-state.test.ts compares
 * them over valid and mutated entries); anything it does not accept, StateSchema parses again
 * whole, so every error is StateSchema's own (message, path, count).
 */
import { z } from 'zod';
import { LESSON_TYPES, type LessonField, type LessonFields } from '../../school-api/school-rules.js';
import { LESSON_KEY_PATTERN } from '../lesson.js';
import { RESPONSE_RECORD_PATTERN } from './hash-response.js';
import {
  appliedFromDisk,
  BLOB_PATTERN,
  COMPILER_PATTERN,
  completeState,
  DIGEST_PATTERN,
  FINGERPRINT_OR_EMPTY_PATTERN,
  INPUT_RECORD_PATTERN,
  LessonOnDiskSchema,
  nullRecord,
  StateFieldsSchema,
  StateSchema,
  type StateData,
} from './schema.js';

/** What a reader returns for a value its schema refuses. */
const BAD = Symbol('refused');
/** A value as its schema reads it (a copy: nothing of the input is kept), or BAD. */
type Read = (value: unknown) => unknown;
/** A field of an object: how its value reads, and what its absence means (required, left out, or a default). */
interface Field {
  read: Read;
  absent: typeof REQUIRED | typeof LEFT_OUT | { value: unknown };
}
const REQUIRED = Symbol('required');
const LEFT_OUT = Symbol('left out');

const required = (read: Read): Field => ({ read, absent: REQUIRED });
const optional = (read: Read): Field => ({ read, absent: LEFT_OUT });

/** An object as zod sees one: JSON's (or a null-prototype record's), not an array. */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const string: Read = (v) => (typeof v === 'string' ? v : BAD);
const nullable = (read: Read): Read => (v) => (v === null ? null : read(v));
const matching = (pattern: RegExp): Read => (v) => (typeof v === 'string' && pattern.test(v) ? v : BAD);
const boolean: Read = (v) => (typeof v === 'boolean' ? v : BAD);
const int = (min = Number.MIN_SAFE_INTEGER): Read => (v) => (Number.isSafeInteger(v) && (v as number) >= min ? v : BAD);
const oneOf = (values: readonly string[]): Read => (v) => (values.includes(v as string) ? v : BAD);
/** A non-empty array (`.min(1)`), each item read by `item`. */
const nonEmptyArray = (item: Read): Read => (v) => {
  if (!Array.isArray(v) || v.length === 0) return BAD;
  const out: unknown[] = [];
  for (const x of v as unknown[]) {
    const r = item(x);
    if (r === BAD) return BAD;
    out.push(r);
  }
  return out;
};

/**
 * A strict object: no key but the fields', none undefined; the output has the fields in their
 * order, as zod builds it. `then` maps the output (a schema's transform).
 */
function strictObject(fields: Readonly<Record<string, Field>>, then: (out: never) => unknown = (out) => out): Read {
  const keys = Object.keys(fields);
  return (v) => {
    if (!isRecord(v)) return BAD;
    for (const k in v) if (!Object.hasOwn(fields, k) || v[k] === undefined) return BAD;
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const field = fields[k]!;
      const value = v[k];
      if (value === undefined) {
        if (field.absent === REQUIRED) return BAD;
        if (field.absent !== LEFT_OUT) out[k] = field.absent.value;
        continue;
      }
      const r = field.read(value);
      if (r === BAD) return BAD;
      out[k] = r;
    }
    return then(out as never);
  };
}


/** AppliedSchema: every lesson field optional (LESSON_FIELDS_SHAPE), body and description as fingerprints. */
const APPLIED = {
  name: optional(string),
  lesson_type: optional(oneOf(LESSON_TYPES)),
  drip_delay: optional(int()),
  is_published: optional(boolean),
  is_progression_locked: optional(boolean),
  description: optional(matching(FINGERPRINT_OR_EMPTY_PATTERN)),
  body: optional(matching(FINGERPRINT_OR_EMPTY_PATTERN)),
  settings_embed_host_a: optional(nullable(string)),
  settings_embed_host_b: optional(nullable(string)),
  settings_embed_host_c: optional(nullable(string)),
  settings_embed_host_d: optional(nullable(string)),
  settings_embed_code: optional(nullable(string)),
  embed_code: optional(nullable(string)),
} satisfies Record<LessonField, Field>;

/** LessonOnDiskSchema, field by field in its order. */
export const LESSON_ENTRY = {
  id: required(nullable(string)),
  program_id: optional(string),
  section_id: required(string),
  position: required(nullable(int(1))),
  path: required(string),
  applied: required(strictObject(APPLIED, (given: Partial<LessonFields>) => appliedFromDisk(given))),
  response: { read: matching(RESPONSE_RECORD_PATTERN), absent: { value: '' } },
  blob: optional(matching(BLOB_PATTERN)),
  digest: optional(matching(DIGEST_PATTERN)),
  compiler: optional(matching(COMPILER_PATTERN)),
  deps: optional(nonEmptyArray(string)),
  inputs: optional(nonEmptyArray(matching(INPUT_RECORD_PATTERN))),
  aliases: optional(nonEmptyArray(matching(LESSON_KEY_PATTERN))),
  acknowledge: optional(nonEmptyArray(string)),
  uncertain: optional(strictObject({ name: required(string), section_id: required(string), since: required(string) })),
} satisfies Record<keyof z.input<typeof LessonOnDiskSchema>, Field>;

/** One lesson entry as LessonOnDiskSchema reads it, or undefined when it may not be valid. */
export const readLessonEntry: (value: unknown) => z.output<typeof LessonOnDiskSchema> | undefined = (() => {
  const read = strictObject(LESSON_ENTRY);
  return (value) => {
    const r = read(value);
    return r === BAD ? undefined : (r as z.output<typeof LessonOnDiskSchema>);
  };
})();

/** The `lessons` record read entry by entry, or undefined when one entry may not be valid. */
function readLessons(value: unknown): Record<string, z.output<typeof LessonOnDiskSchema>> | undefined {
  if (!isRecord(value)) return undefined;
  const out = nullRecord<z.output<typeof LessonOnDiskSchema>>();
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || !LESSON_KEY_PATTERN.test(key)) return undefined;
    const entry = readLessonEntry(value[key]);
    if (entry === undefined) return undefined;
    out[key] = entry;
  }
  return out;
}

/**
 * A state's data (parsed JSON, or a state in memory) as `StateSchema.safeParse` reads it: the
 * same data when valid, the same issues when not. Nothing of `raw` is changed or kept.
 */
export function parseState(raw: unknown): z.ZodSafeParseResult<StateData> {
  const fast = isRecord(raw) ? readFast(raw) : undefined;
  return fast !== undefined ? { success: true, data: fast } : StateSchema.safeParse(raw);
}

/** The lessons by the check above, the other fields by zod; undefined for anything else. */
function readFast(raw: Record<string, unknown>): StateData | undefined {
  const lessons = readLessons(raw.lessons);
  if (lessons === undefined) return undefined;
  const rest = StateFieldsSchema.safeParse({ ...raw, lessons: {} });
  if (!rest.success) return undefined;
  const done = completeState({ ...rest.data, lessons });
  return 'state' in done ? done.state : undefined;
}
