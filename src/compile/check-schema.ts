/**
 * Check a parsed YAML value against a zod schema (PURE) and turn every issue into a
 * diagnostic at the YAML line of the bad field, with a did-you-mean hint for unknown keys.
 */
import { z } from 'zod';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diag, type Code, type Place } from './codes.js';
import type { ParsedYaml } from './parse-yaml.js';
import { foreignKeyHint } from './foreign-keys.js';
import { suggest } from './suggest.js';

export type FileKind = 'lesson' | 'program' | 'section' | 'config' | 'webhooks';

/** One problem found by the schema, before it becomes a diagnostic. */
export interface SchemaProblem {
  kind: 'unknown-key' | 'missing-field' | 'invalid-field';
  path: readonly PropertyKey[];
  /** The unknown key (unknown-key). */
  key?: string;
  /** The value found (invalid-field). */
  input?: unknown;
  message: string;
  hint: string | undefined;
}

/**
 * How a file whose paths need other names words its problems (webhooks.yaml is a list: "webhook
 * 2", not "1"), and the hints only its checker knows. Both default to the generic wording.
 */
export interface SchemaWording {
  /** How a path is named in messages; default `"a.b"`. */
  subject?(path: readonly PropertyKey[]): string;
  /** Replace the message or hint of a problem. */
  refine?(problem: SchemaProblem): { message?: string; hint?: string | undefined } | undefined;
}

/** A lesson's unknown key with no near guess may be another tool's (mdbook-course's minutes:). */
const OTHER_TOOLS = '; a key another tool reads is left to it by `front_matter: { ignore: [key] }` in coursesync.yaml';

const quotedPath = (path: readonly PropertyKey[]) => `"${path.map(String).join('.')}"`;

/**
 * `safeParse` `value` with `schema`; push one diagnostic per issue onto `out`.
 * Returns the parsed data, or undefined when there was any issue.
 */
export function checkSchema<S extends z.ZodType>(
  schema: S,
  value: unknown,
  yaml: ParsedYaml,
  file: string,
  kind: FileKind,
  out: Diagnostic[],
  wording: SchemaWording = {},
): z.output<S> | undefined {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  for (const issue of result.error.issues) out.push(...issueDiagnostics(issue, schema, value, yaml, file, kind, wording));
  return undefined;
}

function issueDiagnostics(issue: z.core.$ZodIssue, schema: z.ZodType, value: unknown, yaml: ParsedYaml, file: string, kind: FileKind, wording: SchemaWording): Diagnostic[] {
  const path = issue.path;
  const subject = wording.subject ?? quotedPath;
  const make = (problem: SchemaProblem, place: Place | undefined): Diagnostic => {
    const better = wording.refine?.(problem);
    return diag(`${kind}/${problem.kind}` as Code, file, place, better?.message ?? problem.message, better && 'hint' in better ? better.hint : problem.hint);
  };

  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(schema, path);
    return issue.keys.map((key) => {
      // Another tool's word for a top-level key beats a spelling guess (`title` is no typo of `name`).
      const foreign = path.length === 0 ? foreignKeyHint(kind, key, valueAt(value, key)) : undefined;
      const guess = suggest(key, known);
      const hint = foreign ?? (guess ? `did you mean "${guess}"?` : `allowed keys: ${known.join(', ')}${kind === 'lesson' && path.length === 0 ? OTHER_TOOLS : ''}`);
      const where = path.length > 0 ? ` in ${subject(path)}` : '';
      return make({ kind: 'unknown-key', path, key, message: `unknown key "${key}"${where}`, hint }, yaml.placeOf([...path, key], 'key'));
    });
  }
  // A field left out fails a union (an id, or one per environment) as it fails one type.
  if ((issue.code === 'invalid_type' || issue.code === 'invalid_union') && issue.input === undefined && path.length > 0) {
    const parent = path.slice(0, -1);
    return [make({ kind: 'missing-field', path, message: `missing required field ${subject(path)}`, hint: undefined }, yaml.placeOf(parent) ?? yaml.start)];
  }
  const place = yaml.placeOf(path, issue.code === 'invalid_key' ? 'key' : 'value') ?? yaml.start;
  const what = path.length > 0 ? subject(path) : 'the file';
  return [make({ kind: 'invalid-field', path, input: issue.input, message: `${what} ${describeIssue(issue)}`, hint: hintFor(issue) }, place)];
}

/** The value of a top-level key of the file (for hints that quote it). */
function valueAt(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}, not ${typeName(issue.input)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, not ${JSON.stringify(issue.input)}`;
    case 'too_big':
      return issue.origin === 'string' ? `is longer than ${String(issue.maximum)} characters` : issue.origin === 'array' ? `has more than ${String(issue.maximum)} items` : `must be at most ${String(issue.maximum)}`;
    case 'too_small':
      return issue.origin === 'string' ? (Number(issue.minimum) <= 1 ? 'must not be empty' : `is shorter than ${String(issue.minimum)} characters`) : `must be at least ${String(issue.minimum)}`;
    case 'invalid_format':
      return issue.message.startsWith('Invalid') ? `is not a valid ${issue.format}` : customMessage(issue.message);
    case 'invalid_key': {
      // A mapping's key its schema refuses (site_paths: an address): what the key's own check says.
      const inner = issue.issues[0];
      return inner ? `is not a valid key: it ${describeIssue(inner)}` : 'is not a valid key';
    }
    default:
      return customMessage(issue.message);
  }
}

/** A schema's own message: a predicate ("must …") reads on its own; anything else follows "is invalid:". */
function customMessage(message: string): string {
  return message.startsWith('must ') ? message : `is invalid: ${message}`;
}

function hintFor(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code === 'invalid_value' && typeof issue.input === 'string') {
    const guess = suggest(issue.input, issue.values.map(String));
    if (guess) return `did you mean "${guess}"?`;
  }
  if (issue.code === 'invalid_type' && issue.expected === 'string' && (typeof issue.input === 'number' || typeof issue.input === 'boolean')) {
    return 'quote the value to make it a string';
  }
  return undefined;
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'object') return 'a mapping';
  if (expected === 'array') return 'a list';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'number') return Number.isSafeInteger(v) ? `the integer ${v}` : `the number ${v}`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${String(v)}`;
}

/** The keys an object schema allows at `path` (for did-you-mean). */
function keysAt(schema: z.ZodType, path: ReadonlyArray<PropertyKey>): string[] {
  let s: unknown = schema;
  for (const segment of [...path, undefined]) {
    for (;;) {
      if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap();
      else if (s instanceof z.ZodDefault) s = s.unwrap();
      else break;
    }
    if (segment === undefined) break;
    if (s instanceof z.ZodObject) s = (s.shape as Record<string, unknown>)[String(segment)];
    else if (s instanceof z.ZodArray) s = s.element;
    else return [];
  }
  return s instanceof z.ZodObject ? Object.keys(s.shape as Record<string, unknown>) : [];
}
