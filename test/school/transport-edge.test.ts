/**
 * Answers a faithful school never gives, served by a small real HTTP server on a free loopback
 * port (the emulator cannot be made to misbehave this way): a redirect, a body that is not
 * JSON or not the documented shape, an error body echoing the token, a Retry-After date.
 * An answer cut off mid-body, one larger than any answer of the API, one slower than the idle
 * socket timeout. Real client, real sockets; nothing is mocked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchoolClient } from '../../src/school/client.js';
import { OutcomeUnknownError, SchoolApiError, SchoolConnectionError, SchoolResponseError } from '../../src/school/errors.js';
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
  if (path === '/lessons/cut' || path === '/lessons') {
    // Headers and part of the body, then the connection drops.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
    res.write(JSON.stringify(lesson).slice(0, 100));
    setTimeout(() => res.socket?.destroy(), 20);
    return;
  }
  if (path === '/lessons/huge') {
    res.writeHead(200, { 'content-type': 'application/json' });
    const mib = Buffer.alloc(2 ** 20, 0x20);
    let sent = 0;
    const more = () => {
      while (sent < 80 && !res.destroyed) {
        sent++;
        if (!res.write(mib)) return void res.once('drain', more);
      }
      res.end();
    };
    return more();
  }
  if (path === '/lessons/slow') return void setTimeout(() => json(200, lesson), 4500);
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

  it('an answer cut off mid-body: an update is re-sent, a create is reported as maybe saved, never re-sent', async () => {
    const before = hits.length;
    const retries: RetryEvent[] = [];
    const e = await client((r) => retries.push(r)).lessons.update('cut', { name: 'x' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SchoolConnectionError);
    expect((e as Error).message).toContain('the answer was cut off');
    expect(retries.length).toBe(4); // five tries in all
    const c = await client().lessons.create({ section_id: 'sec_1', name: 'Cut' }).catch((x: unknown) => x);
    expect(c).toBeInstanceOf(OutcomeUnknownError);
    expect(hits.slice(before).filter((h) => h.path === '/lessons')).toHaveLength(1);
  });

  it('an answer larger than any the API gives is cut off, not held in memory', async () => {
    const e = await createSchoolClient({ baseUrl: base, token: TOKEN, retry: { maxAttempts: 1 } }).lessons.update('huge', {}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SchoolConnectionError);
    expect((e as Error).message).toContain('an answer of more than 64 MiB');
  });

  it('an answer slower than the idle-connection timeout still arrives (that timeout is for idle connections only)', async () => {
    const c = createSchoolClient({ baseUrl: base, token: TOKEN, retry: { maxAttempts: 1 }, timeoutMs: 10_000 });
    expect((await c.lessons.update('slow', {})).id).toBe('les_1');
  });

  it('refuses plain http to a non-loopback host and an empty token before any request', () => {
    expect(() => createSchoolClient({ baseUrl: 'http://school.example.com/api/v1', token: TOKEN })).toThrow(CoursesyncError);
    for (const token of ['', '  ', 'a b', 'tok\nX-Evil: 1', 'tok\u0001', 'tok€']) {
      expect(() => createSchoolClient({ baseUrl: base, token })).toThrow(/no usable API token: it is empty or holds/);
    }
  });
});
