// Apply at scale, no latency: what apply itself costs per call, and how that grows with the school.
// Usage: npm run bench (builds generate-repo), or: node test/bench/apply-scale.mjs [sizes=1000,10000] [edits=100] [concurrency=8] [edit rounds=1]
// (APPLY_PROFILE=<folder> writes a CPU profile of each apply there.)
// Per size N (N lessons, 100 per section, ~3 KB of Markdown each; the render cache is warmed
// once first: this measures apply, not rendering):
// - creates: `apply` of N creates at concurrency c (in its own process: its peak memory), against
//   a bare client sending the same requests at c (the same chains, in order; no state). "calls"
//   is the first request to the last answer; "before" is load + compile + plan, "after" the
//   compaction of the journal into state.json and the lock's release;
// - state bytes per call: the journal's size at the last answer over the calls, and state.json
//   (written once, at compaction) over the calls;
// - edits: `edits` lesson files changed in the N-lesson school, applied; against the same PATCHes
//   from the bare client. With `edit rounds` R > 1, R rounds (each edits the same files again),
//   apply and bare client alternating, and the median ratio: one round is noise on a shared machine.
import { cp, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bareClient, chainsOf, readChains, seedPrograms, startEmulatorProcess, writeChains } from './emulator-process.mjs';
import { cleanup, heading, ms, ratio, tempDir, timeNode } from './lib.mjs';

const TOKEN = 'bench';

// The child: one apply, its figures written to a JSON file.
if (process.argv[2] === '--apply') {
  const [dir, url, concurrency, out] = process.argv.slice(3);
  const { applyCourse } = await import('../../dist/apply/index.js');
  const journal = join(dir, '.coursesync/state.journal');
  let first = 0;
  let last = 0;
  let ended = 0;
  let journalBytes = 0;
  let expected = Infinity;
  // This process's CPU time from the first request to the last answer (less noisy than wall time on a shared machine).
  let cpuFirst;
  let cpuLast;
  const t0 = performance.now();
  const result = await applyCourse(dir, {
    env: { ...process.env, COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: url },
    concurrency: Number(concurrency),
    confirm: async (plan) => {
      expected = plan.changes.filter((c) => c.call_id).length;
      return true;
    },
    onEvent: (e) => {
      if (e.type === 'call-start' && first === 0) {
        first = performance.now();
        cpuFirst = process.cpuUsage();
      }
      if (e.type !== 'call-end') return;
      last = performance.now();
      if (++ended !== expected) return;
      cpuLast = process.cpuUsage(cpuFirst);
      // The journal holds every call's record now (compaction comes after the run).
      if (existsSync(journal)) journalBytes = statSync(journal).size;
    },
  });
  const end = performance.now();
  const outcomes = result.result?.outcomes ?? [];
  if (!outcomes.every((o) => o.status === 'done')) throw new Error(`apply: ${outcomes.filter((o) => o.status !== 'done').length} calls not done`);
  const stateBytes = (await stat(join(dir, '.coursesync/state.json'))).size;
  await writeFile(out, JSON.stringify({ cpu: (cpuLast.user + cpuLast.system) / 1000, calls: last - first, before: first - t0, after: end - last, total: end - t0, count: outcomes.length, journalBytes, stateBytes, chains: chainsOf(result.plan) }));
  process.exit(0);
}

// The child: the bare client in a fresh process (its code not yet optimised, as apply's is not), its figures written to a JSON file.
if (process.argv[2] === '--bare') {
  const [url, concurrency, chainsFile, out] = process.argv.slice(3);
  const chains = await readChains(chainsFile);
  // One request first, as apply reads the sections before its calls: fetch is loaded and a connection open.
  await (await fetch(`${url}/programs`, { headers: { authorization: `Bearer ${TOKEN}` } })).arrayBuffer();
  const cpu0 = process.cpuUsage();
  const calls = await bareClient(url, TOKEN, chains, Number(concurrency));
  const cpu = process.cpuUsage(cpu0);
  await writeFile(out, JSON.stringify({ calls, cpu: (cpu.user + cpu.system) / 1000 }));
  process.exit(0);
}

const [sizesArg = '1000,10000', editsArg = '100', limitArg = '8', roundsArg = '1'] = process.argv.slice(2);
const rounds = Math.max(1, Number(roundsArg));
const sizes = sizesArg.split(',').map(Number);
const edits = Number(editsArg);
const limit = Number(limitArg);
const { generateRepo } = await import('./out/generate-repo.js');
const { loadCourse } = await import('../../dist/load/load-course.js');
const { buildPlan } = await import('../../dist/sync/build-plan.js');
const SELF = fileURLToPath(import.meta.url);

/** Run one apply in its own process: its figures, wall time and peak memory. */
async function applyChild(dir, url) {
  const out = join(dir, '..', `apply-${Math.random().toString(36).slice(2)}.json`);
  // APPLY_PROFILE=<folder>: a CPU profile of each apply there (node --cpu-prof).
  const profile = process.env.APPLY_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.APPLY_PROFILE}`] : [];
  const run = await timeNode([...profile, SELF, '--apply', dir, url, String(limit), out]);
  if (run.code !== 0) throw new Error(`apply failed: ${run.stderr}`);
  return { ...JSON.parse(await readFile(out, 'utf8')), rssMb: run.rssMb, wall: run.wall };
}

/** The bare client in its own fresh process: wall time of the calls and its CPU time. */
async function bareChild(url, chains) {
  const file = join(await tempDir('bare'), 'chains.ndjson');
  await writeChains(file, chains);
  const out = `${file}.out`;
  const run = await timeNode([SELF, '--bare', url, String(limit), file, out]);
  if (run.code !== 0) throw new Error(`bare client failed: ${run.stderr}`);
  return JSON.parse(await readFile(out, 'utf8'));
}

heading(`apply at scale: creates and ${edits} edits, emulator with no latency, concurrency ${limit}, sizes ${sizes.join(', ')}`);
const curve = [];
for (const n of sizes) {
  const sections = Math.max(1, Math.round(n / 100));
  const repo = await tempDir(`scale-${n}`);
  await generateRepo(repo, { lessons: n, sections, programs: Math.min(10, sections), seed: 5 });
  await loadCourse(repo, { cache: true }); // render once: the applies below reuse the cache
  const emu = await startEmulatorProcess({ port: 0, latencyMs: 0, seed: { api_keys: [{ token: TOKEN, programs: 'all' }], programs: seedPrograms(sections) } });
  const env = { ...process.env, COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url };

  // Baseline first (it needs no state): the plan's creates from the bare client.
  const planned = await buildPlan(repo, { env });
  await emu.reset(TOKEN);
  const bareCreates = await bareClient(emu.url, TOKEN, chainsOf(planned.plan), limit);
  await emu.reset(TOKEN);

  const dir = await tempDir(`scale-run-${n}`);
  await cp(repo, dir, { recursive: true });
  const creates = await applyChild(dir, emu.url);
  if (creates.count !== n) throw new Error(`${creates.count} of ${n} creates`);
  console.log(
    `${n} creates: calls ${ms(creates.calls)} vs bare client ${ms(bareCreates)} → ${ratio(creates.calls, bareCreates)} (target ≤ 1.5×); ` +
      `apply total ${ms(creates.total)} = load + compile + plan ${ms(creates.before)} + calls + compaction ${ms(creates.after)}; peak memory ${creates.rssMb.toFixed(0)} MB`,
  );
  console.log(
    `  state writes: journal ${(creates.journalBytes / n).toFixed(0)} bytes per call (${(creates.journalBytes / 2 ** 20).toFixed(1)} MB for ${n} calls); ` +
      `state.json ${(creates.stateBytes / 2 ** 20).toFixed(1)} MB written once at compaction (${(creates.stateBytes / n).toFixed(0)} bytes per call amortized; ` +
      `a whole-file write per call would be ${((creates.stateBytes / 2) / 2 ** 20).toFixed(1)} MB per call on average)`,
  );

  // Edits spread over the school: one lesson in every n/edits.
  const planFiles = planned.desired.programs.flatMap((p) => p.sections.flatMap((s) => s.lessons.map((l) => l.path)));
  const step = Math.max(1, Math.floor(planFiles.length / edits));
  const edited = planFiles.filter((_, i) => i % step === 0).slice(0, edits);
  const ratios = [];
  const cpuRatios = [];
  const freshRatios = [];
  let edit;
  for (let round = 1; round <= rounds; round++) {
    for (const [i, path] of edited.entries()) {
      const file = join(dir, path);
      await writeFile(file, `${await readFile(file, 'utf8')}\nA new closing paragraph (edit ${i + 1}, round ${round}), with a [link](https://example.com/more-${i}-${round}).\n`);
    }
    edit = await applyChild(dir, emu.url);
    if (edit.count !== edited.length) throw new Error(`${edit.count} of ${edited.length} edits`);
    const cpu0 = process.cpuUsage();
    const bareEdits = await bareClient(emu.url, TOKEN, edit.chains, limit);
    const cpuUsed = process.cpuUsage(cpu0);
    const bareCpu = (cpuUsed.user + cpuUsed.system) / 1000;
    const fresh = await bareChild(emu.url, edit.chains);
    ratios.push(edit.calls / bareEdits);
    cpuRatios.push(edit.cpu / bareCpu);
    freshRatios.push(edit.calls / fresh.calls);
    console.log(
      `${edited.length} edits in a ${n}-lesson school${rounds > 1 ? ` (round ${round})` : ''}: calls ${ms(edit.calls)} vs bare client ${ms(bareEdits)} → ${ratio(edit.calls, bareEdits)} (target ≤ 1.2×); ` +
        `client CPU in the calls ${ms(edit.cpu)} vs ${ms(bareCpu)}; bare client in a fresh process ${ms(fresh.calls)} (CPU ${ms(fresh.cpu)}) → ${ratio(edit.calls, fresh.calls)}; ` +
        `apply total ${ms(edit.total)} (load + compile + plan ${ms(edit.before)}, compaction ${ms(edit.after)}); journal ${(edit.journalBytes / edited.length).toFixed(0)} bytes per call; peak memory ${edit.rssMb.toFixed(0)} MB`,
    );
  }
  if (rounds > 1) {
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)].toFixed(2);
    console.log(
      `${edited.length} edits in a ${n}-lesson school: median ${median(ratios)}× the bare client over ${rounds} rounds (${ratios.map((r) => r.toFixed(2)).join(', ')}) (target ≤ 1.2×); ` +
        `client CPU in the calls: median ${median(cpuRatios)}× the bare client's; against the bare client in a fresh process: median ${median(freshRatios)}×`,
    );
  }
  curve.push({ n, creates, edit });
  await emu.close();
  await cleanup();
}
if (curve.length > 1) {
  heading('growth (apply of N creates; apply of the edits in an N-lesson school)');
  console.log('| lessons | creates: calls | per call | total | peak MB | edits: calls | total | peak MB |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const { n, creates, edit } of curve) {
    console.log(`| ${n} | ${ms(creates.calls)} | ${(creates.calls / n).toFixed(2)} ms | ${ms(creates.total)} | ${creates.rssMb.toFixed(0)} | ${ms(edit.calls)} | ${ms(edit.total)} | ${edit.rssMb.toFixed(0)} |`);
  }
}
