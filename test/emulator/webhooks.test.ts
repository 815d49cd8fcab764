/** Webhooks (docs/school-api.md#webhooks): validation, URL rules, filtered delivery to a local receiver. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { call, useEmulator } from './helpers.js';

const strict = useEmulator();

describe('POST /webhooks validation (strict emulator)', () => {
  it.each([
    [{ event_type: 'new_payment' }, 'Invalid arguments: /webhook_url required'],
    [{ webhook_url: 'https://hooks.example.com/x' }, 'Invalid arguments: /event_type required'],
    [{ webhook_url: 'https://hooks.example.com/x', event_type: 'lesson_done' }, 'Invalid arguments: /event_type enum'],
    [{ webhook_url: 'http://hooks.example.com/x', event_type: 'new_payment' }, 'Invalid arguments: /webhook_url format'],
    [{ webhook_url: 'https://127.0.0.1/x', event_type: 'new_payment' }, 'Invalid arguments: /webhook_url format'],
    [{ webhook_url: 'https://10.1.2.3/x', event_type: 'new_payment' }, 'Invalid arguments: /webhook_url format'],
    [{ webhook_url: 'https://[::1]/x', event_type: 'new_payment' }, 'Invalid arguments: /webhook_url format'],
    [{ webhook_url: 'https://localhost/x', event_type: 'new_payment' }, 'Invalid arguments: /webhook_url format'],
    [{ webhook_url: 'https://h.example.com/x', event_type: 'element_completed', extra_parameters: { step_type: ['quiz', 'dance'] } }, 'Invalid arguments: /extra_parameters/step_type/1 enum'],
    [{ webhook_url: 'https://h.example.com/x', event_type: 'element_pending', extra_parameters: { step_type: ['quiz'] } }, 'Invalid arguments: /extra_parameters/step_type/0 enum'],
    [{ webhook_url: 'https://h.example.com/x', event_type: 'new_payment', extra_parameters: { offerFilter: ['off_pro'] } }, 'Invalid arguments: /extra_parameters/offerFilter additionalProperties'],
    [{ webhook_url: 'https://h.example.com/x', event_type: 'gamification_level_passed', extra_parameters: { activeLevels: ['2'] } }, 'Invalid arguments: /extra_parameters/activeLevels/0 type'],
  ])('%j → %s', async (body, error) => {
    expect(await call(strict.emu, 'POST', '/webhooks', body)).toMatchObject({ status: 422, body: { error } });
  });

  it('creates and lists a public https webhook with defaults', async () => {
    const r = await call(strict.emu, 'POST', '/webhooks', { webhook_url: 'https://hooks.example.com/in', event_type: 'member_joining_offer', extra_parameters: { offerFilter: ['off_pro'] } });
    expect(r.body).toEqual({
      id: expect.any(String), webhook_url: 'https://hooks.example.com/in', event_type: 'member_joining_offer', provider: 'api',
      extra_parameters: { offerFilter: ['off_pro'] }, created_at: expect.any(String), updated_at: expect.any(String),
    });
    expect((await call(strict.emu, 'GET', '/webhooks')).body).toEqual([r.body]);
  });
});

describe('event delivery to a local receiver (allowInsecureWebhooks)', () => {
  let emu: RunningEmulator;
  let receiver: Server;
  let receiverUrl: string;
  const received: Array<{ path: string; body: any }> = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        received.push({ path: req.url ?? '', body: JSON.parse(text) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    emu = await startEmulator({ port: 0, allowInsecureWebhooks: true });
  });
  afterAll(async () => {
    await emu.close();
    await new Promise<void>((r) => receiver.close(() => r()));
  });

  it('delivers only to webhooks whose event and filters match, and records each delivery', async () => {
    const hook = async (path: string, event_type: string, extra_parameters: Record<string, unknown> = {}) =>
      (await call(emu, 'POST', '/webhooks', { webhook_url: `${receiverUrl}/${path}`, event_type, extra_parameters })).body.id as string;
    await hook('quiz', 'element_completed', { step_type: ['quiz'] });
    await hook('all-steps', 'element_completed', { step_type: [] });
    await hook('pro', 'member_joining_offer', { offerFilter: 'off_pro' });
    await hook('levels', 'gamification_level_passed', { activeLevels: [3] });
    await hook('members-only', 'conversation_message_received', { author_types: ['members'], user_ids: ['u1'] });

    const fire = async (body: Record<string, unknown>) => (await call(emu, 'POST', '/__emulator/events', body)).body.deliveries.map((d: any) => d.url.split('/').pop());
    expect(await fire({ event_type: 'element_completed', step_type: 'basic', payload: { n: 1 } })).toEqual(['all-steps']);
    expect((await fire({ event_type: 'element_completed', step_type: 'quiz' })).sort()).toEqual(['all-steps', 'quiz']);
    expect(await fire({ event_type: 'member_joining_offer', offer_id: 'off_monthly' })).toEqual([]);
    expect(await fire({ event_type: 'member_joining_offer', offer_id: 'off_pro' })).toEqual(['pro']);
    expect(await fire({ event_type: 'gamification_level_passed', level: 2 })).toEqual([]);
    expect(await fire({ event_type: 'gamification_level_passed', level: 3 })).toEqual(['levels']);
    expect(await fire({ event_type: 'conversation_message_received', user_id: 'u1', author_type: 'users' })).toEqual([]);
    expect(await fire({ event_type: 'conversation_message_received', user_id: 'u1', author_type: 'members' })).toEqual(['members-only']);

    expect(received.map((r) => r.path).sort()).toEqual(['/all-steps', '/all-steps', '/levels', '/members-only', '/pro', '/quiz'].sort());
    const first = received.find((r) => r.body.data?.n === 1)!;
    expect(first.body).toMatchObject({ event_type: 'element_completed', data: { n: 1 }, id: expect.any(String), created_at: expect.any(String) });
    const state = await call(emu, 'GET', '/__emulator/state');
    expect(state.body.webhook_deliveries).toHaveLength(6);
    expect(state.body.webhook_deliveries.every((d: any) => d.status === 204 && d.error === null)).toBe(true);
  });

  it('rejects a bad event body', async () => {
    expect(await call(emu, 'POST', '/__emulator/events', { event_type: 'nope' })).toMatchObject({ status: 422, body: { error: 'Invalid arguments: /event_type enum' } });
  });
});

describe('delivery without allowInsecureWebhooks', () => {
  it('accepts a host name at registration (no DNS) and records a failed delivery when it cannot be resolved', async () => {
    // The refusal of names resolving to private addresses is unit-tested in addresses.test.ts.
    const emu = await startEmulator({ port: 0 });
    try {
      const created = await call(emu, 'POST', '/webhooks', { webhook_url: 'https://localhost.example.invalid/x', event_type: 'new_payment' });
      expect(created.status).toBe(200);
      const r = await call(emu, 'POST', '/__emulator/events', { event_type: 'new_payment' });
      expect(r.body.deliveries).toHaveLength(1);
      expect(r.body.deliveries[0].status).toBeNull();
      expect(r.body.deliveries[0].error).toMatch(/ENOTFOUND|EAI_AGAIN|getaddrinfo/);
    } finally {
      await emu.close();
    }
  });
});
