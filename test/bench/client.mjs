// What one call costs the client in a fresh process (as every CLI run is): the same PATCHes at
// concurrency c sent by Node's fetch, by coursesync's client (node:http over a keep-alive
// agent, zod on the answer) and by bare node:http, each in its own fresh process after one
// warm-up request, against the emulator in this process; CPU and wall time, median of R runs.
// Usage: npm run build && node test/bench/client.mjs [calls=100] [concurrency=8] [runs=5]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { heading, median, ms, ratio } from './lib.mjs';

const TOKEN = 'bench';
const SELF = fileURLToPath(import.meta.url);
const body = (i) => ({ body: `<p>Edit ${i}. ${'Some lesson text. '.repeat(150)}</p>` });

// The child: one kind of client, its figures as JSON on stdout.
if (process.argv[2] === '--child') {
  const [kind, url, idsJson, concurrency] = process.argv.slice(3);
  const ids = JSON.parse(idsJson);
  const { default: pLimit } = await import('p-limit');
  let send;
  if (kind === 'fetch') {
    send = async (id, b) => {
      const r = await fetch(`${url}/lessons/${id}`, { method: 'PATCH', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(b) });
      JSON.parse(await r.text());
    };
  } else if (kind === 'coursesync') {
    const { createSchoolClient } = await import('../../dist/school/client.js');
    const client = createSchoolClient({ baseUrl: url, token: TOKEN });
    send = (id, b) => client.lessons.update(id, b);
  } else {
    const http = await import('node:http');
    const agent = new http.Agent({ keepAlive: true });
    send = (id, b) =>
      new Promise((resolve, reject) => {
        const data = JSON.stringify(b);
        const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) };
        const req = http.request(`${url}/lessons/${id}`, { method: 'PATCH', agent, headers }, (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
        });
        req.on('error', reject);
        req.end(data);
      });
  }
  await send(ids[0], {}); // the module loaded and a connection open, as apply has when its calls start
  const limit = pLimit(Number(concurrency));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(ids.map((id, i) => limit(() => send(id, body(i)))));
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(JSON.stringify({ wall, cpu: (cpu.user + cpu.system) / 1000 }));
  process.exit(0);
}

const [callsArg = '100', concurrencyArg = '8', runsArg = '5'] = process.argv.slice(2);
const calls = Number(callsArg);
const runs = Number(runsArg);
const { startEmulator } = await import('../../dist/emulator/index.js');
const emu = await startEmulator({ port: 0, latencyMs: 0, seed: { api_keys: [{ token: TOKEN, programs: 'all' }], programs: [{ id: 'prog_1', name: 'P', sections: [{ id: 'sec_1', name: 'S', position: 1 }] }] } });
const ids = [];
for (let i = 0; i < calls; i++) {
  const r = await fetch(`${emu.url}/lessons`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ section_id: 'sec_1', name: `Lesson ${i}` }) });
  ids.push((await r.json()).id);
}
const child = (kind) =>
  new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [SELF, '--child', kind, emu.url, JSON.stringify(ids), concurrencyArg], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`${kind}: exit ${code}`))));
  });
heading(`client: ${calls} PATCHes (~3 KB body) at concurrency ${concurrencyArg}, each client in a fresh process, median of ${runs}`);
const kinds = ['fetch', 'coursesync', 'node:http'];
const results = Object.fromEntries(kinds.map((k) => [k, []]));
for (let r = 0; r < runs; r++) for (const k of kinds) results[k].push(await child(k)); // interleaved: load hits all alike
const cpu = (k) => median(results[k].map((x) => x.cpu));
const wall = (k) => median(results[k].map((x) => x.wall));
for (const k of kinds) console.log(`${k}: CPU ${ms(cpu(k))} (${(cpu(k) / calls).toFixed(2)} ms per call) = ${ratio(cpu(k), cpu('node:http'))} bare node:http; wall ${ms(wall(k))}`);
await emu.close();
