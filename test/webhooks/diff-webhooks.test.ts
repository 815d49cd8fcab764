/** Webhook identity, the differ and the three renderings (PURE). */
import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/school-api/wire/webhooks.js';
import { checkWebhooksFile } from '../../src/webhooks/check-webhooks-file.js';
import { diffWebhooks, EXTRA_HINT, webhooksPlanHasChanges } from '../../src/webhooks/diff-webhooks.js';
import { normaliseFilters, webhookIdentity } from '../../src/webhooks/identity.js';
import { renderWebhooksJson, renderWebhooksMarkdown, renderWebhooksText } from '../../src/webhooks/render-webhooks-plan.js';

const live = (id: string, w: Partial<Webhook>): Webhook => ({
  id, webhook_url: 'https://hooks.example.com/x', event_type: 'new_payment', provider: 'api', extra_parameters: {},
  created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', ...w,
});
const desired = (text: string) => checkWebhooksFile(text).webhooks!;

describe('identity', () => {
  it.each([
    ['one id and a one-item list', { offerFilter: 'a' }, { offerFilter: ['a'] }],
    ['order and duplicates', { offerFilter: ['b', 'a', 'b'] }, { offerFilter: ['a', 'b'] }],
    ['an empty list and no filter', { step_type: [] }, {}],
    ['null and no filter', { step_type: null }, {}],
    ['key order', { user_ids: ['u'], author_types: 'members' }, { author_types: ['members'], user_ids: ['u'] }],
  ])('%s are the same filters', (_n, a, b) => {
    expect(normaliseFilters(a)).toEqual(normaliseFilters(b));
  });

  it.each([
    ['another url', { webhook_url: 'https://hooks.example.com/y' }],
    ['another event', { event_type: 'member_inactivity' }],
    ['another filter value', { extra_parameters: { activeLevels: [2] } }],
    ['levels as numbers vs strings', { extra_parameters: { activeLevels: ['1'] } }],
  ])('%s is another webhook', (_n, change) => {
    const base = { webhook_url: 'https://hooks.example.com/x', event_type: 'new_payment', extra_parameters: { activeLevels: [1] } };
    expect(webhookIdentity({ ...base, ...change })).not.toBe(webhookIdentity(base));
  });

  it('the URL is compared as parsed (host case, default port)', () => {
    expect(webhookIdentity({ webhook_url: 'https://HOOKS.example.com:443/x', event_type: 'e' })).toBe(webhookIdentity({ webhook_url: 'https://hooks.example.com/x', event_type: 'e' }));
  });
});

const FILE = `- webhook_url: https://hooks.example.com/x
  event_type: new_payment
  provider: zapier
- webhook_url: https://hooks.example.com/offers
  event_type: member_joining_offer
  extra_parameters: { offerFilter: off_pro }
`;

describe('diffWebhooks', () => {
  it('against an empty school: everything is a create with the exact POST body', () => {
    const plan = diffWebhooks(desired(FILE), []);
    expect(plan.summary).toEqual({ create: 2, unchanged: 0, extra: 0 });
    expect(plan.changes.map((c) => (c.action === 'create' ? c.request : null))).toEqual([
      { webhook_url: 'https://hooks.example.com/x', event_type: 'new_payment', provider: 'zapier' },
      { webhook_url: 'https://hooks.example.com/offers', event_type: 'member_joining_offer', extra_parameters: { offerFilter: 'off_pro' } },
    ]);
    expect(webhooksPlanHasChanges(plan)).toBe(true);
  });

  it('matches by identity (filters normalised), notes a provider the API cannot update, reports the rest as extra', () => {
    const plan = diffWebhooks(desired(FILE), [
      live('whk_9', { event_type: 'member_inactivity' }),
      live('whk_2', { webhook_url: 'https://hooks.example.com/offers', event_type: 'member_joining_offer', extra_parameters: { offerFilter: ['off_pro'] } }),
      live('whk_1', {}),
      live('whk_3', {}), // a second copy in the school: extra
    ]);
    expect(plan.summary).toEqual({ create: 0, unchanged: 2, extra: 2 });
    expect(plan.changes.map((c) => [c.action, c.webhook_id, c.line])).toEqual([
      ['unchanged', 'whk_1', 1], ['unchanged', 'whk_2', 4], ['extra', 'whk_3', null], ['extra', 'whk_9', null],
    ]);
    expect(plan.changes[0]).toMatchObject({ note: expect.stringMatching(/provider is "api" in the school and "zapier" in the file; the API cannot update a webhook/) });
    expect(plan.changes[1]).toMatchObject({ note: null });
    expect(plan.changes[2]).toMatchObject({ note: EXTRA_HINT });
    expect(webhooksPlanHasChanges(plan)).toBe(false);
  });
});

describe('renderings', () => {
  const plan = diffWebhooks(desired(FILE), [live('whk_7', { event_type: 'member_inactivity', webhook_url: 'https://old.example.com/x' })]);

  it('text: creates with their file lines, extras with the reason they stay, a summary line', () => {
    expect(renderWebhooksText(plan, { color: false })).toBe(`coursesync will create these webhooks:

  + webhooks.yaml:1 new_payment → https://hooks.example.com/x
      provider = "zapier"
      extra_parameters = no filters

  + webhooks.yaml:4 member_joining_offer → https://hooks.example.com/offers
      extra_parameters = {"offerFilter":"off_pro"}

Webhooks in the school that webhooks.yaml does not list (extra):

  ! whk_7 member_inactivity → https://old.example.com/x (no filters)

  ${EXTRA_HINT}

Webhooks plan: 2 to create, 0 unchanged, 1 extra (in the school, not in webhooks.yaml).
`);
    expect(EXTRA_HINT).toMatch(/no delete or update endpoint/);
  });

  it('text with nothing to do', () => {
    expect(renderWebhooksText(diffWebhooks([], []), { color: false })).toBe('No changes. 0 webhooks unchanged.\n');
  });

  it('markdown: a table row per webhook and the extra note', () => {
    const md = renderWebhooksMarkdown(plan);
    expect(md).toContain('| ➕ create | `webhooks.yaml:1` | `new_payment` | https://hooks.example.com/x | `no filters` |');
    expect(md).toContain('| ⚠ extra | school `whk_7` | `member_inactivity` | https://old.example.com/x | `no filters` |');
    expect(md).toContain('no delete or update endpoint');
  });

  it('json: versioned, with summary and changes', () => {
    const json = JSON.parse(renderWebhooksJson(plan));
    expect(json).toMatchObject({ format_version: 1, file: 'webhooks.yaml', summary: { create: 2, unchanged: 0, extra: 1 } });
    expect(json.changes.map((c: any) => c.action)).toEqual(['create', 'create', 'extra']);
  });
});
