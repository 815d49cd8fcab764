/** What a route handler gets and returns. Handlers throw HttpError for error answers. */
import type { ParsedBody } from './body.js';
import type { ApiKey, Store } from './store.js';

/** Behaviour switches the routes need (the fault flags that act inside routes). */
export interface RouteSettings {
  operationDelayMs: number;
  failOperations: boolean;
  allowInsecureWebhooks: boolean;
}

export interface RouteContext {
  store: Store;
  key: ApiKey;
  /** Path parameters, in order (`/lessons/:id/duplicate` → `[id]`). */
  params: string[];
  query: URLSearchParams;
  body: ParsedBody;
  settings: RouteSettings;
  /** Milliseconds since the epoch. */
  now: () => number;
}

export interface RouteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

export interface Route {
  method: string;
  /** `/lessons/:id` style, for stats. */
  name: string;
  pattern: RegExp;
  handler: Handler;
  /**
   * The error answered for a body that cannot be read (malformed JSON, an unsupported content
   * type) when the endpoint's documented errors do not include 400/415; else those are answered.
   */
  unreadableBody?: () => Error;
}

/** Build a route from a `/lessons/:id` template. */
export function route(method: string, template: string, handler: Handler, unreadableBody?: () => Error): Route {
  const source = template
    .split('/')
    .map((part) => (part.startsWith(':') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return { method, name: `${method} ${template}`, pattern: new RegExp(`^${source}$`), handler, ...(unreadableBody ? { unreadableBody } : {}) };
}

export const ok = (body: unknown, status = 200): RouteResult => ({ status, body });
