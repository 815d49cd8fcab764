// Calls for reorders: what the planner asks for, the minimum (per section: lessons − longest
// run already in order, n − LIS, computed here independently of the planner) and a naive
// "set every position" approach (one call per lesson of every section whose order changed).
// Each scenario is applied to the emulator first and after: the school must end in the repo's
// order with exactly the planned number of requests, and a second plan must be empty.
// Usage: npm run build && node test/bench/calls.mjs
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cleanup, heading, tempDir } from './lib.mjs';

const { startEmulator } = await import('../../dist/emulator/index.js');
const { applyCourse } = await import('../../dist/apply/index.js');
const { buildPlan } = await import('../../dist/sync/build-plan.js');
const { isCall } = await import('../../dist/plan/index.js');
const TOKEN = 'bench';
const N = 100;
export const results = {};

const seed = {
  api_keys: [{ token: TOKEN, programs: 'all' }],
  programs: [{ id: 'prog_c', name: 'Calls', sections: [{ id: 'sec_a', name: 'A', position: 1 }, { id: 'sec_b', name: 'B', position: 2 }] }],
};
const emu = await startEmulator({ port: 0, seed });
const env = { ...process.env, COURSESYNC_TOKEN: TOKEN, COURSESYNC_BASE_URL: emu.url };
const inspect = async () => {
  const r = await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/state'), { headers: { authorization: `Bearer ${TOKEN}` } });
  const { programs } = await r.json();
  return Object.fromEntries(programs[0].sections.map((s) => [s.id === 'sec_a' ? 'a' : 'b', s.lessons.map((l) => l.name)]));
};

let state = 7;
const rand = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32);
const shuffle = (xs) => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

/** Length of the longest increasing subsequence (patience sorting). */
function lis(xs) {
  const tails = [];
  for (const x of xs) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = x;
  }
  return tails.length;
}

async function writeRepo(dir, order) {
  await writeFile(join(dir, 'coursesync.yaml'), 'apply:\n  concurrency: 8\n');
  await mkdir(join(dir, 'p'), { recursive: true });
  await writeFile(join(dir, 'p/program.yaml'), 'id: prog_c\n');
  for (const s of ['a', 'b']) {
    await mkdir(join(dir, 'p', s), { recursive: true });
    for (const key of order[s]) await writeFile(join(dir, 'p', s, `${key}.md`), `---\nname: ${key}\nlesson_type: text\n---\nLesson ${key}.\n`);
  }
  await writeOrder(dir, order);
}
const writeOrder = (dir, order) =>
  Promise.all(['a', 'b'].map((s) => writeFile(join(dir, 'p', s, 'section.yaml'), `id: sec_${s}\nlessons:\n${order[s].map((k) => `  - ${k}\n`).join('')}`)));

const scenarios = {
  'reverse 100': async (dir, o) => ({ a: [...o.a].reverse(), b: o.b }),
  'random shuffle of 100': async (dir, o) => ({ a: shuffle(o.a), b: o.b }),
  'move 10 lessons across sections': async (dir, o) => {
    const moved = shuffle(o.a).slice(0, 10);
    const b = [...o.b];
    for (const key of moved) {
      await rename(join(dir, 'p/a', `${key}.md`), join(dir, 'p/b', `${key}.md`));
      b.splice(Math.floor(rand() * (b.length + 1)), 0, key);
    }
    return { a: o.a.filter((k) => !moved.includes(k)), b };
  },
  'insert 1 at the front of 100': async (dir, o) => {
    await writeFile(join(dir, 'p/a/new-first.md'), '---\nname: new-first\nlesson_type: text\n---\nNew.\n');
    return { a: ['new-first', ...o.a], b: o.b };
  },
};

heading(`calls for reorders (sections of ${N} lessons; applied to the emulator before and after)`);
console.log('| scenario | planned calls | minimum (n − LIS) | naive (set every position) | planned / minimum | school order right | requests sent | second plan |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [name, mutate] of Object.entries(scenarios)) {
  await fetch(emu.url.replace(/\/api\/v1$/, '/__emulator/reset'), { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
  const dir = await tempDir('calls');
  const before = { a: Array.from({ length: N }, (_, i) => `a-${i + 1}`), b: Array.from({ length: N }, (_, i) => `b-${i + 1}`) };
  await writeRepo(dir, before);
  await applyCourse(dir, { env, concurrency: 8 });
  const after = await mutate(dir, before);
  await writeOrder(dir, after);

  let minimum = 0;
  let naive = 0;
  for (const s of ['a', 'b']) {
    const oldPos = new Map(before[s].map((k, i) => [k, i]));
    minimum += after[s].length - lis(after[s].filter((k) => oldPos.has(k)).map((k) => oldPos.get(k)));
    if (after[s].join() !== before[s].join()) naive += after[s].length;
  }
  const { plan } = await buildPlan(dir, { env });
  const planned = plan.changes.filter(isCall).length;
  const sentBefore = emu.stats().requests;
  await applyCourse(dir, { env, concurrency: 8 });
  const sent = emu.stats().requests - sentBefore;
  const school = await inspect();
  const right = school.a.join() === after.a.join() && school.b.join() === after.b.join();
  const second = (await buildPlan(dir, { env })).plan.changes.filter(isCall).length;
  console.log(`| ${name} | ${planned} | ${minimum} | ${naive} | ${(planned / minimum).toFixed(2)}× | ${right ? 'yes' : 'NO'} | ${sent} | ${second} calls |`);
  results[name] = { planned, minimum, naive, right, sent, second };
}
await emu.close();
await cleanup();
