/**
 * HTTP errors of the emulator, and schema validation that answers the API's
 * `Invalid arguments: <json_path> <schema_keyword>` (docs/school-api.md#errors). The issue → message mapping is the
 * shared one of src/school-api/wire/errors.ts, so client-side checks and the server agree.
 *
 * json_path rule: the JSON Pointer of the offending value in the body *as the caller sent it*
 * (`/name` for a flat body, `/attributes/name` for a nested one, `/extra_parameters/step_type/0`
 * inside arrays). A missing required field points at the field (`/name required`), an unknown
 * field at the unknown key (`/colour additionalProperties`), a body that is not an object at
 * `/` (`/ type`). Only the first issue is reported, in schema field order.
 */
import type { z } from 'zod';
import { ErrorMessages, invalidArgumentsMessage } from '../school-api/wire/errors.js';

/** An error answer: status, `{error}` body, optional extra headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (): HttpError => new HttpError(404, ErrorMessages.notFound);
export const denied = (): HttpError => new HttpError(403, ErrorMessages.accessDenied);

/** 422 `Invalid arguments: <path> <keyword>` for a check made outside a schema. */
export function invalidArgument(path: string, keyword: string): HttpError {
  return new HttpError(422, `${ErrorMessages.invalidArguments}: ${path} ${keyword}`);
}

/** Is this a plain JSON object (not an array, not null)? */
export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Parse `value` with `schema` or throw the 422 of its first issue. `prefix` re-roots the
 * reported path (e.g. `['attributes']`). The shared mapping looks into `value` to tell a missing
 * field (`required`) from a wrong one (`type`).
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown, prefix: readonly PropertyKey[] = []): z.output<S> {
  if (!isObject(value)) throw invalidArgument(prefix.length ? '/' + prefix.join('/') : '/', 'type');
  const result = schema.safeParse(value);
  if (!result.success) throw new HttpError(422, invalidArgumentsMessage(result.error, value, prefix));
  return result.data;
}
