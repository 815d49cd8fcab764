/**
 * GET /sections (docs/school-api.md#sections) with the docs/school-api.md#choices-where-the-api-is-silent query names: `product_id` (required),
 * `section_group_id`, `page` (1–10000, default 1), `per_page` (1–30, default 30), `search`
 * (≤10000, case-insensitive substring of the name).
 *
 * Choices: bad query values answer 422 `{"error":"Invalid arguments"}` (the message docs/school-api.md#errors lists for
 * section listing) and so do unknown query parameters; a key without edit access to the
 * program answers 403 "You do not have permission to perform this action"; an unknown program
 * or group 404. Sections are ordered by group position, then section position (with a group
 * filter: the order within the group).
 */
import { ErrorMessages } from '../../school-api/wire/errors.js';
import { SectionListQuerySchema, SECTIONS_MAX_PER_PAGE, type Section } from '../../school-api/wire/sections.js';
import { ok, route, type Route, type RouteContext, type RouteResult } from '../context.js';
import { HttpError, notFound } from '../errors.js';
import { canEdit, type SectionRecord } from '../store.js';

const QUERY_NAMES = new Set(['product_id', 'section_group_id', 'page', 'per_page', 'search']);

function listSections(ctx: RouteContext): RouteResult {
  const raw: Record<string, string> = {};
  for (const [k, v] of ctx.query) {
    if (!QUERY_NAMES.has(k)) throw new HttpError(422, ErrorMessages.invalidArguments);
    raw[k] = v;
  }
  const parsed = SectionListQuerySchema.safeParse(raw);
  if (!parsed.success) throw new HttpError(422, ErrorMessages.invalidArguments);
  const q = parsed.data;
  const program = ctx.store.programs.get(q.product_id);
  if (!program) throw notFound();
  if (!canEdit(ctx.key, program.id)) throw new HttpError(403, ErrorMessages.noPermission);
  const groupPosition = new Map(program.section_groups.map((g) => [g.id, g.position]));
  if (q.section_group_id !== undefined && !groupPosition.has(q.section_group_id)) throw notFound();
  const needle = q.search?.toLowerCase();
  const sections = program.section_ids
    .map((id) => ctx.store.sections.get(id)!)
    .filter((s) => q.section_group_id === undefined || s.section_group_id === q.section_group_id)
    .filter((s) => needle === undefined || s.name.toLowerCase().includes(needle))
    .sort((a, b) => groupOrder(a, groupPosition) - groupOrder(b, groupPosition) || a.position - b.position || a.id.localeCompare(b.id));
  const page = q.page ?? 1;
  const perPage = q.per_page ?? SECTIONS_MAX_PER_PAGE;
  const data = sections.slice((page - 1) * perPage, page * perPage).map((s) => sectionResponse(s, groupPosition));
  const next_page = page * perPage < sections.length ? page + 1 : null;
  return ok({ data, page, next_page });
}

function groupOrder(s: SectionRecord, groupPosition: Map<string, number>): number {
  return s.section_group_id === null ? 0 : (groupPosition.get(s.section_group_id) ?? 0);
}

function sectionResponse(s: SectionRecord, groupPosition: Map<string, number>): Section {
  return {
    id: s.id,
    product_id: s.program_id,
    section_group_id: s.section_group_id,
    section_group_position: s.section_group_id === null ? null : (groupPosition.get(s.section_group_id) ?? null),
    name: s.name,
    description: s.description,
    position: s.position,
    drip_delay: s.drip_delay,
    is_published: s.is_published,
  };
}

export const sectionRoutes: Route[] = [route('GET', '/sections', listSections)];
