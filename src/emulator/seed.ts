/**
 * The seed: the school the emulator starts with (docs/school-api.md#choices-where-the-api-is-silent). YAML, validated with zod; a bad
 * seed file is a CoursesyncError naming the file and the field.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { readFile } from 'node:fs/promises';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { CoursesyncError } from '../diagnostics/errors.js';
import { contentText, DEFAULT_LESSON_FIELDS, dripDelay, lessonName, lessonType, schoolId } from '../school-api/school-rules.js';

const id = schoolId;

const SeedLessonSchema = z.strictObject({
  id: id(),
  name: lessonName(),
  position: z.int().min(1),
  lesson_type: lessonType().default(DEFAULT_LESSON_FIELDS.lesson_type),
  drip_delay: dripDelay().default(DEFAULT_LESSON_FIELDS.drip_delay),
  is_published: z.boolean().default(DEFAULT_LESSON_FIELDS.is_published),
  is_progression_locked: z.boolean().default(DEFAULT_LESSON_FIELDS.is_progression_locked),
  description: contentText().default(DEFAULT_LESSON_FIELDS.description),
  body: contentText().default(DEFAULT_LESSON_FIELDS.body),
  settings_embed_host_a: contentText().nullable().default(null),
  settings_embed_host_b: contentText().nullable().default(null),
  settings_embed_host_c: contentText().nullable().default(null),
  settings_embed_host_d: contentText().nullable().default(null),
  settings_embed_code: contentText().nullable().default(null),
  embed_code: contentText().nullable().default(null),
  media: z.record(z.string(), z.unknown()).default({}),
  /** Step types; a lesson without `steps` has one completion step, like a created one. */
  steps: z.array(z.string().min(1)).optional(),
});

const SeedSectionSchema = z.strictObject({
  id: id(),
  name: schoolId(),
  section_group_id: id().nullable().default(null),
  position: z.int().min(1),
  description: z.string().default(''),
  drip_delay: z.int().min(0).default(0),
  is_published: z.boolean().default(true),
  lessons: z.array(SeedLessonSchema).default([]),
});

const SeedProgramSchema = z.strictObject({
  id: id(),
  name: schoolId(),
  description: z.string().default(''),
  is_published: z.boolean().default(true),
  section_groups: z.array(z.strictObject({ id: id(), name: z.string(), position: z.int().min(1) })).default([]),
  sections: z.array(SeedSectionSchema).default([]),
  /** Members enrolled in the program; a program copy has none (docs/school-api.md#states). */
  member_ids: z.array(id()).default([]),
});

const SeedPriceSchema = z.strictObject({
  id: id(),
  amount: z.int(),
  currency: z.string().min(1),
  price_type: z.string().default('one_time'),
  recurring_interval: z.string().nullable().default(null),
  recurring_interval_count: z.int().nullable().default(null),
});

export const SeedSchema = z.strictObject({
  api_keys: z
    .array(z.strictObject({ token: z.string().min(1), programs: z.union([z.literal('all'), z.array(id())]) }))
    .min(1),
  programs: z.array(SeedProgramSchema).default([]),
  members: z
    .array(
      z.strictObject({
        id: id(),
        email: z.string().min(3),
        first_name: z.string(),
        last_name: z.string(),
        last_seen_at: z.string().nullable().default(null),
      }),
    )
    .default([]),
  offers: z
    .array(
      z.strictObject({
        id: id(),
        name: z.string().min(1),
        description: z.string().default(''),
        is_published: z.boolean().default(true),
        prices: z.array(SeedPriceSchema).default([]),
        member_ids: z.array(id()).default([]),
      }),
    )
    .default([]),
  badges: z.array(z.strictObject({ id: id(), name: z.string().min(1) })).default([]),
  custom_code: z
    .strictObject({ custom_code_head: z.string(), custom_code_body: z.string() })
    .default({ custom_code_head: '', custom_code_body: '' }),
});

/** A seed as written (defaults optional). */
export type SeedInput = z.input<typeof SeedSchema>;
/** A validated seed, defaults filled in. */
export type Seed = z.output<typeof SeedSchema>;
export type SeedProgram = Seed['programs'][number];
export type SeedLesson = z.output<typeof SeedLessonSchema>;

/**
 * Validate a seed object (already parsed from YAML or built in code). `source` names it in
 * errors. Also checks references: sections point at groups of their program, offers at members.
 */
export function parseSeed(value: unknown, source: string, locate?: (path: readonly PropertyKey[]) => string | undefined): Seed {
  const result = SeedSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue ? (issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path) : [];
    const where = path.join('.') || '(top level)';
    const place = locate?.(path) ?? source;
    throw failure('emulator/bad-seed', { place, problem: `${where}: ${issue?.message ?? 'invalid'}`, kind: 'schema' });
  }
  const seed = result.data;
  const problem = findReferenceProblem(seed);
  if (problem) throw failure('emulator/bad-seed', { place: source, problem, kind: 'reference' });
  return seed;
}

function findReferenceProblem(seed: Seed): string | undefined {
  const ids = new Set<string>();
  const dup = (kind: string, id: string): string | undefined => {
    const k = `${kind}:${id}`;
    if (ids.has(k)) return `${kind} id ${id} is defined twice`;
    ids.add(k);
    return undefined;
  };
  const members = new Set(seed.members.map((m) => m.id));
  for (const m of seed.members) {
    const d = dup('member', m.id);
    if (d) return d;
  }
  for (const p of seed.programs) {
    const d = dup('program', p.id);
    if (d) return d;
    const groups = new Set(p.section_groups.map((g) => g.id));
    for (const s of p.sections) {
      const ds = dup('section', s.id);
      if (ds) return ds;
      if (s.section_group_id !== null && !groups.has(s.section_group_id)) {
        return `section ${s.id} names section_group_id ${s.section_group_id}, which is not a group of program ${p.id}`;
      }
      for (const l of s.lessons) {
        const dl = dup('lesson', l.id);
        if (dl) return dl;
      }
    }
    for (const m of p.member_ids) if (!members.has(m)) return `program ${p.id} lists member ${m}, which is not defined`;
  }
  for (const o of seed.offers) {
    const d = dup('offer', o.id);
    if (d) return d;
    for (const m of o.member_ids) if (!members.has(m)) return `offer ${o.id} lists member ${m}, which is not defined`;
  }
  return undefined;
}

/** Read and validate a seed YAML file; errors name the file. */
export async function readSeedFile(path: string): Promise<Seed> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw failure('emulator/seed-unreadable', { path, reason: (e as NodeJS.ErrnoException).code ?? String(e) }, { cause: e });
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const pos = yamlError.linePos?.[0];
    const place = pos ? `${path}:${pos.line}:${pos.col}` : path;
    throw failure('emulator/bad-seed', { place, problem: yamlError.code, kind: 'yaml' }, { cause: yamlError });
  }
  // path:line:col of the deepest node that exists along a zod issue path.
  const locate = (issuePath: readonly PropertyKey[]): string => {
    for (let n = issuePath.length; n >= 0; n--) {
      const node = doc.getIn(issuePath.slice(0, n) as Array<string | number>, true);
      if (isNode(node) && node.range) {
        const { line, col } = lines.linePos(node.range[0]);
        return `${path}:${line}:${col}`;
      }
    }
    return path;
  };
  return parseSeed(doc.toJS(), path, locate);
}
