// PATCH /lessons/{id} throughput of the emulator on loopback, no injected latency.
// Usage: npm run build && node test/bench/emulator-patch.mjs [lessons=100000] [requests=20000] [concurrency=16]
// The emulator runs in its own process, seeded with `lessons` lessons over 100 sections; the
// client PATCHes random lessons (a name, and every 4th request a position move inside the
// section), `concurrency` at a time over keep-alive connections (node:http agent).
import { fork } from 'node:child_process';
import http from 'node:http';

const [lessons = 100_000, requests = 20_000, concurrency = 16] = process.argv.slice(2).map(Number);
const SECTIONS = 100;
const perSection = Math.ceil(lessons / SECTIONS);

if (process.argv[5] === '--server') {
  const { startEmulator } = await import('../../dist/emulator/index.js');
  const sections = Array.from({ length: SECTIONS }, (_, s) => ({
    id: `sec_b${s}`,
    name: `Bench ${s}`,
    position: s + 1,
    lessons: Array.from({ length: perSection }, (_, i) => ({ id: `les_b${s}_${i}`, name: `L${i}`, position: i + 1, body: '<p>x</p>' })),
  }));
  const t0 = performance.now();
  const emu = await startEmulator({ port: 0, seed: { api_keys: [{ token: 'bench', programs: 'all' }], programs: [{ id: 'prog_bench', name: 'Bench', sections }] } });
  process.send({ url: emu.url, seededMs: performance.now() - t0 });
  process.on('message', () => {
    process.send({ rssMb: process.memoryUsage().rss / 2 ** 20, heapMb: process.memoryUsage().heapUsed / 2 ** 20 });
    void emu.close().then(() => process.exit(0));
  });
} else {
  const server = fork(new URL(import.meta.url), [String(lessons), String(requests), String(concurrency), '--server']);
  const next = () => new Promise((resolve) => server.once('message', resolve));
  const { url, seededMs } = await next();
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  let state = 1;
  const rand = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const patch = (path, body) =>
    new Promise((resolve, reject) => {
      const req = http.request(`${url}${path}`, { method: 'PATCH', agent, headers: { authorization: 'Bearer bench', 'content-type': 'application/json' } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  let sent = 0;
  let failures = 0;
  const worker = async () => {
    while (sent < requests) {
      const n = sent++;
      const s = Math.floor(rand() * SECTIONS);
      const i = Math.floor(rand() * perSection);
      const body = n % 4 === 0 ? { name: `N${n}`, position: 1 + Math.floor(rand() * perSection) } : { name: `N${n}` };
      if ((await patch(`/lessons/les_b${s}_${i}`, body)) !== 200) failures++;
    }
  };
  const t1 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const secs = (performance.now() - t1) / 1000;
  server.send('done');
  const { rssMb, heapMb } = await next();
  agent.destroy();
  console.log(
    `${lessons} lessons (seeded in ${seededMs.toFixed(0)} ms), ${requests} PATCHes, concurrency ${concurrency}: ` +
      `${(requests / secs).toFixed(0)} req/s, ${failures} failures; server rss ${rssMb.toFixed(0)} MB, heap ${heapMb.toFixed(0)} MB`,
  );
}
