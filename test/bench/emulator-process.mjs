// The emulator in its own process (as a real school would be elsewhere): its request handling
// does not take the benchmark's CPU away from apply. `startEmulatorProcess(options)` forks this
// file; the child starts the emulator and answers `stats` and `stop`.
import { open } from 'node:fs/promises';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (process.argv[2] === '--emulator') {
  const { startEmulator } = await import('../../dist/emulator/index.js');
  const emu = await startEmulator(JSON.parse(process.argv[3]));
  process.send({ url: emu.url });
  process.on('message', async (m) => {
    if (m === 'stats') process.send({ stats: emu.stats() });
    else process.exit(0);
  });
}

export async function startEmulatorProcess(options) {
  const child = fork(fileURLToPath(import.meta.url), ['--emulator', JSON.stringify(options)]);
  const { url } = await new Promise((resolve) => child.once('message', resolve));
  return {
    url,
    stats: () => new Promise((resolve) => (child.send('stats'), child.once('message', (m) => resolve(m.stats)))),
    reset: (token) => fetch(url.replace(/\/api\/v1$/, '/__emulator/reset'), { method: 'POST', headers: { authorization: `Bearer ${token}` } }),
    close: () => new Promise((resolve) => (child.once('exit', resolve), child.send('stop'))),
  };
}

/** The programs and sections of a generated repo (generate-repo.ts), as an emulator seed. */
export function seedPrograms(sectionCount) {
  const programCount = Math.min(10, sectionCount);
  const perProgram = Math.ceil(sectionCount / programCount);
  const programs = [];
  for (let s = 0; s < sectionCount; s++) {
    const p = Math.floor(s / perProgram);
    programs[p] ??= { id: `prog_${p + 1}`, name: `Program ${p + 1}`, sections: [] };
    programs[p].sections.push({ id: `sec_${s + 1}`, name: `Section ${s + 1}`, position: programs[p].sections.length + 1 });
  }
  return programs;
}

/**
 * Send requests with bare fetch at `concurrency`, chain by chain in order (no state, no client
 * library): what the emulator, HTTP and this machine allow. `requests` are chains of
 * `{ method, path, body }`.
 */
export async function bareClient(url, token, chains, concurrency) {
  const { default: pLimit } = await import('p-limit');
  const limit = pLimit(concurrency);
  const t0 = performance.now();
  await Promise.all(
    chains.map(async (chain) => {
      for (const { method, path, body } of chain) {
        const r = await limit(() => fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }));
        if (r.status !== 201 && r.status !== 200) throw new Error(`bare ${method} ${path}: ${r.status} ${await r.text()}`);
        await r.arrayBuffer();
      }
    }),
  );
  return performance.now() - t0;
}

/** A plan's calls as bare-client chains. */
/**
 * A plan file as `coursesync plan --out` writes it, read a line at a time: its frame, and each
 * change parsed alone (a plan of 100,000 creates is more text than one string may hold).
 */
export async function readPlanFile(file) {
  const handle = await open(file);
  const frame = [];
  const changes = [];
  let change = null;
  try {
    for await (const line of handle.readLines({ encoding: 'utf8' })) {
      if (change !== null) {
        if (line === '  ]' || line === '  ],') {
          frame.push(line);
          change = null;
        } else if (line === '    },' || line === '    }') {
          changes.push(JSON.parse(change.join('\n') + '}'));
          change = [];
        } else change.push(line);
      } else if (line === '  "changes": [') {
        frame.push(line);
        change = [];
      } else frame.push(line);
    }
  } finally {
    await handle.close();
  }
  // The frame holds `"changes": [ ]` when its changes were taken out above, else the changes it had.
  const plan = JSON.parse(frame.join('\n'));
  if (changes.length > 0) plan.changes = changes;
  return plan;
}

/** Write chains as lines (one chain each), for writeChains' reader in another process. */
export async function writeChains(file, chains) {
  const handle = await open(file, 'w');
  try {
    for (const chain of chains) await handle.write(`${JSON.stringify(chain)}\n`);
  } finally {
    await handle.close();
  }
}

/** Chains written by writeChains. */
export async function readChains(file) {
  const handle = await open(file);
  const chains = [];
  try {
    for await (const line of handle.readLines({ encoding: 'utf8' })) if (line !== '') chains.push(JSON.parse(line));
  } finally {
    await handle.close();
  }
  return chains;
}

export function chainsOf(plan) {
  const byId = new Map(plan.changes.filter((c) => c.call_id).map((c) => [c.call_id, c]));
  return plan.chains.map((chain) =>
    chain.steps.map((id) => {
      const step = byId.get(id);
      return step.action === 'create' ? { method: 'POST', path: '/lessons', body: step.request } : { method: 'PATCH', path: `/lessons/${step.lesson_id}`, body: step.request };
    }),
  );
}
