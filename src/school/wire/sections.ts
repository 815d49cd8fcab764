/**
 * Wire schemas of sections (API §2.7 Section, §4.9 GET /sections). The query parameter names
 * are not shown in the API document; DESIGN §7 chose them: `product_id` (1–255), optional
 * `section_group_id` (1–255), `page` (1–10000), `per_page` (1–30) and `search` (≤10000).
 */
import { z } from 'zod';
import { queryInt } from './query.js';

export const SECTIONS_MAX_PER_PAGE = 30;

/** Section (§2.7). section_group_id is null for a section outside any group. */
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

/** GET /sections response (§4.9). */
export const SectionPageSchema = z.object({
  data: z.array(SectionSchema),
  page: z.int(),
  next_page: z.int().nullable(),
});
export type SectionPage = z.output<typeof SectionPageSchema>;

/** GET /sections query (§4.9 constraints with the DESIGN §7 names). */
export const SectionListQuerySchema = z.object({
  product_id: z.string().min(1).max(255),
  section_group_id: z.string().min(1).max(255).optional(),
  page: queryInt(1, 10_000).optional(),
  per_page: queryInt(1, SECTIONS_MAX_PER_PAGE).optional(),
  search: z.string().max(10_000).optional(),
});
export type SectionListQuery = z.output<typeof SectionListQuerySchema>;
