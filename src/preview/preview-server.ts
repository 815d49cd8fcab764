/**
 * The preview server (I/O): compiles the repo with the same path as `plan` (loadCourse, so the
 * same rendering, caching and rewriting), serves the page on 127.0.0.1, watches the folder and
 * recompiles on a save, then tells open pages through server-sent events. It holds no token and
 * makes no request to the school. Safe to leave open: it answers only requests for its own
 * host (routes.ts), every request is answered, and its pages run no script of a lesson
 * (page-assets.ts, lesson-html.ts).
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { isCoursesyncError } from '../diagnostics/errors.js';
import type { DesiredState } from '../model/desired.js';
import { loadCourse } from '../load/load-course.js';
import { showCourse } from './lesson-html.js';
import { BODY_POLICY, PAGE_POLICY, TEXT_POLICY } from './page-assets.js';
import { renderLessonPage, renderPreviewPage, type PreviewModel } from './render-page.js';
import { hostAllowed, routeOf } from './routes.js';
import { isCourseInput, referencedFiles, type WatchEvent } from './watch-rule.js';
import type { SchoolSections, SectionReader } from './school-sections.js';

export interface PreviewOptions {
  /** The course repo. */
  dir: string;
  /** 0 picks a free port. */
  port: number;
  /** `--refresh`: read the sections' drips, publication and order from the school. */
  readSections?: SectionReader;
  /** Threads rendering uncached bodies (default every core). */
  renderThreads?: number;
  /** The environment previewed (`--env`): its settings and ids (docs/environments.md). */
  environment?: string | undefined;
  /** Told of an unexpected failure of a recompile or of answering a request (a bug); the preview keeps serving the last page. */
  onError?: (e: unknown) => void;
  /**
   * Files the preview itself writes to (its stdout and stderr redirected into the repo), by
   * device and inode: a change to them never recompiles.
   */
  ownOutputs?: ReadonlyArray<{ dev: number; ino: number }>;
  /** Told after each compile: how long it took and what it found. */
  onCompile?: (info: { version: number; ms: number; lessons: number; errors: number; warnings: number }) => void;
}

export interface RunningPreview {
  url: string;
  port: number;
  /** The current page version (bumped on every compile). */
  readonly version: number;
  close(): Promise<void>;
}

/** Wait this long after a change event for the rest of a save (editors write in steps). */
const SETTLE_MS = 25;

/** Start the preview; resolves once the first compile is done and the port is listening. */
export async function startPreview(options: PreviewOptions): Promise<RunningPreview> {
  let version = 0;
  let desired: DesiredState | undefined;
  let diagnostics: Diagnostic[] = [];
  let stale = false;
  let school: SchoolSections | undefined;
  let page = '';
  let shown: DesiredState | undefined;
  const bodies = new Map<string, string>();
  let referenced = new Set<string>();
  const clients = new Set<ServerResponse>();

  const compile = async () => {
    const started = performance.now();
    try {
      const result = await loadCourse(options.dir, { cache: true, renderThreads: options.renderThreads, environment: options.environment });
      diagnostics = result.diagnostics;
      stale = result.desired === undefined;
      if (result.desired) desired = result.desired;
    } catch (e) {
      // The folder itself could not be read: say so in the page, keep the last course.
      if (!isCoursesyncError(e)) throw e;
      diagnostics = [{ file: options.dir, code: 'preview/unreadable', severity: 'error', message: e.message, hint: e.hint }];
      stale = true;
    }
    if (options.readSections && desired) {
      try {
        school = await options.readSections(desired);
      } catch (e) {
        if (!isCoursesyncError(e)) throw e;
        diagnostics = [...diagnostics, { file: '(school)', code: 'preview/sections-unread', severity: 'warning', message: e.message, hint: e.hint }];
      }
    }
    version++;
    bodies.clear();
    for (const p of desired?.programs ?? []) for (const s of p.sections) for (const l of s.lessons) bodies.set(l.key, l.fields.body);
    if (desired) shown = showCourse(desired);
    referenced = referencedFiles(desired);
    page = renderPreviewPage(model());
    for (const res of clients) res.write(`data: ${version}\n\n`);
    options.onCompile?.({
      version,
      ms: performance.now() - started,
      lessons: bodies.size,
      errors: diagnostics.filter((d) => d.severity === 'error').length,
      warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    });
  };

  const model = (): PreviewModel => ({ desired: shown, stale, diagnostics, version, sections: school?.facts, sectionIds: school?.ids });

  // One compile at a time; changes during a compile lead to exactly one more.
  let running: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        do {
          again = false;
          try {
            await compile();
          } catch (e) {
            options.onError?.(e);
          }
        } while (again);
      })().finally(() => (running = undefined));
    }, SETTLE_MS);
  };

  await compile();

  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (e) {
      // Every request is answered and the preview keeps serving, whatever it was sent.
      options.onError?.(e);
      if (res.headersSent) res.destroy();
      else send(res, 500, 'the preview could not answer this request\n');
    }
  });
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const port = (server.address() as AddressInfo).port;
    // A page of another site that rebinds its name to 127.0.0.1 sends its own name here.
    if (!hostAllowed(req.headers.host, port)) return send(res, 421, `the preview answers only at http://127.0.0.1:${port}/ or http://localhost:${port}/\n`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'the preview only answers GET\n');
    const route = routeOf(req.url ?? '/');
    if (route.kind === 'bad') return send(res, 400, `${route.why}\n`);
    if (route.kind === 'course') return send(res, 200, page, 'html');
    if (route.kind === 'events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(`retry: 300\ndata: ${version}\n\n`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    if (route.kind === 'lesson') {
      const lessonPage = renderLessonPage(model(), route.key);
      if (lessonPage !== undefined) return send(res, 200, lessonPage, 'html');
    }
    // The exact body apply would send for a lesson, for tools and tests comparing bytes.
    const body = route.kind === 'body' ? bodies.get(route.key) : undefined;
    if (body !== undefined) return send(res, 200, body, 'body');
    return send(res, 404, 'not found\n');
  };
  const send = (res: ServerResponse, status: number, text: string, kind: 'text' | 'html' | 'body' = 'text') => {
    res.writeHead(status, {
      'content-type': kind === 'text' ? 'text/plain; charset=utf-8' : 'text/html; charset=utf-8',
      'content-security-policy': kind === 'html' ? PAGE_POLICY : kind === 'body' ? BODY_POLICY : TEXT_POLICY,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    res.end(text);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const own = options.ownOutputs ?? [];
  const isOwnOutput = (name: string) => {
    if (own.length === 0) return false;
    try {
      const st = statSync(join(options.dir, name), { throwIfNoEntry: false });
      return st !== undefined && own.some((o) => o.dev === st.dev && o.ino === st.ino);
    } catch {
      return false;
    }
  };
  const watcher: FSWatcher = watch(options.dir, { recursive: true }, (event, name) => {
    // No name (some platforms): anything may have changed.
    if (name !== null && (!isCourseInput(event as WatchEvent, name, referenced) || isOwnOutput(name))) return;
    schedule();
  });
  // A keep-alive comment so proxies and browsers keep idle event streams open.
  const ping = setInterval(() => {
    for (const res of clients) res.write(': ping\n\n');
  }, 15_000);
  ping.unref();

  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    get version() {
      return version;
    },
    async close() {
      clearInterval(ping);
      if (timer) clearTimeout(timer);
      watcher.close();
      for (const res of clients) res.end();
      clients.clear();
      await running;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
