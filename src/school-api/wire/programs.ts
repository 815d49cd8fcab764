/**
 * Wire schemas of programs (docs/school-api.md#duplicate-a-program POST /products/{id}/duplicate). The path segment for a
 * program is `products`. The response is an operation (operations.ts).
 */
import { z } from 'zod';
import { MAX_NAME_LENGTH } from './lessons.js';

/**
 * POST /products/{id}/duplicate body (docs/school-api.md#duplicate-a-program). `name` may be empty (gives the original name with
 * a "Copy of" prefix); the resulting name must fit 255 characters (checked by the server).
 * Choice: idempotency_key optional, as in lesson duplication; the client always sends one.
 */
export const ProgramDuplicateBodySchema = z.strictObject({
  name: z.string().max(MAX_NAME_LENGTH).optional(),
  idempotency_key: z.string().min(1).max(MAX_NAME_LENGTH).optional(),
});
export type ProgramDuplicateBody = z.input<typeof ProgramDuplicateBodySchema>;
