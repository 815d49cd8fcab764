/**
 * Wire schema of error bodies (docs/school-api.md#errors): a JSON object with one string field `error`, the
 * messages that occur, and the one mapping from a zod issue to the API's
 * `Invalid arguments: <json_path> <schema_keyword>` message (so client-side checks and the
 * emulator word schema failures the same way).
 */
import { z } from 'zod';

/** Error body (docs/school-api.md#errors). Tolerant: extra fields are ignored. */
export const ErrorBodySchema = z.object({ error: z.string() });
export type ErrorBody = z.output<typeof ErrorBodySchema>;

/** The messages listed in docs/school-api.md#errors (plus docs/school-api.md#choices-where-the-api-is-silent's rate-limit use of "Too many requests"). */
export const ErrorMessages = {
  accessDenied: 'Access denied',
  forbidden: 'Forbidden',
  noPermission: 'You do not have permission to perform this action',
  notFound: 'Record not found',
  validationFailed: 'Validation failed',
  invalidArguments: 'Invalid arguments',
  tooManyRequests: 'Too many requests',
} as const;

/** JSON pointer of an issue path: `['attributes', 'name']` → `/attributes/name`; root → ``. */
export function jsonPathOf(path: readonly PropertyKey[]): string {
  return path.map((p) => '/' + String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/**
 * The JSON Schema keyword that a zod issue corresponds to: minLength/maxLength, minimum/maximum,
 * type, enum, required, additionalProperties, pattern, format, anyOf, const. A custom issue
 * carries its keyword in `params.keyword`. A wrong type is `required` when the field is absent
 * from `input` (the parsed value) and `type` otherwise (zod does not keep the input by default).
 */
export function schemaKeywordOf(issue: z.core.$ZodIssue, input?: unknown): string {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' ? 'minLength' : issue.origin === 'array' ? 'minItems' : 'minimum';
    case 'too_big':
      return issue.origin === 'string' ? 'maxLength' : issue.origin === 'array' ? 'maxItems' : 'maximum';
    case 'invalid_type':
      return valueAt(input, issue.path) === undefined ? 'required' : 'type';
    case 'invalid_value': {
      // Absent → required; any present value outside the list (null included) → enum.
      if (valueAt(input, issue.path) === undefined) return 'required';
      return issue.values.length === 1 ? 'const' : 'enum';
    }
    case 'unrecognized_keys':
      return 'additionalProperties';
    case 'invalid_format':
      return issue.format === 'regex' ? 'pattern' : 'format';
    case 'invalid_union':
      return 'anyOf';
    case 'not_multiple_of':
      return 'multipleOf';
    case 'custom': {
      const keyword = (issue.params as { keyword?: unknown } | undefined)?.keyword;
      return typeof keyword === 'string' ? keyword : 'custom';
    }
    default:
      return 'type';
  }
}

/** The value at `path` inside `input`, or undefined when any step is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = input;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/**
 * `Invalid arguments: <json_path> <schema_keyword>` for the first issue of a failed parse
 * (docs/school-api.md#errors), e.g. `Invalid arguments: /name maxLength`. `input` is the value that was parsed (it
 * tells a missing field, `required`, from a wrong type, `type`). An unknown key names the key
 * itself: `/color additionalProperties`. `prefix` is prepended to the path, e.g.
 * `['attributes']` when the fields came nested in a lesson body.
 */
export function invalidArgumentsMessage(error: z.ZodError, input: unknown, prefix: readonly PropertyKey[] = []): string {
  const issue = error.issues[0];
  if (issue === undefined) return ErrorMessages.invalidArguments;
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  return `${ErrorMessages.invalidArguments}: ${jsonPathOf([...prefix, ...path])} ${schemaKeywordOf(issue, input)}`;
}
