/**
 * The preview server (I/O): compiles the repo with the same path as `plan` (loadCourse, so the
 * same rendering, caching and rewriting), serves the page on 127.0.0.1, watches the folder and
 * recompiles on a save, then tells open pages through server-sent events. It holds no token and
 * makes no request to the school.
 */
import { watch, type FSWatcher } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { isCoursesyncError } from '../diagnostics/errors.js';
import type { DesiredState } from '../model/desired.js';
import { loadCourse } from '../source/load-course.js';
import { renderPreviewPage } from './render-page.js';
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
  /** Told of an unexpected failure of a recompile (a bug); the preview keeps serving the last page. */
  onError?: (e: unknown) => void;
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

/** Changes under these folders are not the course (the tool's own cache and state, git). */
const IGNORED = /^(?:\.coursesync|\.git|node_modules)(?:[\\/]|$)/;

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
  const bodies = new Map<string, string>();
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
    page = renderPreviewPage({ desired, stale, diagnostics, version, sections: school?.facts, sectionIds: school?.ids });
    for (const res of clients) res.write(`data: ${version}\n\n`);
    options.onCompile?.({
      version,
      ms: performance.now() - started,
      lessons: bodies.size,
      errors: diagnostics.filter((d) => d.severity === 'error').length,
      warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    });
  };

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

  const server = createServer((req, res) => handle(req, res));
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'the preview only answers GET\n');
    if (path === '/') return send(res, 200, 'text/html; charset=utf-8', page);
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write(`retry: 300\ndata: ${version}\n\n`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
      return;
    }
    // The exact body apply would send for a lesson, for tools and tests comparing bytes.
    const m = /^\/lessons\/([^/]+)\/body\.html$/.exec(path);
    const body = m ? bodies.get(decodeURIComponent(m[1]!)) : undefined;
    if (body !== undefined) return send(res, 200, 'text/html; charset=utf-8', body);
    return send(res, 404, 'text/plain', 'not found\n');
  };
  const send = (res: ServerResponse, status: number, type: string, text: string) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(text);
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const watcher: FSWatcher = watch(options.dir, { recursive: true }, (_event, name) => {
    if (name !== null && IGNORED.test(name)) return;
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
