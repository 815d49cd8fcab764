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
import { LESSON_TYPES, type LessonField, type LessonFields, type LessonType } from '../../school-api/school-rules.js';
import { LESSON_KEY_PATTERN } from '../lesson.js';
import { RESPONSE_RECORD_PATTERN } from './hash-response.js';
import { expandLesson, type SectionFolder } from './state-layout.js';
import {
  appliedFromDisk,
  INPUT_RECORD_PATTERN,
  LessonOnDiskSchema,
  nullRecord,
  StateFieldsSchema,
  StateSchema,
  WARNING_CODE_PATTERN,
  type RecordedWarning,
  type StateData,
} from './schema.js';

type LessonOnDisk = z.output<typeof LessonOnDiskSchema>;

/** LessonOnDiskSchema's fields in its order: the order zod's output has them in, and readLessonEntry's. */
export const LESSON_ENTRY_FIELDS = [
  'id', 'program_id', 'section_id', 'position', 'path', 'applied', 'response', 'blob', 'digest', 'compiler', 'deps', 'inputs', 'aliases', 'acknowledge', 'warnings', 'uncertain',
] as const satisfies ReadonlyArray<keyof LessonOnDisk>;

/** An object as zod takes one: JSON's (or a null-prototype record's), not an array. */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** How many keys `value` has, or -1 when one of them is undefined (zod keeps such a key: the schema decides). */
function keyCount(value: Record<string, unknown>): number {
  let n = 0;
  for (const k in value) {
    if (value[k] === undefined) return -1;
    n++;
  }
  return n;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNullableString = (v: unknown): v is string | null => v === null || typeof v === 'string';
const matches = (v: unknown, pattern: RegExp): v is string => typeof v === 'string' && pattern.test(v);
const isInputRecord = (v: unknown) => matches(v, INPUT_RECORD_PATTERN);

/**
 * Whether `s` from `from` to its end is lower-case hex digits: the hex patterns below by hand
 * (a regular expression per field was a sixth of a 10,000-lesson read).
 */
function hexFrom(s: string, from: number): boolean {
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}
/** `length` lower-case hex digits, exactly: BLOB_PATTERN (40) and DIGEST_PATTERN (32). */
const isHex = (v: unknown, length: number): v is string => typeof v === 'string' && v.length === length && hexFrom(v, 0);
/** COMPILER_PATTERN: 12 to 16 hex digits. */
const isCompiler = (v: unknown): v is string => typeof v === 'string' && v.length >= 12 && v.length <= 16 && hexFrom(v, 0);
/** FINGERPRINT_OR_EMPTY_PATTERN: "", 24 hex, or "sha256:" and 24 or 32 hex. */
function isFingerprintOrEmpty(v: unknown): v is string {
  if (typeof v !== 'string') return false;
  const n = v.length;
  if (n === 0) return true;
  if (n === 24) return hexFrom(v, 0);
  return (n === 31 || n === 39) && v.startsWith('sha256:') && hexFrom(v, 7);
}
const isLessonKey = (v: unknown) => matches(v, LESSON_KEY_PATTERN);

/** A copy of a non-empty array (`.min(1)`) whose every item is `ok`, or undefined. */
function nonEmptyArray(v: unknown, ok: (item: unknown) => boolean): string[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  for (const item of v as unknown[]) if (!ok(item)) return undefined;
  return (v as string[]).slice();
}

/** AppliedSchema: any of the lesson fields, body and description as fingerprints; read back whole. */
function readApplied(v: unknown): LessonFields | undefined {
  if (!isRecord(v)) return undefined;
  for (const k in v) {
    const x = v[k];
    switch (k as LessonField) {
      case 'name':
        if (typeof x !== 'string') return undefined;
        break;
      case 'lesson_type':
        if (!LESSON_TYPES.includes(x as LessonType)) return undefined;
        break;
      case 'drip_delay':
        if (!Number.isSafeInteger(x)) return undefined;
        break;
      case 'is_published':
      case 'is_progression_locked':
        if (typeof x !== 'boolean') return undefined;
        break;
      case 'description':
      case 'body':
        if (!isFingerprintOrEmpty(x)) return undefined;
        break;
      case 'settings_embed_host_a':
      case 'settings_embed_host_b':
      case 'settings_embed_host_c':
      case 'settings_embed_host_d':
      case 'settings_embed_code':
      case 'embed_code':
        if (!isNullableString(x)) return undefined;
        break;
      default:
        return undefined;
    }
  }
  return appliedFromDisk(v as Partial<LessonFields>);
}

const isPlaceNumber = (v: unknown) => v === undefined || (Number.isSafeInteger(v) && (v as number) >= 1);
const isOptionalString = (v: unknown) => v === undefined || typeof v === 'string';

/** RecordedWarningSchema: a new object, its fields in the schema's order (compile records warnings through it too). */
export function readWarning(v: unknown): RecordedWarning | undefined {
  if (!isRecord(v)) return undefined;
  const { code, file, line, column, message, hint, excerpt } = v;
  if (!matches(code, WARNING_CODE_PATTERN) || !(file === undefined || (typeof file === 'string' && file !== '')) || typeof message !== 'string' || !isPlaceNumber(line) || !isPlaceNumber(column) || !isOptionalString(hint) || !isOptionalString(excerpt)) return undefined;
  const out: Record<string, unknown> = { code };
  if (file !== undefined) out.file = file;
  if (line !== undefined) out.line = line;
  if (column !== undefined) out.column = column;
  out.message = message;
  if (hint !== undefined) out.hint = hint;
  if (excerpt !== undefined) out.excerpt = excerpt;
  // Strict: no other key, none undefined (keyCount).
  return Object.keys(out).length === keyCount(v) ? (out as RecordedWarning) : undefined;
}

/** A non-empty array of RecordedWarningSchema, or undefined. */
function readWarnings(v: unknown): RecordedWarning[] | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined;
  const out: RecordedWarning[] = [];
  for (const item of v as unknown[]) {
    const read = readWarning(item);
    if (read === undefined) return undefined;
    out.push(read);
  }
  return out;
}

/** UncertainCreateSchema. */
function readUncertain(v: unknown): LessonOnDisk['uncertain'] {
  if (!isRecord(v) || keyCount(v) !== 3) return undefined;
  const { name, section_id, since } = v;
  return isString(name) && isString(section_id) && isString(since) ? { name, section_id, since } : undefined;
}

/** An optional field of a lesson entry: 0 when absent, 1 when `read` takes it (set on `out`), NaN when not. */
function optional(out: Record<string, unknown>, key: string, value: unknown, read: (v: unknown) => unknown): number {
  if (value === undefined) return 0;
  const got = read(value);
  if (got === undefined) return Number.NaN;
  out[key] = got;
  return 1;
}
const readBlob = (v: unknown) => (isHex(v, 40) ? v : undefined);
const readDigest = (v: unknown) => (isHex(v, 32) ? v : undefined);
const readCompiler = (v: unknown) => (isCompiler(v) ? v : undefined);
const readStringList = (v: unknown) => nonEmptyArray(v, isString);
const readInputs = (v: unknown) => nonEmptyArray(v, isInputRecord);
const readAliases = (v: unknown) => nonEmptyArray(v, isLessonKey);

/**
 * One lesson entry as LessonOnDiskSchema reads it (a new object, fields in the schema's order,
 * `response` defaulted, `applied` whole), or undefined when it may not be valid. Straight code,
 * field by field: this runs once per lesson of every plan.
 */
export function readLessonEntry(value: unknown): LessonOnDisk | undefined {
  if (!isRecord(value)) return undefined;
  const given = keyCount(value);
  const { id, program_id, section_id, position, path, applied, response, blob, digest, compiler, deps, inputs, aliases, acknowledge, warnings, uncertain } = value;
  if (!isNullableString(id) || !isString(section_id) || !(position === null || (Number.isSafeInteger(position) && (position as number) >= 1)) || !isString(path)) return undefined;
  const appliedRead = readApplied(applied);
  if (appliedRead === undefined) return undefined;
  // Strict: every key given is one of these (counted), none undefined (keyCount).
  let known = 5;
  const out: Record<string, unknown> = { id };
  if (program_id !== undefined) {
    if (!isString(program_id)) return undefined;
    out.program_id = program_id;
    known++;
  }
  out.section_id = section_id;
  out.position = position;
  out.path = path;
  out.applied = appliedRead;
  out.response = '';
  if (response !== undefined) {
    if (!matches(response, RESPONSE_RECORD_PATTERN)) return undefined;
    out.response = response;
    known++;
  }
  // One call per field, not a loop over [key, value, check] triples: those were seven arrays a lesson.
  known +=
    optional(out, 'blob', blob, readBlob) +
    optional(out, 'digest', digest, readDigest) +
    optional(out, 'compiler', compiler, readCompiler) +
    optional(out, 'deps', deps, readStringList) +
    optional(out, 'inputs', inputs, readInputs) +
    optional(out, 'aliases', aliases, readAliases) +
    optional(out, 'acknowledge', acknowledge, readStringList) +
    optional(out, 'warnings', warnings, readWarnings);
  if (Number.isNaN(known)) return undefined;
  if (uncertain !== undefined) {
    const read = readUncertain(uncertain);
    if (read === undefined) return undefined;
    out.uncertain = read;
    known++;
  }
  return known === given ? (out as LessonOnDisk) : undefined;
}

/**
 * The `lessons` record read entry by entry and made whole as it goes (what completeState does
 * after zod: the file-wide `compiler`, the `folders` locations), or undefined when one entry may
 * not be valid or is left with no program_id.
 */
function readLessons(value: unknown, compiler: string | undefined, folders: Readonly<Record<string, SectionFolder>> | undefined): Record<string, LessonOnDisk> | undefined {
  if (!isRecord(value)) return undefined;
  const out = nullRecord<LessonOnDisk>();
  for (const key of Object.keys(value)) {
    if (key === '__proto__' || !LESSON_KEY_PATTERN.test(key)) return undefined;
    const entry = readLessonEntry(value[key]);
    if (entry === undefined) return undefined;
    if (compiler !== undefined && entry.digest !== undefined) entry.compiler ??= compiler;
    if (!expandLesson(entry, folders)) return undefined;
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

/** A record of strings (`content.lessons`: one per lesson too), or undefined. */
function readStrings(value: unknown): Record<string, string> | undefined {
  if (!isRecord(value)) return undefined;
  const out = nullRecord<string>();
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (key === '__proto__' || typeof v !== 'string') return undefined;
    out[key] = v;
  }
  return out;
}

/**
 * The other fields by zod (a few hundred entries), then the lessons (and an environment's
 * `content.lessons`) by the checks above, each made whole in the same pass; undefined for
 * anything else.
 */
function readFast(raw: Record<string, unknown>): StateData | undefined {
  if (!isRecord(raw.lessons)) return undefined;
  const content = isRecord(raw.content) ? raw.content : undefined;
  const contentLessons = content && readStrings(content.lessons);
  const rest = StateFieldsSchema.safeParse({ ...raw, lessons: {}, ...(contentLessons && { content: { ...content, lessons: {} } }) });
  if (!rest.success) return undefined;
  const { compiler, folders, ...fields } = rest.data;
  const lessons = readLessons(raw.lessons, compiler, folders);
  if (lessons === undefined) return undefined;
  if (contentLessons && fields.content) fields.content.lessons = contentLessons;
  return { ...fields, lessons: lessons as StateData['lessons'] };
}
