/**
 * POST /lessons/{id}/duplicate and POST /products/{id}/duplicate (docs/school-api.md (#duplicate-a-lesson, #duplicate-a-program, #operations)).
 *
 * Choices where the API is silent (docs/school-api.md#choices-where-the-api-is-silent): a new operation answers 202, a repeat of
 * the same idempotency key with identical details 200 with the same operation (that is how
 * callers poll); keys are scoped per API key; "identical details" compares the request as sent
 * (source id, destination_section_id, name — an empty name equals an omitted one).
 * Error bodies follow each endpoint's list in docs/school-api.md (#duplicate-a-lesson, #duplicate-a-program): lesson duplication answers 422
 * `Invalid arguments…`, program duplication 403 `Forbidden` and 422 `Validation failed` for
 * its non-schema checks (key reuse, a copy name over 255 characters).
 */
import { characterCount } from '../../school-api/school-rules.js';
import { ErrorMessages } from '../../school-api/wire/errors.js';
import { LessonDuplicateBodySchema, MAX_NAME_LENGTH } from '../../school-api/wire/lessons.js';
import { ProgramDuplicateBodySchema } from '../../school-api/wire/programs.js';
import { ok, route, type Route, type RouteContext, type RouteResult } from '../context.js';
import { HttpError, invalidArgument, notFound, validate } from '../errors.js';
import { operationResponse } from '../operations.js';
import { canEdit, newId, type OperationRecord } from '../store.js';
import { editableSection } from './lessons.js';

const COPY_PREFIX = 'Copy of ';

/** The existing operation for a reused key: 200 when details match, else the conflict error. */
function reuse(ctx: RouteContext, key: string | undefined, fingerprint: string, conflict: HttpError): RouteResult | undefined {
  if (key === undefined) return undefined;
  const opId = ctx.store.idempotency.get(`${ctx.key.token}\u0000${key}`);
  if (opId === undefined) return undefined;
  const op = ctx.store.operations.get(opId)!;
  if (op.fingerprint !== fingerprint) throw conflict;
  return ok(operationResponse(op));
}

function accept(ctx: RouteContext, op: Omit<OperationRecord, 'id' | 'status' | 'result' | 'error' | 'completes_at'>, key: string | undefined): RouteResult {
  const { store } = ctx;
  const record: OperationRecord = { ...op, id: newId(store, 'op', store.operations), status: 'pending', result: null, error: null, completes_at: ctx.now() + ctx.settings.operationDelayMs };
  store.operations.set(record.id, record);
  store.pending.add(record.id);
  if (key !== undefined) store.idempotency.set(`${ctx.key.token}\u0000${key}`, record.id);
  return ok(operationResponse(record), 202);
}

function duplicateLesson(ctx: RouteContext): RouteResult {
  const body = validate(LessonDuplicateBodySchema, ctx.body.value);
  const sourceId = ctx.params[0]!;
  const fingerprint = JSON.stringify(['duplicate_lesson', sourceId, body.destination_section_id ?? null, body.name ?? '']);
  const repeated = reuse(ctx, body.idempotency_key, fingerprint, new HttpError(422, ErrorMessages.invalidArguments));
  if (repeated) return repeated;
  const source = ctx.store.lessons.get(sourceId);
  if (!source) throw notFound();
  editableSection(ctx, source.section_id);
  const destination = body.destination_section_id === undefined ? undefined : editableSection(ctx, body.destination_section_id);
  const name = body.name ? body.name : COPY_PREFIX + source.name;
  // Characters are code points, as everywhere in the API (docs/school-api.md#limits).
  if (characterCount(name) > MAX_NAME_LENGTH) throw invalidArgument('/name', 'maxLength');
  return accept(ctx, { operation: 'duplicate_lesson', source_id: sourceId, destination_section_id: destination?.id ?? null, name, fingerprint }, body.idempotency_key);
}

function duplicateProgram(ctx: RouteContext): RouteResult {
  const body = validate(ProgramDuplicateBodySchema, ctx.body.value);
  const sourceId = ctx.params[0]!;
  const fingerprint = JSON.stringify(['duplicate_program', sourceId, null, body.name ?? '']);
  const repeated = reuse(ctx, body.idempotency_key, fingerprint, new HttpError(422, ErrorMessages.validationFailed));
  if (repeated) return repeated;
  const program = ctx.store.programs.get(sourceId);
  if (!program) throw notFound();
  if (!canEdit(ctx.key, program.id)) throw new HttpError(403, ErrorMessages.forbidden);
  const name = body.name ? body.name : COPY_PREFIX + program.name;
  if (characterCount(name) > MAX_NAME_LENGTH) throw new HttpError(422, ErrorMessages.validationFailed);
  return accept(ctx, { operation: 'duplicate_program', source_id: sourceId, destination_section_id: null, name, fingerprint }, body.idempotency_key);
}

export const duplicateRoutes: Route[] = [
  route('POST', '/lessons/:id/duplicate', duplicateLesson),
  route('POST', '/products/:id/duplicate', duplicateProgram),
];
