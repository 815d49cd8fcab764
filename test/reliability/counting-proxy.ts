/**
 * A loopback HTTP proxy that counts the school's answers by `METHOD status` (e.g.
 * `PATCH 429`), so a test can tell how many requests apply re-sent without changing the
 * emulator, and that can hold writes until the test lets them go (an event, not a latency, tells
 * a test that an apply is mid-run). Bodies and headers pass through untouched.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CountingProxy {
  /** Base URL to give the CLI (same path as the target). */
  url: string;
  /** `METHOD status` → answers seen. */
  counts(): Record<string, number>;
  /**
   * Hold every POST and PATCH from now on until `release()`; `arrived` settles when the first
   * one is held.
   */
  holdWrites(): { arrived: Promise<void>; release(): void };
  close(): Promise<void>;
}

/** Proxy every request to `target` (an emulator base URL such as `http://127.0.0.1:P/api/v1`). */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target);
  const counts: Record<string, number> = {};
  let gate: { opened: Promise<void>; arrive(): void } | undefined;
  const server: Server = createServer(async (req, res) => {
    if (gate && (req.method === 'POST' || req.method === 'PATCH')) {
      gate.arrive();
      await gate.opened;
    }
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const key = `${req.method} ${answer.statusCode}`;
        counts[key] = (counts[key] ?? 0) + 1;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      const key = `${req.method} dropped`;
      counts[key] = (counts[key] ?? 0) + 1;
      res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${to.pathname}`,
    counts: () => ({ ...counts }),
    holdWrites: () => {
      let arrive!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((r) => (arrive = r));
      const opened = new Promise<void>((r) => (release = r));
      gate = { opened, arrive };
      return {
        arrived,
        release: () => {
          gate = undefined;
          release();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
