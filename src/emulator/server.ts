/**
 * The emulator's HTTP server: routing, authentication, body parsing, fault injection and
 * stats around the route handlers. node:http only; every answer is JSON `{error}` or a resource.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ErrorMessages } from '../school-api/wire/errors.js';
import { parseBody, readBody, type ParsedBody } from './body.js';
import type { Route, RouteResult, RouteSettings } from './context.js';
import { HttpError } from './errors.js';
import { drawFaults, RateLimiter, type FaultSettings } from './faults.js';
import { deleteLesson, fireEvent, inspectState, type EmulatorStats } from './inspect.js';
import { settleOperations } from './operations.js';
import { badgeRoutes } from './routes/badges.js';
import { customCodeRoutes } from './routes/custom-code.js';
import { duplicateRoutes } from './routes/duplicate.js';
import { lessonRoutes } from './routes/lessons.js';
import { memberRoutes } from './routes/members.js';
import { offerRoutes } from './routes/offers.js';
import { sectionRoutes } from './routes/sections.js';
import { webhookRoutes } from './routes/webhooks.js';
import { isLearnerPage, learnerPage } from './routes/learner-page.js';
import { createStore, type ApiKey, type Store } from './store.js';
import type { Seed } from './seed.js';

export const API_PREFIX = '/api/v1';

const ROUTES: Route[] = [
  ...lessonRoutes,
  ...duplicateRoutes,
  ...sectionRoutes,
  ...memberRoutes,
  ...offerRoutes,
  ...badgeRoutes,
  ...customCodeRoutes,
  ...webhookRoutes,
];

export interface ServerSettings extends RouteSettings, FaultSettings {
  latencyMs: number;
}

/** A running emulator's mutable parts. */
export interface EmulatorCore {
  server: Server;
  stats(): EmulatorStats;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const DROP = Symbol('drop the connection');

function send(res: ServerResponse, result: RouteResult): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(result.body);
  res.writeHead(result.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...result.headers,
  });
  res.end(text);
}

/** A path parameter; one that is not valid percent-encoding names no record (the fuzz test found a 500 here). */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(404, ErrorMessages.notFound);
  }
}

const errorResult = (e: HttpError): RouteResult => ({ status: e.status, body: { error: e.message }, headers: e.headers });

/** The API key of a request, or 401. */
function authenticate(req: IncomingMessage, store: Store): ApiKey {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = m ? store.apiKeys.get(m[1]!) : undefined;
  if (!key) throw new HttpError(401, ErrorMessages.accessDenied);
  return key;
}

/** Build the http server around a seed. */
export function createEmulatorServer(seed: Seed, settings: ServerSettings): EmulatorCore {
  let store = createStore(seed);
  const limiter = new RateLimiter(settings.rateLimit);
  let stats: EmulatorStats = { requests: 0, maxInFlight: 0, byRoute: {} };
  let inFlight = 0;

  /**
   * Answer an API request `latencyMs` after it arrived, however long its handling took: a real
   * school handles requests on many workers at once, so concurrent requests each take the
   * latency, not the latency plus the handling of those queued before them on this one thread.
   */
  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const due = performance.now() + settings.latencyMs;
    let answer: RouteResult | typeof DROP;
    try {
      answer = await answerApi(req, res, url);
    } catch (e) {
      if (!(e instanceof HttpError)) throw e;
      answer = errorResult(e);
    }
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (answer === DROP) req.socket.destroy();
    else send(res, answer);
  }

  /** What to answer (or DROP: close the connection without an answer, a fault run's lost reply). */
  async function answerApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<RouteResult | typeof DROP> {
    const path = url.pathname.slice(API_PREFIX.length) || '/';
    const method = (req.method ?? 'GET').toUpperCase();
    const matches = ROUTES.filter((r) => r.pattern.test(path));
    const route = matches.find((r) => r.method === method);
    const routeName = route?.name ?? `${method} (unmatched)`;
    stats.requests += 1;
    stats.byRoute[routeName] = (stats.byRoute[routeName] ?? 0) + 1;
    inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, inFlight);
    res.once('close', () => {
      inFlight -= 1;
    });
    const raw = await readBody(req);
    const key = authenticate(req, store);
    const retryAfter = limiter.take(key.token, Date.now());
    if (retryAfter !== null) throw new HttpError(429, ErrorMessages.tooManyRequests, { 'retry-after': String(retryAfter) });
    const faults = drawFaults(settings);
    if (faults.fail === 500) throw new HttpError(500, 'Internal server error');
    if (faults.fail === 503) throw new HttpError(503, 'Service unavailable');
    if (faults.dropBefore) return DROP;
    if (!route) {
      if (matches.length > 0) throw new HttpError(405, 'Method not allowed', { allow: matches.map((r) => r.method).join(', ') });
      throw new HttpError(404, ErrorMessages.notFound);
    }
    let body: ParsedBody;
    try {
      body = parseBody(req.headers['content-type'], raw);
    } catch (e) {
      throw e instanceof HttpError && route.unreadableBody ? route.unreadableBody() : e;
    }
    const now = Date.now();
    settleOperations(store, now, settings.failOperations);
    const params = (route.pattern.exec(path) ?? []).slice(1).map(decodePathSegment);
    const result = await route.handler({ store, key, params, query: url.searchParams, body, settings, now: () => Date.now() });
    return faults.dropAfter ? DROP : result;
  }

  async function handleInspect(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const raw = await readBody(req);
    authenticate(req, store);
    const method = (req.method ?? 'GET').toUpperCase();
    const now = Date.now();
    settleOperations(store, now, settings.failOperations);
    const where = `${method} ${url.pathname}`;
    if (where === 'GET /__emulator/state') return send(res, { status: 200, body: inspectState(store, snapshot()) });
    if (where === 'POST /__emulator/reset') {
      store = createStore(seed);
      limiter.reset();
      stats = { requests: 0, maxInFlight: 0, byRoute: {} };
      return send(res, { status: 200, body: { reset: true } });
    }
    const deleted = /^DELETE \/__emulator\/lessons\/([^/]+)$/.exec(where);
    if (deleted) {
      if (!deleteLesson(store, decodeURIComponent(deleted[1]!))) throw new HttpError(404, ErrorMessages.notFound);
      return send(res, { status: 200, body: { deleted: true } });
    }
    if (where === 'POST /__emulator/events') {
      const body = parseBody(req.headers['content-type'], raw);
      return send(res, { status: 200, body: await fireEvent(store, body.value, now, settings.allowInsecureWebhooks) });
    }
    throw new HttpError(404, ErrorMessages.notFound);
  }

  function snapshot(): EmulatorStats {
    return { requests: stats.requests, maxInFlight: stats.maxInFlight, byRoute: { ...stats.byRoute } };
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    if ((req.method === 'GET' || req.method === 'HEAD') && isLearnerPage(url.pathname)) {
      const page = learnerPage(store, url.pathname);
      res.writeHead(page.status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(page.html) });
      res.end(req.method === 'HEAD' ? undefined : page.html);
      return;
    }
    const inApi = url.pathname === API_PREFIX || url.pathname.startsWith(API_PREFIX + '/');
    const handler = inApi ? handleApi : url.pathname.startsWith('/__emulator/') ? handleInspect : undefined;
    const work = handler ? handler(req, res, url) : Promise.reject(new HttpError(404, ErrorMessages.notFound));
    work.catch((e: unknown) => {
      if (e instanceof HttpError) return send(res, errorResult(e));
      // The client went away mid-request (found by the crash-loop test: a killed apply): nobody
      // to answer, and not a bug of the emulator.
      if (req.destroyed && (e as NodeJS.ErrnoException).code === 'ECONNRESET') return;
      // A bug in the emulator: answer 500 and say so on stderr, but keep serving.
      process.stderr.write(`coursesync emulator: internal error on ${req.method} ${url.pathname}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      send(res, { status: 500, body: { error: 'Internal server error' } });
    });
  });
  server.keepAliveTimeout = 5_000;
  return { server, stats: snapshot };
}
