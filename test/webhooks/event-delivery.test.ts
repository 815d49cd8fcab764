/**
 * Event delivery for each of the seven event types (docs/school-api.md#webhooks): webhooks written in webhooks.yaml
 * are checked and planned by coursesync, registered in an emulator that accepts a local
 * receiver (allowInsecureWebhooks), and events fired through POST /__emulator/events. Each
 * filter, as a person writes it in the file, must include and exclude the right events.
 *
 * webhooks.yaml itself refuses http:// and loopback URLs (as the real school does), so the
 * file names https://hooks.example.com/<name> and the test registers <receiver>/<name> instead.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { createSchoolClient } from '../../src/school/client.js';
import { checkWebhooksFile } from '../../src/webhooks/check-webhooks-file.js';
import { diffWebhooks } from '../../src/webhooks/diff-webhooks.js';
import { SEED, SECRET } from '../cli/school-helpers.js';

const YAML = `
- { webhook_url: https://hooks.example.com/completed-quiz-form, event_type: element_completed, extra_parameters: { step_type: [quiz, form] } }
- { webhook_url: https://hooks.example.com/completed-all, event_type: element_completed }
- { webhook_url: https://hooks.example.com/pending-textarea, event_type: element_pending, extra_parameters: { step_type: [textarea] } }
- { webhook_url: https://hooks.example.com/pending-all, event_type: element_pending, extra_parameters: { step_type: [] } }
- { webhook_url: https://hooks.example.com/offer-pro, event_type: member_joining_offer, extra_parameters: { offerFilter: off_pro } }
- { webhook_url: https://hooks.example.com/offer-monthly-or-x, event_type: member_joining_offer, extra_parameters: { offerFilter: [off_monthly, off_x] } }
- { webhook_url: https://hooks.example.com/payment, event_type: new_payment }
- { webhook_url: https://hooks.example.com/inactive, event_type: member_inactivity }
- { webhook_url: https://hooks.example.com/levels-2-4, event_type: gamification_level_passed, extra_parameters: { activeLevels: [2, 4] } }
- { webhook_url: https://hooks.example.com/chat-u1-members, event_type: conversation_message_received, extra_parameters: { user_ids: [u1], author_types: members } }
- { webhook_url: https://hooks.example.com/chat-users, event_type: conversation_message_received, extra_parameters: { author_types: [users] } }
- { webhook_url: https://hooks.example.com/chat-all, event_type: conversation_message_received, extra_parameters: { user_ids: [], author_types: [] } }
`;

let emu: RunningEmulator;
let receiver: Server;
let receiverUrl: string;
let received: Array<{ name: string; body: any }> = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      received.push({ name: (req.url ?? '').slice(1), body: JSON.parse(text) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  emu = await startEmulator({ port: 0, seed: SEED, allowInsecureWebhooks: true });
  const checked = checkWebhooksFile(YAML);
  expect(checked.diagnostics).toEqual([]);
  const plan = diffWebhooks(checked.webhooks!, []);
  const client = createSchoolClient({ baseUrl: emu.url, token: SECRET });
  for (const c of plan.changes) {
    if (c.action !== 'create') throw new Error('expected only creates');
    await client.webhooks.create({ ...c.request, webhook_url: c.request.webhook_url.replace('https://hooks.example.com', receiverUrl) });
  }
});
afterAll(async () => {
  await emu?.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});
beforeEach(() => {
  received = [];
});

/** Fire one event; answer the names of the receivers that got it (sorted), checking both sides agree. */
async function fire(event: Record<string, unknown>): Promise<string[]> {
  const res = await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/events'), {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify({ payload: { marker: event }, ...event }),
  });
  const { deliveries } = (await res.json()) as { deliveries: Array<{ url: string; status: number | null }> };
  expect(deliveries.every((d) => d.status === 204)).toBe(true);
  const names = received.splice(0).map((r) => {
    expect(r.body).toMatchObject({ event_type: event.event_type, data: { marker: event } });
    return r.name;
  });
  expect(names.sort()).toEqual(deliveries.map((d) => d.url.slice(receiverUrl.length + 1)).sort());
  return names.sort();
}

describe('each event type reaches exactly the webhooks whose filters match', () => {
  it('element_completed: step_type list includes its steps; no filter means every step', async () => {
    expect(await fire({ event_type: 'element_completed', step_type: 'quiz' })).toEqual(['completed-all', 'completed-quiz-form']);
    expect(await fire({ event_type: 'element_completed', step_type: 'form' })).toEqual(['completed-all', 'completed-quiz-form']);
    expect(await fire({ event_type: 'element_completed', step_type: 'basic' })).toEqual(['completed-all']);
  });

  it('element_pending: step_type [textarea] excludes other steps; an empty list means all', async () => {
    expect(await fire({ event_type: 'element_pending', step_type: 'textarea' })).toEqual(['pending-all', 'pending-textarea']);
    expect(await fire({ event_type: 'element_pending', step_type: 'file_upload' })).toEqual(['pending-all']);
  });

  it('member_joining_offer: one offer id, or a list; other offers excluded', async () => {
    expect(await fire({ event_type: 'member_joining_offer', offer_id: 'off_pro' })).toEqual(['offer-pro']);
    expect(await fire({ event_type: 'member_joining_offer', offer_id: 'off_monthly' })).toEqual(['offer-monthly-or-x']);
    expect(await fire({ event_type: 'member_joining_offer', offer_id: 'off_other' })).toEqual([]);
  });

  it('new_payment and member_inactivity: no filters; each reaches only its own event type', async () => {
    expect(await fire({ event_type: 'new_payment' })).toEqual(['payment']);
    expect(await fire({ event_type: 'member_inactivity' })).toEqual(['inactive']);
  });

  it('gamification_level_passed: only listed levels', async () => {
    expect(await fire({ event_type: 'gamification_level_passed', level: 4 })).toEqual(['levels-2-4']);
    expect(await fire({ event_type: 'gamification_level_passed', level: 2 })).toEqual(['levels-2-4']);
    expect(await fire({ event_type: 'gamification_level_passed', level: 3 })).toEqual([]);
  });

  it('conversation_message_received: user_ids and author_types both must match; empty means all', async () => {
    expect(await fire({ event_type: 'conversation_message_received', user_id: 'u1', author_type: 'members' })).toEqual(['chat-all', 'chat-u1-members']);
    expect(await fire({ event_type: 'conversation_message_received', user_id: 'u2', author_type: 'members' })).toEqual(['chat-all']);
    expect(await fire({ event_type: 'conversation_message_received', user_id: 'u1', author_type: 'users' })).toEqual(['chat-all', 'chat-users']);
  });
});
