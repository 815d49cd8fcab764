/**
 * The emulator's in-memory school. Plain maps indexed by id, so every request does work
 * proportional to what it touches (one lesson, one section's slots), never to the whole school.
 * Lesson positions live in per-section SectionSlots (src/school-api/positions.ts), the same model
 * the planner simulates.
 */
import type { LessonFields } from '../model/desired.js';
import type { SectionSlots } from '../school-api/positions.js';
import type { LessonMedia } from '../school-api/wire/lessons.js';
import type { ProgramRecord } from '../school-api/wire/operations.js';
import type { Seed, SeedLesson } from './seed.js';

/** A lesson step. Its fields are not shown by the API; we keep an id and a type. */
export interface Step {
  id: string;
  step_type: string;
}

/** A lesson as the school stores it: the input fields of the API plus what the school adds. */
export interface LessonRecord extends LessonFields {
  id: string;
  section_id: string;
  transcripts: unknown[];
  media: LessonMedia;
  /** Internal: not in API responses, visible in GET /__emulator/state. */
  steps: Step[];
}

export interface SectionRecord {
  id: string;
  program_id: string;
  section_group_id: string | null;
  name: string;
  description: string;
  position: number;
  drip_delay: number;
  is_published: boolean;
  slots: SectionSlots;
}

export interface ProgramRecordInternal extends Omit<ProgramRecord, 'section_groups'> {
  section_groups: Array<{ id: string; name: string; position: number }>;
  section_ids: string[];
  member_ids: string[];
}

export interface MemberRecord {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  last_seen_at: string | null;
  created_at: string;
  updated_at: string;
  is_suspended: boolean;
  is_banned: boolean;
}

export interface PriceRecord {
  id: string;
  amount: number;
  currency: string;
  price_type: string;
  recurring_interval: string | null;
  recurring_interval_count: number | null;
}

export interface OfferRecord {
  id: string;
  name: string;
  description: string;
  is_published: boolean;
  prices: PriceRecord[];
  created_at: string;
  in_trash: boolean;
}

export interface AccessRecord {
  id: string;
  member_id: string;
  offer_id: string;
  price: PriceRecord;
  is_active: boolean;
  access_created_at: string;
}

export interface AwardRecord {
  id: string;
  badge_id: string;
  member_id: string;
  unlocked_at: string;
}

export interface WebhookRecord {
  id: string;
  webhook_url: string;
  event_type: string;
  provider: string;
  extra_parameters: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface DeliveryRecord {
  webhook_id: string;
  url: string;
  event_type: string;
  /** HTTP status of the receiver's answer; null when nothing was answered. */
  status: number | null;
  error: string | null;
  payload: unknown;
}

export interface OperationRecord {
  id: string;
  operation: 'duplicate_lesson' | 'duplicate_program';
  status: 'pending' | 'completed' | 'failed';
  result: unknown;
  error: string | null;
  /** Internal: when the copy is made (ms since epoch). */
  completes_at: number;
  /** Internal: what to copy, fixed when the request was accepted. */
  source_id: string;
  destination_section_id: string | null;
  name: string;
  /** Internal: the request details an idempotency key is bound to. */
  fingerprint: string;
}

export interface ApiKey {
  token: string;
  programs: 'all' | Set<string>;
}

/** The whole school. */
export interface Store {
  apiKeys: Map<string, ApiKey>;
  programs: Map<string, ProgramRecordInternal>;
  sections: Map<string, SectionRecord>;
  lessons: Map<string, LessonRecord>;
  members: Map<string, MemberRecord>;
  offers: Map<string, OfferRecord>;
  accesses: Map<string, AccessRecord>;
  badges: Map<string, { id: string; name: string }>;
  /** `badge_id member_id` → award. */
  awards: Map<string, AwardRecord>;
  notifications: Array<{ award_id: string; badge_id: string; member_id: string; sent_at: string }>;
  customCode: { custom_code_head: string; custom_code_body: string };
  webhooks: Map<string, WebhookRecord>;
  deliveries: DeliveryRecord[];
  operations: Map<string, OperationRecord>;
  /** Operations not yet completed or failed. */
  pending: Set<string>;
  /** `token \u0000 idempotency_key` → operation id. Keys are scoped per API key. */
  idempotency: Map<string, string>;
  counters: Map<string, number>;
}

/** Fixed timestamp of everything in the seed, so the seed's responses are stable. */
export const SEED_TIME = '2026-01-01T00:00:00.000Z';

export function emptyMedia(): LessonMedia {
  return { pdf_url: null, audio_url: null, video_poster_url: null, video_status: null, video_id: null, video_error: null, video_progress: null };
}

/** A fresh id `<prefix>_<n>` that no record of `taken` uses yet. */
export function newId(store: Store, prefix: string, taken: ReadonlyMap<string, unknown>): string {
  let n = store.counters.get(prefix) ?? 0;
  let id: string;
  do {
    n += 1;
    id = `${prefix}_${n}`;
  } while (taken.has(id));
  store.counters.set(prefix, n);
  return id;
}

/** Step ids come from their own counter and are never taken by seeds. */
const NO_IDS: ReadonlyMap<string, unknown> = new Map();

/** A new completion step: every created lesson has exactly one (docs/school-api.md (#lesson, #states)). */
export function completionStep(store: Store): Step {
  return { id: newId(store, 'stp', NO_IDS), step_type: 'completion' };
}

/** Build the school from a validated seed. */
export function createStore(seed: Seed): Store {
  const store: Store = {
    apiKeys: new Map(seed.api_keys.map((k) => [k.token, { token: k.token, programs: k.programs === 'all' ? 'all' : new Set(k.programs) }])),
    programs: new Map(),
    sections: new Map(),
    lessons: new Map(),
    members: new Map(),
    offers: new Map(),
    accesses: new Map(),
    badges: new Map(seed.badges.map((b) => [b.id, { id: b.id, name: b.name }])),
    awards: new Map(),
    notifications: [],
    customCode: { ...seed.custom_code },
    webhooks: new Map(),
    deliveries: [],
    operations: new Map(),
    pending: new Set(),
    idempotency: new Map(),
    counters: new Map(),
  };
  for (const m of seed.members) {
    store.members.set(m.id, { ...m, created_at: SEED_TIME, updated_at: SEED_TIME, is_suspended: false, is_banned: false });
  }
  for (const p of seed.programs) {
    store.programs.set(p.id, {
      ...defaultProgramFields(),
      id: p.id,
      name: p.name,
      description: p.description,
      is_published: p.is_published,
      settings_is_section_groups_enabled: p.section_groups.length > 0,
      section_groups: p.section_groups.map((g) => ({ ...g })),
      section_ids: p.sections.map((s) => s.id),
      member_ids: [...p.member_ids],
    });
    for (const s of p.sections) {
      const slots: SectionSlots = new Map();
      store.sections.set(s.id, {
        id: s.id,
        program_id: p.id,
        section_group_id: s.section_group_id,
        name: s.name,
        description: s.description,
        position: s.position,
        drip_delay: s.drip_delay,
        is_published: s.is_published,
        slots,
      });
      for (const l of s.lessons) {
        store.lessons.set(l.id, lessonFromSeed(store, l, s.id));
        slots.set(l.id, l.position);
      }
    }
  }
  for (const o of seed.offers) {
    const prices: PriceRecord[] = o.prices.map((pr) => ({ ...pr }));
    store.offers.set(o.id, { id: o.id, name: o.name, description: o.description, is_published: o.is_published, prices, created_at: SEED_TIME, in_trash: false });
    for (const memberId of o.member_ids) {
      const price = prices[0] ?? { id: '', amount: 0, currency: '', price_type: 'free', recurring_interval: null, recurring_interval_count: null };
      const id = newId(store, 'acc', store.accesses);
      store.accesses.set(id, { id, member_id: memberId, offer_id: o.id, price, is_active: true, access_created_at: SEED_TIME });
    }
  }
  return store;
}

function lessonFromSeed(store: Store, l: SeedLesson, sectionId: string): LessonRecord {
  // An explicit literal (no rest/spread): one hidden class for every lesson, fast with 100k of them.
  return {
    id: l.id,
    section_id: sectionId,
    name: l.name,
    lesson_type: l.lesson_type,
    drip_delay: l.drip_delay,
    is_published: l.is_published,
    is_progression_locked: l.is_progression_locked,
    description: l.description,
    body: l.body,
    settings_embed_host_a: l.settings_embed_host_a,
    settings_embed_host_b: l.settings_embed_host_b,
    settings_embed_host_c: l.settings_embed_host_c,
    settings_embed_host_d: l.settings_embed_host_d,
    settings_embed_code: l.settings_embed_code,
    embed_code: l.embed_code,
    transcripts: [],
    media: Object.keys(l.media).length === 0 ? emptyMedia() : { ...emptyMedia(), ...(l.media as Partial<LessonMedia>) },
    steps: l.steps ? l.steps.map((t) => ({ id: newId(store, 'stp', NO_IDS), step_type: t })) : [completionStep(store)],
  };
}

/** Program fields the API returns but the seed need not spell out. */
function defaultProgramFields(): Omit<ProgramRecordInternal, 'id' | 'name' | 'section_groups' | 'section_ids' | 'member_ids'> {
  return {
    description: '',
    is_published: true,
    is_default_granularity_access_enabled: false,
    settings_store_url: '',
    settings_show_member_count: true,
    settings_is_certificate_enabled: false,
    settings_is_milestone_display_enabled: false,
    settings_is_coaching_disabled: false,
    settings_is_section_groups_enabled: false,
    is_secret: false,
    questions_category_id: '',
    questions_category_type: 'program',
    settings_is_inline_questions_category: false,
    settings_is_questions_disabled: false,
    default_reviewer_ids: [],
    image_logo_url: '',
    image_cover_url: '',
  };
}

/** May this key edit the program? */
export function canEdit(key: ApiKey, programId: string): boolean {
  return key.programs === 'all' || key.programs.has(programId);
}
