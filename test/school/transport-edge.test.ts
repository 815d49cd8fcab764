/**
 * Answers a faithful school never gives, served by a small real HTTP server on a free loopback
 * port (the emulator cannot be made to misbehave this way): a redirect, a body that is not
 * JSON or not the documented shape, an error body echoing the token, a Retry-After date.
 * Real fetch, real sockets; nothing is mocked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolClient } from '../../src/school/client.js';
import { SchoolApiError, SchoolConnectionError, SchoolResponseError } from '../../src/school/errors.js';
import type { RetryEvent } from '../../src/school/transport.js';
import { CoursesyncError } from '../../src/diagnostics/errors.js';

const TOKEN = 'tok_EDGE_SECRET_91';
const hits: Array<{ path: string; authorization: string | undefined }> = [];
let server: Server;
let base: string;

const lesson = {
  id: 'les_1', section_id: 'sec_1', name: 'L', position: 1, lesson_type: 'text', drip_delay: 0, is_published: true,
  is_progression_locked: false, description: '', body: '', settings_embed_host_a: null, settings_embed_host_b: null,
  settings_embed_host_c: null, settings_embed_host_d: null, settings_embed_code: null, embed_code: null, transcripts: [],
  media: { pdf_url: null, audio_url: null, video_poster_url: null, video_status: null, video_id: null, video_error: null, video_progress: null },
};

let flaky = 0;
function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '').replace(/^\/api\/v1/, '');
  hits.push({ path, authorization: req.headers.authorization });
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  if (path === '/custom_code') return json(302, '', { location: `${base}/elsewhere` });
  if (path === '/elsewhere') return json(200, { custom_code_head: '', custom_code_body: '' });
  if (path === '/offers/html') return json(200, '<html>login</html>');
  if (path === '/lessons/shape') return json(200, { ...lesson, position: 'first' });
  if (path === '/lessons/extra') return json(200, { ...lesson, steps: [{ id: 's1' }], new_field: true });
  if (path === '/webhooks') return json(401, { error: `Access denied for ${req.headers.authorization?.slice(7)}` });
  if (path === '/members/accesses') {
    flaky += 1;
    if (flaky === 1) return json(503, { error: 'Service unavailable' }, { 'retry-after': 'Thu, 01 Jan 2015 00:00:00 GMT' });
    return json(200, { accesses: [] });
  }
  json(404, { error: 'Record not found' });
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

const client = (onRetry?: (e: RetryEvent) => void) =>
  createSchoolClient({ baseUrl: base, token: TOKEN, sleep: async () => {}, ...(onRetry ? { onRetry } : {}) });

describe('transport edges', () => {
  it('never follows a redirect, so the token never reaches the target', async () => {
    const e = await client().customCode.get().catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SchoolConnectionError);
    expect((e as Error).message).toContain('redirect');
    expect(hits.some((h) => h.path === '/elsewhere')).toBe(false);
  });

  it('a 2xx body that is not JSON names the endpoint', async () => {
    const e = await client().offers.get('html').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SchoolResponseError);
    expect((e as Error).message).toBe('GET /offers/html answered with an unexpected body: (body) is not JSON');
  });

  it('a 2xx body of the wrong shape names the endpoint and the field', async () => {
    const e = (await client().lessons.update('shape', {}).catch((x: unknown) => x)) as SchoolResponseError;
    expect(e).toBeInstanceOf(SchoolResponseError);
    expect([e.endpoint, e.field]).toEqual(['PATCH /lessons/shape', '/position']);
    expect(e.message).toMatch(/^PATCH \/lessons\/shape answered with an unexpected body: \/position /);
  });

  it('extra fields in a response are tolerated', async () => {
    expect((await client().lessons.update('extra', {})).id).toBe('les_1');
  });

  it('sends the bearer header, and scrubs the token if a server echoes it in an error', async () => {
    const e = (await client().webhooks.list().catch((x: unknown) => x)) as SchoolApiError;
    expect(hits.find((h) => h.path === '/webhooks')?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(e.serverError).toBe('Access denied for ***');
    expect(e.message).not.toContain(TOKEN);
  });

  it('a Retry-After date in the past means retry at once', async () => {
    const retries: RetryEvent[] = [];
    expect(await client((r) => retries.push(r)).members.accesses()).toEqual([]);
    expect(retries).toEqual([{ endpoint: 'GET /members/accesses', attempt: 1, delayMs: 0, reason: 'HTTP 503' }]);
  });

  it('refuses plain http to a non-loopback host and an empty token before any request', () => {
    expect(() => createSchoolClient({ baseUrl: 'http://school.example.com/api/v1', token: TOKEN })).toThrow(CoursesyncError);
    for (const token of ['', '  ', 'a b', 'tok\nX-Evil: 1', 'tok\u0001', 'tok€']) {
      expect(() => createSchoolClient({ baseUrl: base, token })).toThrow(/No usable API token: it is empty or holds/);
    }
  });
});
