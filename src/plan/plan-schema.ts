/**
 * The Plan (docs/architecture.md#plan, docs/school-api.md#webhooks) as zod schemas: the single source of its types, and the parser apply
 * uses for a saved plan file. A plan is data: a union of step types that apply runs with one
 * handler per type, in `chains` (chains in parallel, the steps of one chain in order).
 */
import { z } from 'zod';
import { IMPACT_LEVELS, IMPACT_RULE_NAMES, type ImpactRule } from '../model/acknowledge.js';
import { LESSON_FIELDS } from '../school-api/school-rules.js';
import { LessonUpdateBodySchema } from '../school-api/wire/lessons.js';

/** 2: plans carry `impact` (a version-1 plan is refused with a clear message, never misread). */
export const PLAN_FORMAT_VERSION = 2;

const FieldValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * The exact JSON body of a create or update request (API field names): an update body as the
 * school validates it, with `content_format` always `html` (bodies are rendered locally).
 */
export const LessonRequestSchema = LessonUpdateBodySchema.extend({ content_format: z.literal('html').optional() });
export type LessonRequest = z.output<typeof LessonRequestSchema>;

/** One field's change; `before` is the last-applied value (null on create). */
export const FieldChangeSchema = z.strictObject({
  field: z.string(),
  before: FieldValue,
  after: FieldValue,
});
export type FieldChange = z.output<typeof FieldChangeSchema>;

const Common = {
  /** The lesson's key in the repo (for removed lessons: its key in state). */
  key: z.string(),
  /** Repo-relative lesson file (for removed lessons: where it was). */
  path: z.string(),
  lesson_id: z.string().nullable(),
  program_id: z.string(),
  /** The section the lesson is in after this change. */
  section_id: z.string(),
  /** The predicted position after this change (null when unknown). */
  position: z.int().nullable(),
  fields: z.array(FieldChangeSchema),
};

/** Steps that send a request. `call_id` names its write-ahead record and its place in `chains`. */
const Call = {
  ...Common,
  call_id: z.string(),
  request: LessonRequestSchema,
  /** Why the body or description changed when the lesson file alone does not say: "image img/x.png changed". */
  why: z.array(z.string()).optional(),
  /** Git blob ids of the lesson file as last applied and now (null when unknown): the old Markdown is `git cat-file blob <before>`. */
  source: z.strictObject({ path: z.string(), before: z.string().nullable(), after: z.string().nullable() }).optional(),
  /**
   * Why body or description changed: the lesson `file`; only the `renderer` (compiler) while
   * file, references and settings did not; only a referenced file or linked lesson
   * (`references`); only inherited `settings`. Absent when neither changed or it is not known.
   */
  cause: z.enum(['file', 'renderer', 'references', 'settings']).optional(),
};

export const CreateStepSchema = z.strictObject({ action: z.literal('create'), ...Call });
export const UpdateStepSchema = z.strictObject({
  action: z.literal('update'),
  ...Call,
  /** Key in state when the lesson was renamed (matched through `aliases`). */
  state_key: z.string(),
});
export const MoveStepSchema = z.strictObject({
  action: z.literal('move'),
  ...Call,
  state_key: z.string(),
  from: z.strictObject({ program_id: z.string(), section_id: z.string(), position: z.int().nullable() }),
});
export const UnpublishStepSchema = z.strictObject({
  action: z.literal('unpublish'),
  ...Call,
  /** The section it was in; differs from section_id when archived. */
  from_section_id: z.string(),
  archived: z.boolean(),
});
export const OrphanStepSchema = z.strictObject({ action: z.literal('orphan'), ...Common });
export const DriftStepSchema = z.strictObject({
  action: z.literal('drift'),
  ...Common,
  /** Fields whose live value differs from the last response; `before` is the last-applied input. */
  drifted: z.array(z.string()),
});
export const UncertainStepSchema = z.strictObject({
  action: z.literal('uncertain'),
  ...Common,
  name: z.string(),
  since: z.string(),
  hint: z.string(),
});

export const PlanChangeSchema = z.discriminatedUnion('action', [
  CreateStepSchema,
  UpdateStepSchema,
  MoveStepSchema,
  UnpublishStepSchema,
  OrphanStepSchema,
  DriftStepSchema,
  UncertainStepSchema,
]);
export type PlanChange = z.output<typeof PlanChangeSchema>;
export type CreateStep = z.output<typeof CreateStepSchema>;
export type UpdateStep = z.output<typeof UpdateStepSchema>;
export type MoveStep = z.output<typeof MoveStepSchema>;
export type UnpublishStep = z.output<typeof UnpublishStepSchema>;
export type OrphanStep = z.output<typeof OrphanStepSchema>;
export type DriftStep = z.output<typeof DriftStepSchema>;
export type UncertainStep = z.output<typeof UncertainStepSchema>;
export type CallStep = CreateStep | UpdateStep | MoveStep | UnpublishStep;
export type Action = PlanChange['action'];


/** Sections whose calls must run in one sequence; `steps` are call ids in order. */
export const ChainSchema = z.strictObject({
  sections: z.array(z.string()),
  steps: z.array(z.string()),
});
export type Chain = z.output<typeof ChainSchema>;

export const SummarySchema = z.strictObject({
  create: z.int(),
  update: z.int(),
  move: z.int(),
  unpublish: z.int(),
  orphan: z.int(),
  drift: z.int(),
  uncertain: z.int(),
  unchanged: z.int(),
});
export type PlanSummary = z.output<typeof SummarySchema>;

/** What a change means for enrolled learners (docs/learner-impact.md); `acknowledged` in the repo or not. */
export const ImpactSchema = z.strictObject({
  level: z.enum(IMPACT_LEVELS),
  rule: z.enum(IMPACT_RULE_NAMES as [ImpactRule, ...ImpactRule[]]),
  key: z.string(),
  path: z.string(),
  message: z.string(),
  /** A sized rule's size (unlock day, lessons gated, new type): what an acknowledgement must accept. */
  accepts: z.string().optional(),
  acknowledged: z.boolean(),
});
export type Impact = z.output<typeof ImpactSchema>;
/** A diagnostic carried by a plan (the repo's warnings, so no plan format hides them). */
export const PlanDiagnosticSchema = z.strictObject({
  file: z.string(),
  line: z.int().optional(),
  column: z.int().optional(),
  code: z.string(),
  severity: z.enum(['error', 'warning']),
  message: z.string(),
  hint: z.string().optional(),
  excerpt: z.string().optional(),
});

export const PlanSchema = z.strictObject({
  format_version: z.literal(PLAN_FORMAT_VERSION),
  summary: SummarySchema,
  /** Calls in chain order, then the changes that send nothing (orphan, drift, uncertain). */
  changes: z.array(PlanChangeSchema),
  chains: z.array(ChainSchema),
  /** What the plan was made from, so apply can refuse a stale saved plan. */
  state: z.strictObject({ lineage: z.string(), serial: z.int() }),
  desired_digest: z.string(),
  base_url: z.string().nullable(),
  /** The environment planned for (`--env`), in a repo with environments; named first in every rendering. */
  environment: z.string().optional(),
  /**
   * An environment with `promote_from` whose promotion check was overridden
   * (`--skip-promotion-check`): the lessons that were not applied to the source first.
   */
  promotion_skipped: z
    .strictObject({
      from: z.string(),
      lessons: z.array(z.strictObject({ path: z.string(), why: z.string() })),
    })
    .optional(),
  /**
   * Lessons renamed through `aliases` (state key → repo key). Apply re-keys their state entries;
   * a rename alone sends no request.
   */
  /** State keys taken over by a repo lesson: through its `aliases:`, or `by: content` (a moved file, matched by its unchanged fields). */
  renames: z.array(z.strictObject({ from: z.string(), to: z.string(), by: z.literal('content').optional() })),
  /** Whether live lessons were read (`--refresh`). */
  refreshed: z.boolean(),
  /** Learner impact of the changes, errors first. */
  impact: z.array(ImpactSchema),
  /** Warnings about the repo's files (shown in every format and as CI annotations). */
  warnings: z.array(PlanDiagnosticSchema).optional(),
  /** What the plan could not check and why, and what to run next (one sentence each). */
  notes: z.array(z.string()).optional(),
});
export type Plan = z.output<typeof PlanSchema>;


/** Field names in the fixed order plans list them. */
export const PLAN_FIELD_ORDER: readonly string[] = [...LESSON_FIELDS, 'section_id', 'position'];
