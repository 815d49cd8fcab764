/** Request schemas of the other endpoints (docs/school-api.md): table tests. */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  BadgeAwardBodySchema,
  MemberFlagBodySchema,
  MemberListQuerySchema,
  ProgramDuplicateBodySchema,
  SectionListQuerySchema,
  WebhookCreateBodySchema,
  WebhookFilterSchemas,
  invalidArgumentsMessage,
  jsonPathOf,
} from '../../src/school-api/wire/index.js';

function verdict(schema: z.ZodType, body: unknown): string | null {
  const r = schema.safeParse(body);
  return r.success ? null : invalidArgumentsMessage(r.error, body);
}

const hook = { webhook_url: 'https://hooks.example.com/in', provider: 'coursesync' };

describe('WebhookCreateBodySchema (docs/school-api.md#webhooks)', () => {
  it.each<[string, unknown, string | null]>([
    ['no filters', { ...hook, event_type: 'new_payment' }, null],
    ['completed step types', { ...hook, event_type: 'element_completed', extra_parameters: { step_type: ['quiz', 'form'] } }, null],
    ['pending rejects quiz', { ...hook, event_type: 'element_pending', extra_parameters: { step_type: ['quiz'] } }, 'Invalid arguments: /extra_parameters/step_type/0 enum'],
    ['pending accepts textarea', { ...hook, event_type: 'element_pending', extra_parameters: { step_type: ['textarea'] } }, null],
    ['empty list means all', { ...hook, event_type: 'element_completed', extra_parameters: { step_type: [] } }, null],
    ['offerFilter one id', { ...hook, event_type: 'member_joining_offer', extra_parameters: { offerFilter: 'off_pro' } }, null],
    ['offerFilter list', { ...hook, event_type: 'member_joining_offer', extra_parameters: { offerFilter: ['off_pro', 'off_monthly'] } }, null],
    ['offerFilter number', { ...hook, event_type: 'member_joining_offer', extra_parameters: { offerFilter: 3 } }, 'Invalid arguments: /extra_parameters/offerFilter anyOf'],
    ['activeLevels ints', { ...hook, event_type: 'gamification_level_passed', extra_parameters: { activeLevels: [1, 2] } }, null],
    ['activeLevels text', { ...hook, event_type: 'gamification_level_passed', extra_parameters: { activeLevels: ['1'] } }, 'Invalid arguments: /extra_parameters/activeLevels/0 type'],
    ['conversation filters', { ...hook, event_type: 'conversation_message_received', extra_parameters: { user_ids: ['u1'], author_types: ['members'] } }, null],
    ['author_types single value', { ...hook, event_type: 'conversation_message_received', extra_parameters: { author_types: 'users' } }, null],
    ['author_types unknown', { ...hook, event_type: 'conversation_message_received', extra_parameters: { author_types: ['bots'] } }, 'Invalid arguments: /extra_parameters/author_types anyOf'],
    ['filter of another event', { ...hook, event_type: 'member_inactivity', extra_parameters: { step_type: [] } }, 'Invalid arguments: /extra_parameters/step_type additionalProperties'],
    ['unknown event type', { ...hook, event_type: 'lesson_created' }, 'Invalid arguments: /event_type enum'],
    ['missing event type', { ...hook }, 'Invalid arguments: /event_type required'],
    ['missing url', { event_type: 'new_payment' }, 'Invalid arguments: /webhook_url required'],
    ['url not a url', { webhook_url: 'hooks', event_type: 'new_payment' }, 'Invalid arguments: /webhook_url format'],
  ])('%s', (_label, body, expected) => {
    expect(verdict(WebhookCreateBodySchema, body)).toBe(expected);
  });

  it('exports one filter schema per event type, for webhooks.yaml', () => {
    expect(Object.keys(WebhookFilterSchemas).sort()).toEqual([
      'conversation_message_received', 'element_completed', 'element_pending', 'gamification_level_passed',
      'member_inactivity', 'member_joining_offer', 'new_payment',
    ]);
  });
});

describe('other request bodies and queries', () => {
  it.each<[string, z.ZodType, unknown, string | null]>([
    ['award by ids', BadgeAwardBodySchema, { badge_id: 'b', member_id: 'm' }, null],
    ['award by name and email', BadgeAwardBodySchema, { badge_name: 'Finisher', email: 'ada@example.com' }, null],
    ['award without badge', BadgeAwardBodySchema, { member_id: 'm' }, 'Invalid arguments: /badge_id required'],
    ['award without member', BadgeAwardBodySchema, { badge_id: 'b' }, 'Invalid arguments: /member_id required'],
    ['suspend by email', MemberFlagBodySchema, { email: 'a@b.c', value: true }, null],
    ['suspend without value', MemberFlagBodySchema, { member_id: 'm' }, 'Invalid arguments: /value required'],
    ['suspend value as text', MemberFlagBodySchema, { member_id: 'm', value: 'yes' }, 'Invalid arguments: /value type'],
    ['suspend without member', MemberFlagBodySchema, { value: true }, 'Invalid arguments: /member_id required'],
    ['program copy', ProgramDuplicateBodySchema, { name: 'Copy', idempotency_key: 'k' }, null],
    ['program copy name 256', ProgramDuplicateBodySchema, { name: 'x'.repeat(256) }, 'Invalid arguments: /name maxLength'],
    ['sections query', SectionListQuerySchema, { product_id: 'prog_intro', page: '2', per_page: '30' }, null],
    ['sections per_page 31', SectionListQuerySchema, { product_id: 'p', per_page: '31' }, 'Invalid arguments: /per_page maximum'],
    ['sections page 0', SectionListQuerySchema, { product_id: 'p', page: '0' }, 'Invalid arguments: /page minimum'],
    ['sections page 10001', SectionListQuerySchema, { product_id: 'p', page: '10001' }, 'Invalid arguments: /page maximum'],
    ['sections page text', SectionListQuerySchema, { product_id: 'p', page: 'two' }, 'Invalid arguments: /page type'],
    ['sections search too long', SectionListQuerySchema, { product_id: 'p', search: 'x'.repeat(10_001) }, 'Invalid arguments: /search maxLength'],
    ['sections empty group', SectionListQuerySchema, { product_id: 'p', section_group_id: '' }, 'Invalid arguments: /section_group_id minLength'],
    ['sections without product', SectionListQuerySchema, {}, 'Invalid arguments: /product_id required'],
    ['members per_page 101', MemberListQuerySchema, { per_page: '101' }, 'Invalid arguments: /per_page maximum'],
  ])('%s', (_label, schema, body, expected) => {
    expect(verdict(schema, body)).toBe(expected);
  });
});

describe('jsonPathOf', () => {
  it.each<[PropertyKey[], string]>([
    [[], ''],
    [['name'], '/name'],
    [['attributes', 'is_published'], '/attributes/is_published'],
    [['extra_parameters', 'step_type', 0], '/extra_parameters/step_type/0'],
    [['a/b', 'c~d'], '/a~1b/c~0d'],
  ])('%j → %s', (path, expected) => {
    expect(jsonPathOf(path)).toBe(expected);
  });
});
