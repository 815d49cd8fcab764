/**
 * Wire schemas of sections (docs/school-api.md#sections Section, docs/school-api.md#sections GET /sections). The query parameter names
 * are not shown in the school's API; docs/school-api.md#choices-where-the-api-is-silent chose them: `product_id` (1–255), optional
 * `section_group_id` (1–255), `page` (1–10000), `per_page` (1–30) and `search` (≤10000).
 */
import { z } from 'zod';
import { queryInt } from './query.js';
import { schoolId } from '../school-rules.js';

export const SECTIONS_MAX_PER_PAGE = 30;

/** Section (docs/school-api.md#sections). section_group_id is null for a section outside any group. */
export const SectionSchema = z.object({
  id: z.string(),
  product_id: z.string(),
  section_group_id: z.string().nullable(),
  section_group_position: z.int().nullable(),
  name: z.string(),
  description: z.string(),
  position: z.int(),
  drip_delay: z.int(),
  is_published: z.boolean(),
});
export type Section = z.output<typeof SectionSchema>;

/** GET /sections response (docs/school-api.md#sections). */
export const SectionPageSchema = z.object({
  data: z.array(SectionSchema),
  page: z.int(),
  next_page: z.int().nullable(),
});
export type SectionPage = z.output<typeof SectionPageSchema>;

/** GET /sections query (docs/school-api.md#sections constraints with the docs/school-api.md#choices-where-the-api-is-silent names). */
export const SectionListQuerySchema = z.object({
  product_id: schoolId(),
  section_group_id: schoolId().optional(),
  page: queryInt(1, 10_000).optional(),
  per_page: queryInt(1, SECTIONS_MAX_PER_PAGE).optional(),
  search: z.string().max(10_000).optional(),
});
export type SectionListQuery = z.output<typeof SectionListQuerySchema>;
