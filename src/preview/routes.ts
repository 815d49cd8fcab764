/**
 * What the preview server answers (PURE): which Host it answers for, and what a request path
 * asks for. Any path gives a route, a malformed one `bad` (a 400), never an exception.
 */

export type Route =
  | { kind: 'course' }
  | { kind: 'events' }
  | { kind: 'lesson'; key: string }
  | { kind: 'body'; key: string }
  | { kind: 'none' }
  | { kind: 'bad'; why: string };

/**
 * Whether a request's Host names this server: `127.0.0.1:PORT` or `localhost:PORT` (any case).
 * Any other name is a page of another site whose name now resolves to 127.0.0.1 (DNS
 * rebinding): answering it would hand that site the course, drafts included.
 */
export function hostAllowed(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  const h = host.toLowerCase();
  return ['127.0.0.1', 'localhost'].some((name) => h === `${name}:${port}` || (port === 80 && h === name));
}

const LESSON = /^\/lessons\/([^/]+)\/(body\.html)?$/;

/** The route of a request target (`req.url`). */
export function routeOf(target: string): Route {
  let path: string;
  try {
    path = new URL(target, 'http://127.0.0.1').pathname;
  } catch {
    return { kind: 'bad', why: 'the request target is not a URL path' };
  }
  if (path === '/') return { kind: 'course' };
  if (path === '/events') return { kind: 'events' };
  const m = LESSON.exec(path.endsWith('/') || path.endsWith('.html') ? path : `${path}/`);
  if (!m) return { kind: 'none' };
  let key: string;
  try {
    key = decodeURIComponent(m[1]!);
  } catch {
    return { kind: 'bad', why: 'the lesson key in the path is not valid percent-encoded UTF-8' };
  }
  return m[2] ? { kind: 'body', key } : { kind: 'lesson', key };
}
