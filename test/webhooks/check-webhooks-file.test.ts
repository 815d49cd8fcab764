/** webhooks.yaml checking (PURE): every rule as a diagnostic with its code, line and column; the JSON Schema is current. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderWebhooksSchema, WebhookEntrySchema } from '../../src/model/webhooks.js';
import { checkWebhooksFile } from '../../src/webhooks/check-webhooks-file.js';

const ok = (text: string) => {
  const r = checkWebhooksFile(text);
  expect(r.diagnostics).toEqual([]);
  return r.webhooks!;
};
const problems = (text: string) => checkWebhooksFile(text).diagnostics.map((d) => ({ code: d.code, line: d.line, column: d.column, message: d.message, hint: d.hint }));

describe('checkWebhooksFile: valid files', () => {
  it('an empty file is no webhooks', () => {
    expect(ok('')).toEqual([]);
    expect(ok('# nothing yet\n')).toEqual([]);
  });

  it('every event type with its filters, as docs/school-api.md#webhooks allows them', () => {
    const hooks = ok(`
- webhook_url: https://hooks.example.com/a
  event_type: element_completed
  extra_parameters: { step_type: [basic, form] }
- webhook_url: https://hooks.example.com/b
  event_type: element_pending
  extra_parameters: { step_type: [] }
- webhook_url: https://hooks.example.com/c
  event_type: member_joining_offer
  extra_parameters: { offerFilter: off_pro }
- webhook_url: https://hooks.example.com/d
  event_type: member_joining_offer
  extra_parameters: { offerFilter: [off_pro, off_monthly] }
- webhook_url: https://hooks.example.com/e
  event_type: new_payment
  provider: zapier
- webhook_url: https://hooks.example.com/f
  event_type: member_inactivity
- webhook_url: https://hooks.example.com/g
  event_type: gamification_level_passed
  extra_parameters: { activeLevels: [1, 5] }
- webhook_url: https://hooks.example.com/h
  event_type: conversation_message_received
  extra_parameters: { user_ids: [u1], author_types: members }
`);
    expect(hooks.map((h) => [h.index, h.line, h.webhook.event_type])).toEqual([
      [0, 2, 'element_completed'], [1, 5, 'element_pending'], [2, 8, 'member_joining_offer'], [3, 11, 'member_joining_offer'],
      [4, 14, 'new_payment'], [5, 17, 'member_inactivity'], [6, 19, 'gamification_level_passed'], [7, 22, 'conversation_message_received'],
    ]);
  });
});

describe('checkWebhooksFile: every mistake has a place, a code and a hint', () => {
  it.each([
    ['not a list', 'webhook_url: https://x.example.com\n', { code: 'webhooks/not-a-list', line: 1, column: 1 }],
    ['YAML syntax', '- webhook_url: [\n', { code: 'yaml/syntax', line: 2 }],
    ['duplicate key', '- event_type: new_payment\n  event_type: new_payment\n  webhook_url: https://x.example.com\n', { code: 'yaml/duplicate-key', line: 2, column: 3 }],
    ['http', '- webhook_url: http://x.example.com/in\n  event_type: new_payment\n', { code: 'webhooks/invalid-field', line: 1, column: 16, message: '"webhook_url" of webhook 1 must be an https:// URL (the school only delivers to public https endpoints)' }],
    ['not a URL', '- webhook_url: hooks\n  event_type: new_payment\n', { code: 'webhooks/invalid-field', line: 1, column: 16 }],
    ['loopback literal', '- webhook_url: https://127.0.0.1/in\n  event_type: new_payment\n', { code: 'webhooks/invalid-field', message: expect.stringMatching(/must not point to a loopback or private address/) }],
    ['private literal', '- webhook_url: https://192.168.1.10/in\n  event_type: new_payment\n', { code: 'webhooks/invalid-field', message: expect.stringMatching(/private address/) }],
    ['IPv6 loopback', '- webhook_url: https://[::1]/in\n  event_type: new_payment\n', { code: 'webhooks/invalid-field', message: expect.stringMatching(/private address/) }],
    ['localhost', '- webhook_url: https://localhost/in\n  event_type: new_payment\n', { code: 'webhooks/invalid-field', message: expect.stringMatching(/private address/) }],
    ['unknown event, did you mean', '- webhook_url: https://x.example.com\n  event_type: new_paymnt\n', { code: 'webhooks/invalid-field', line: 2, column: 15, hint: 'did you mean "new_payment"?' }],
    ['missing event', '- webhook_url: https://x.example.com\n', { code: 'webhooks/invalid-field', message: 'missing required field "event_type" of webhook 1', hint: expect.stringMatching(/^add `event_type:` with one of element_completed/) }],
    ['missing url', '- event_type: new_payment\n', { code: 'webhooks/missing-field', line: 1, message: expect.stringMatching(/webhook_url/) }],
    ['unknown key, did you mean', '- webhook_url: https://x.example.com\n  event_type: new_payment\n  provder: x\n', { code: 'webhooks/unknown-key', line: 3, column: 3, hint: 'did you mean "provider"?' }],
    ['completed step type not allowed', '- webhook_url: https://x.example.com\n  event_type: element_completed\n  extra_parameters: { step_type: [dance] }\n', { code: 'webhooks/invalid-field', line: 3, message: expect.stringMatching(/"extra_parameters.step_type.0" of webhook 1 must be one of "basic"/) }],
    ['pending allows only correctable steps', '- webhook_url: https://x.example.com\n  event_type: element_pending\n  extra_parameters: { step_type: [quiz] }\n', { code: 'webhooks/invalid-field', line: 3 }],
    ['step_type must be a list', '- webhook_url: https://x.example.com\n  event_type: element_completed\n  extra_parameters: { step_type: quiz }\n', { code: 'webhooks/invalid-field', message: expect.stringMatching(/must be a list/) }],
    ['offerFilter of numbers', '- webhook_url: https://x.example.com\n  event_type: member_joining_offer\n  extra_parameters: { offerFilter: 12 }\n', { code: 'webhooks/invalid-field', line: 3 }],
    ['activeLevels of strings', '- webhook_url: https://x.example.com\n  event_type: gamification_level_passed\n  extra_parameters:\n    activeLevels: ["2"]\n', { code: 'webhooks/invalid-field', line: 4, column: 20, message: expect.stringMatching(/must be a number|must be an integer/) }],
    ['activeLevels of fractions', '- webhook_url: https://x.example.com\n  event_type: gamification_level_passed\n  extra_parameters: { activeLevels: [1.5] }\n', { code: 'webhooks/invalid-field' }],
    ['user_ids of numbers', '- webhook_url: https://x.example.com\n  event_type: conversation_message_received\n  extra_parameters: { user_ids: [7] }\n', { code: 'webhooks/invalid-field', hint: 'quote the value to make it a string' }],
    ['author_types value', '- webhook_url: https://x.example.com\n  event_type: conversation_message_received\n  extra_parameters: { author_types: admins }\n', { code: 'webhooks/invalid-field', line: 3 }],
    ['filter of another event, did you mean', '- webhook_url: https://x.example.com\n  event_type: element_completed\n  extra_parameters: { step_typ: [quiz] }\n', { code: 'webhooks/unknown-key', hint: 'did you mean "step_type"?' }],
    ['filters on an event without filters', '- webhook_url: https://x.example.com\n  event_type: new_payment\n  extra_parameters: { offerFilter: [a] }\n', { code: 'webhooks/unknown-key', hint: 'new_payment has no filters (docs/school-api.md#webhooks): remove extra_parameters' }],
    ['same identity twice (one id vs a list, order)', '- webhook_url: https://X.example.com/in\n  event_type: member_joining_offer\n  extra_parameters: { offerFilter: [b, a] }\n- webhook_url: https://x.example.com/in\n  event_type: member_joining_offer\n  extra_parameters: { offerFilter: [a, b, a] }\n', { code: 'webhooks/duplicate', line: 4, column: 3, message: expect.stringMatching(/same as the one at line 1/) }],
  ])('%s', (_name, text, expected) => {
    const found = problems(text);
    expect(found).toContainEqual(expect.objectContaining(expected));
    for (const d of found) expect(d.hint).toBeTruthy();
  });

  it('reports every problem of the file at once', () => {
    const found = problems('- webhook_url: http://x.example.com\n  event_type: new_payment\n- webhook_url: https://y.example.com\n  event_type: nope\n');
    expect(found.map((d) => d.line)).toEqual([1, 4]);
  });
});

describe('schema/webhooks.schema.json', () => {
  it('is what the zod model generates (run `npm run build && npm run schema` when this fails)', async () => {
    const { file, text } = renderWebhooksSchema();
    expect(await readFile(new URL(`../../schema/${file}`, import.meta.url), 'utf8')).toBe(text);
  });

  it('lists the seven event types and forbids unknown keys', () => {
    const schema = JSON.parse(renderWebhooksSchema().text);
    expect(schema.type).toBe('array');
    expect(schema.items.oneOf.map((o: any) => o.properties.event_type.const)).toHaveLength(7);
    expect(schema.items.oneOf.every((o: any) => o.additionalProperties === false)).toBe(true);
  });

  it('reuses the wire filters: what the school rejects, the file rejects', () => {
    const base = { webhook_url: 'https://x.example.com', event_type: 'element_pending' };
    expect(WebhookEntrySchema.safeParse({ ...base, extra_parameters: { step_type: ['textarea'] } }).success).toBe(true);
    expect(WebhookEntrySchema.safeParse({ ...base, extra_parameters: { step_type: ['link'] } }).success).toBe(false);
  });
});
