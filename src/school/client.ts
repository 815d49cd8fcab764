/**
 * The typed client of the whole school API (docs/school-api.md (#endpoints, #choices-where-the-api-is-silent) for the choices where the
 * document is silent). One method per endpoint; bodies are checked against the same wire
 * schemas the emulator uses before anything is sent, and responses are parsed with zod.
 * Retries and idempotency: see transport.ts.
 */
import { assertNoFingerprint } from '../model/state/fingerprint.js';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { checkBaseUrl } from './base-url.js';
import { failure } from '../diagnostics/error-codes/index.js';
import { SchoolRequestError } from './errors.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../school-api/retry-policy.js';
import { createTransport, type ResponseEvent, type RetryEvent, type Transport } from './transport.js';
import { invalidArgumentsMessage } from '../school-api/wire/errors.js';
import {
  BadgeAwardBodySchema,
  BadgeAwardSchema,
  CustomCodeSchema,
  LessonCreateBodySchema,
  LessonDuplicateBodySchema,
  LessonOperationSchema,
  LessonSchema,
  LessonUpdateBodySchema,
  MemberAccessListSchema,
  MemberFlagBodySchema,
  MemberListSchema,
  MemberSchema,
  OfferDeletedSchema,
  OfferSchema,
  ProgramDuplicateBodySchema,
  ProgramOperationSchema,
  SectionPageSchema,
  WebhookCreateBodySchema,
  WebhookListSchema,
  WebhookSchema,
  type BadgeAward,
  type BadgeAwardBody,
  type CustomCode,
  type Lesson,
  type LessonCreateBody,
  type LessonDuplicateBody,
  type LessonOperation,
  type LessonUpdateBody,
  type Member,
  type MemberAccess,
  type MemberFlagBody,
  type MemberList,
  type Offer,
  type OfferDeleted,
  type ProgramDuplicateBody,
  type ProgramOperation,
  type Section,
  type SectionPage,
  type Webhook,
  type WebhookCreateBody,
} from '../school-api/wire/index.js';

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface SchoolClientOptions {
  /** API base address including `/api/v1`; plain http only for loopback hosts. */
  baseUrl: string;
  /** The API key. Sent only in the Authorization header, never in a message. */
  token: string;
  /** Timeout of one try, in ms (default 30000). */
  timeoutMs?: number;
  /** Overrides of the retry policy (DEFAULT_RETRY_POLICY); `{ maxAttempts: 1 }` disables retries. */
  retry?: Partial<RetryPolicy>;
  /** Told before each wait between tries. */
  onRetry?: (event: RetryEvent) => void;
  /** Told of each successful answer with its `Date` header. */
  onResponse?: (event: ResponseEvent) => void;
  /** Jitter source and wait function, for deterministic tests. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** A duplication request: the idempotency key is required, since repeating it is how callers poll. */
export type LessonDuplicateRequest = LessonDuplicateBody & { idempotency_key: string };
export type ProgramDuplicateRequest = ProgramDuplicateBody & { idempotency_key: string };

/** Member lookup (docs/school-api.md#members): by id, or by email (case and surrounding spaces ignored). */
export type MemberLookup = { id: string } | { email: string };

export interface MemberPageQuery {
  page?: number;
  per_page?: number;
}

export interface SectionQuery {
  product_id: string;
  section_group_id?: string;
  search?: string;
  per_page?: number;
}

/** A fresh idempotency key for a duplication (keep it to poll or resume the operation). */
export function newIdempotencyKey(): string {
  return randomUUID();
}

/**
 * Create a client of the school API. Checks the base URL (https, or http to loopback only)
 * and that a token is present, before any request.
 * @throws CoursesyncError `connection/insecure-url`, `connection/invalid-url`, `connection/no-token`
 */
export function createSchoolClient(options: SchoolClientOptions) {
  const baseUrl = checkBaseUrl(options.baseUrl);
  // Visible ASCII only (RFC 6750 tokens are narrower still): anything else would make fetch
  // fail with an error that might quote the header, i.e. the token.
  if (!/^[\x21-\x7e]+$/.test(options.token)) {
    throw failure('connection/no-token', { problem: 'malformed' });
  }
  const transport = createTransport({
    baseUrl,
    token: options.token,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    onRetry: options.onRetry,
    onResponse: options.onResponse,
    random: options.random,
    sleep: options.sleep,
  });
  return buildClient(transport);
}

export type SchoolClient = ReturnType<typeof buildClient>;

/** Encode one path segment. */
const seg = (id: string) => encodeURIComponent(id);

/** Check a body against its wire schema; refuse to send what the school would reject. */
function checked<S extends z.ZodType>(endpoint: string, schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new SchoolRequestError({ endpoint, message: invalidArgumentsMessage(parsed.error, body) });
  return parsed.data;
}

function buildClient(t: Transport) {
  const lessons = {
    /** POST /lessons (docs/school-api.md#create-a-lesson). Never re-sent once it may have reached the school (OutcomeUnknownError). */
    async create(body: LessonCreateBody): Promise<Lesson> {
      checked('POST /lessons', LessonCreateBodySchema, body);
      assertNoFingerprint(body);
      return t.send({ method: 'POST', path: '/lessons', body, schema: LessonSchema, idempotent: false, lesson: { name: body.name, section_id: body.section_id } });
    },
    /** PATCH /lessons/{id} (docs/school-api.md#update-a-lesson). `{}` changes nothing and returns the live lesson (refresh). */
    async update(id: string, body: LessonUpdateBody): Promise<Lesson> {
      const path = `/lessons/${seg(id)}`;
      checked(`PATCH ${path}`, LessonUpdateBodySchema, body);
      assertNoFingerprint(body);
      return t.send({ method: 'PATCH', path, body, schema: LessonSchema, idempotent: true });
    },
    /** POST /lessons/{id}/duplicate (docs/school-api.md#duplicate-a-lesson): starts or (same key, same details) re-reads the operation. */
    async duplicate(id: string, body: LessonDuplicateRequest): Promise<LessonOperation> {
      const path = `/lessons/${seg(id)}/duplicate`;
      checked(`POST ${path}`, LessonDuplicateBodySchema, body);
      return t.send({ method: 'POST', path, body, schema: LessonOperationSchema, idempotent: true });
    },
  };

  const programs = {
    /** POST /products/{id}/duplicate (docs/school-api.md#duplicate-a-program). */
    async duplicate(id: string, body: ProgramDuplicateRequest): Promise<ProgramOperation> {
      const path = `/products/${seg(id)}/duplicate`;
      checked(`POST ${path}`, ProgramDuplicateBodySchema, body);
      return t.send({ method: 'POST', path, body, schema: ProgramOperationSchema, idempotent: true });
    },
  };

  const badges = {
    /** POST /badges/award (docs/school-api.md#badges). Idempotent by contract: a repeated award returns the same award. */
    async award(body: BadgeAwardBody): Promise<BadgeAward> {
      checked('POST /badges/award', BadgeAwardBodySchema, body);
      return t.send({ method: 'POST', path: '/badges/award', body, schema: BadgeAwardSchema, idempotent: true });
    },
  };

  const members = {
    /** One page of GET /members (docs/school-api.md#members). */
    listPage(query: MemberPageQuery = {}): Promise<MemberList> {
      return t.send({ method: 'GET', path: '/members', query: { ...query }, schema: MemberListSchema, idempotent: true });
    },
    /** Every page of GET /members, in order; stops after `total_pages` (or an empty page). */
    async *pages(query: Omit<MemberPageQuery, 'page'> = {}): AsyncGenerator<MemberList, void, undefined> {
      for (let page = 1; ; page++) {
        const result = await members.listPage({ ...query, page });
        yield result;
        if (result.members.length === 0 || result.pagination.current_page >= result.pagination.total_pages) return;
      }
    },
    /** Every member, page after page (GET /members). */
    async *list(query: Omit<MemberPageQuery, 'page'> = {}): AsyncGenerator<Member, void, undefined> {
      for await (const page of members.pages(query)) yield* page.members;
    },
    /** GET /members?id= or ?email= (docs/school-api.md#members): one member; 404 when there is none. */
    get(lookup: MemberLookup): Promise<Member> {
      const query = 'id' in lookup ? { id: lookup.id } : { email: lookup.email };
      return t.send({ method: 'GET', path: '/members', query, schema: MemberSchema, idempotent: true });
    },
    /** GET /members/accesses (docs/school-api.md#members): all accesses, or one member's (docs/school-api.md#choices-where-the-api-is-silent choice). */
    async accesses(filter: { member_id?: string; email?: string } = {}): Promise<MemberAccess[]> {
      const result = await t.send({ method: 'GET', path: '/members/accesses', query: { ...filter }, schema: MemberAccessListSchema, idempotent: true });
      return result.accesses;
    },
    /** POST /members/set_suspend (docs/school-api.md#members). Sets a value, so re-sending is harmless. */
    async setSuspend(body: MemberFlagBody): Promise<Member> {
      checked('POST /members/set_suspend', MemberFlagBodySchema, body);
      return t.send({ method: 'POST', path: '/members/set_suspend', body, schema: MemberSchema, idempotent: true });
    },
    /** POST /members/set_ban (docs/school-api.md#members). Sets a value, so re-sending is harmless. */
    async setBan(body: MemberFlagBody): Promise<Member> {
      checked('POST /members/set_ban', MemberFlagBodySchema, body);
      return t.send({ method: 'POST', path: '/members/set_ban', body, schema: MemberSchema, idempotent: true });
    },
  };

  const sections = {
    /** One page of GET /sections (docs/school-api.md#sections, query names per docs/school-api.md#choices-where-the-api-is-silent). */
    listPage(query: SectionQuery & { page?: number }): Promise<SectionPage> {
      return t.send({ method: 'GET', path: '/sections', query: { ...query }, schema: SectionPageSchema, idempotent: true });
    },
    /** Every page of GET /sections, following `next_page`. */
    async *pages(query: SectionQuery): AsyncGenerator<SectionPage, void, undefined> {
      let page: number | null = 1;
      while (page !== null) {
        const result: SectionPage = await sections.listPage({ ...query, page });
        yield result;
        // A next_page that does not advance would loop forever: stop instead.
        page = result.next_page !== null && result.next_page > page ? result.next_page : null;
      }
    },
    /** Every section of a program (optionally of one group), in order. */
    async *list(query: SectionQuery): AsyncGenerator<Section, void, undefined> {
      for await (const page of sections.pages(query)) yield* page.data;
    },
  };

  const offers = {
    /** GET /offers/{id} (docs/school-api.md#offers). */
    get(id: string): Promise<Offer> {
      return t.send({ method: 'GET', path: `/offers/${seg(id)}`, schema: OfferSchema, idempotent: true });
    },
    /**
     * DELETE /offers/{id} (docs/school-api.md#offers): moves it to Trash. Retried like any DELETE; if a first try was
     * applied but its answer lost, the retry may answer 404.
     */
    delete(id: string): Promise<OfferDeleted> {
      return t.send({ method: 'DELETE', path: `/offers/${seg(id)}`, schema: OfferDeletedSchema, idempotent: true });
    },
  };

  const customCode = {
    /** GET /custom_code (docs/school-api.md#custom-code). */
    get(): Promise<CustomCode> {
      return t.send({ method: 'GET', path: '/custom_code', schema: CustomCodeSchema, idempotent: true });
    },
  };

  const webhooks = {
    /** POST /webhooks (docs/school-api.md#webhooks). Not idempotent: a re-send would register a second webhook. */
    async create(body: WebhookCreateBody): Promise<Webhook> {
      checked('POST /webhooks', WebhookCreateBodySchema, body);
      return t.send({ method: 'POST', path: '/webhooks', body, schema: WebhookSchema, idempotent: false });
    },
    /** GET /webhooks (docs/school-api.md#webhooks). */
    list(): Promise<Webhook[]> {
      return t.send({ method: 'GET', path: '/webhooks', schema: WebhookListSchema, idempotent: true });
    },
  };

  return { lessons, programs, badges, members, sections, offers, customCode, webhooks };
}
