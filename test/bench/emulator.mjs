// Emulator throughput and memory. The server runs in its own process: the emulator seeded with
// `lessons` lessons over 100 sections, or (the baseline, same run, same client) a trivial
// node:http server that reads the body and answers a small JSON object. The client PATCHes
// random lessons (a name; every 4th request also a position), `concurrency` at a time over
// keep-alive connections.
// Usage: npm run build && node test/bench/emulator.mjs [lessons=100000] [requests=10000] [concurrency=16] [repeats=3]
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { cleanup, heading, median, ratio } from './lib.mjs';

const SECTIONS = 100;
export const results = {};
const role = process.argv[2];

async function serve(kind, lessons) {
  const perSection = Math.ceil(lessons / SECTIONS);
  const before = process.memoryUsage().rss;
  if (kind === 'trivial') {
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const sent = JSON.parse(body || '{}');
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: req.url.split('/').pop(), name: sent.name ?? null, position: sent.position ?? 1 }));
      });
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${server.address().port}/api/v1`, seededMs: 0, before };
  }
  const { startEmulator } = await import('../../dist/emulator/index.js');
  const sections = Array.from({ length: SECTIONS }, (_, s) => ({
    id: `sec_b${s}`,
    name: `Bench ${s}`,
    position: s + 1,
    lessons: Array.from({ length: perSection }, (_, i) => ({ id: `les_b${s}_${i}`, name: `L${i}`, position: i + 1, body: '<p>x</p>' })),
  }));
  const t0 = performance.now();
  const emu = await startEmulator({ port: 0, seed: { api_keys: [{ token: 'bench', programs: 'all' }], programs: [{ id: 'prog_bench', name: 'Bench', sections }] } });
  return { url: emu.url, seededMs: performance.now() - t0, before };
}

if (role === '--server') {
  const info = await serve(process.argv[3], Number(process.argv[4]));
  globalThis.gc?.();
  process.send({ ...info, rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed });
  process.on('message', () => process.exit(0));
} else {
  const [lessons = 100_000, requests = 10_000, concurrency = 16, repeats = 3] = process.argv.slice(2).map(Number);
  const perSection = Math.ceil(lessons / SECTIONS);
  const MB = 2 ** 20;

  async function measure(kind, count, total = requests) {
    const server = fork(fileURLToPath(import.meta.url), ['--server', kind, String(count)], { execArgv: ['--expose-gc'] });
    const info = await new Promise((resolve) => server.once('message', resolve));
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
    let seedState = 1;
    const rand = () => (seedState = (seedState * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const patch = (path, body) =>
      new Promise((resolve, reject) => {
        const req = http.request(`${info.url}${path}`, { method: 'PATCH', agent, headers: { authorization: 'Bearer bench', 'content-type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        });
        req.on('error', reject);
        req.end(JSON.stringify(body));
      });
    let sent = 0;
    let failures = 0;
    const worker = async () => {
      while (sent < total) {
        const n = sent++;
        const s = Math.floor(rand() * SECTIONS);
        const i = Math.floor(rand() * perSection);
        const body = n % 4 === 0 ? { name: `N${n}`, position: 1 + Math.floor(rand() * perSection) } : { name: `N${n}` };
        if ((await patch(`/lessons/les_b${s}_${i}`, body)) !== 200) failures++;
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    const secs = (performance.now() - t0) / 1000;
    agent.destroy();
    server.send('stop');
    await new Promise((resolve) => server.once('exit', resolve));
    if (failures) throw new Error(`${kind}: ${failures} of ${total} PATCHes failed`);
    return { rate: total / secs, ...info };
  }

  heading(`emulator: PATCH /lessons/{id}, ${lessons} lessons loaded, ${requests} requests, concurrency ${concurrency}, no injected latency`);
  const trivial = [];
  const emu = [];
  for (let r = 0; r < repeats; r++) {
    trivial.push(await measure('trivial', lessons));
    emu.push(await measure('emulator', lessons));
  }
  const [t, e] = [median(trivial.map((x) => x.rate)), median(emu.map((x) => x.rate))];
  console.log(`baseline (trivial node:http JSON server): ${t.toFixed(0)} req/s median of ${trivial.map((x) => x.rate.toFixed(0)).join('/')}`);
  console.log(`emulator: ${e.toFixed(0)} req/s median of ${emu.map((x) => x.rate.toFixed(0)).join('/')} = ${ratio(e, t)} the baseline's rate`);
  const empty = await measure('emulator', 0, 0);
  const full = emu[0];
  console.log(
    `memory after seeding ${lessons} lessons (seeded in ${full.seededMs.toFixed(0)} ms, after a GC): rss ${(full.rss / MB).toFixed(0)} MB, heap ${(full.heap / MB).toFixed(0)} MB; ` +
      `empty emulator rss ${(empty.rss / MB).toFixed(0)} MB (baseline) → ${ratio(full.rss, empty.rss)}, ${(((full.rss - empty.rss) / lessons) / 1024).toFixed(2)} KB per lesson`,
  );
  results.emulator = { rate: e, trivial: t, rssMb: full.rss / MB, emptyMb: empty.rss / MB };
}
await cleanup();
