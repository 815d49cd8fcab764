/**
 * A static host for a published assets folder (what GitHub Pages or a bucket would be), on a
 * free loopback port, recording each request so a test can count what apply asked for.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface StaticHost {
  /** `http://127.0.0.1:PORT/assets/`: the assets.base_url to configure. */
  baseUrl: string;
  /** `METHOD name` of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { '.png': 'image/png', '.pdf': 'application/pdf' };

/** Serve the files of `dir` (flat) under /assets/. */
export function serveAssets(dir: string): Promise<StaticHost> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const name = path.basename(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    requests.push(`${req.method} ${name}`);
    readFile(path.join(dir, name)).then(
      (bytes) => {
        res.writeHead(200, { 'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream', 'content-length': bytes.length });
        res.end(req.method === 'HEAD' ? undefined : bytes);
      },
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/assets/`,
        requests,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    ),
  );
}
