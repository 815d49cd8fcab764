/**
 * What must be durable before a request leaves (docs/guarantees.md#what-is-durable-before-a-request-leaves):
 * - a power loss at the instant any `POST /lessons` (or any PATCH that places a lesson) reaches
 *   the school keeps that call's pending record: the disk is made slow (fdatasync answers 40 ms
 *   late) and a proxy in front of the emulator rebuilds, as each request arrives, the state a
 *   power loss would leave (state.json and the fsynced prefix of the journal);
 * - an update killed (SIGKILL) mid-flight, before or after the school saved it, converges on
 *   the next apply: the built CLI, real HTTP, a proxy that holds the PATCH while the test kills.
 */
import { spawn } from 'node:child_process';
import fs, { existsSync, fstatSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyCourse } from '../../src/apply/apply-course.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { journalFits, journalPath, parseJournal, replayJournal } from '../../src/state/journal.js';
import type { StateData } from '../../src/model/state/schema.js';
import { parseStateText, readStateFile, statePath } from '../../src/state/state-file.js';
import { resetEmulator, schoolSections, SECRET, startTestEmulator } from '../apply/helpers.js';
import { CLI, lesson, removeRepos, runCli, writeRepo } from '../e2e/helpers.js';

/** A lesson body with what real lessons hold: a list, code, a table, a link, a quote. */
const body = (topic: string, edit = '') => `## ${topic}

Work through these steps:

1. Read the [reference](https://developer.mozilla.org/en-US/docs/Web/JavaScript) on ${topic}.
2. Try it:

\`\`\`js
const ${topic.replace(/\W/g, '')} = [1, 2, 3].map((n) => n * 2);
\`\`\`

| input | output |
|---|---|
| 1 | 2 |
| 3 | 6 |

> Take your time with ${topic}.${edit}
`;

const v1: Record<string, string> = {
  'p/program.yaml': 'id: prog_intro\n',
  'p/a/section.yaml': 'id: sec_start\nlessons: [loops, arrays, objects]\n',
  'p/a/loops.md': lesson('name: Loops', body('loops')),
  'p/a/arrays.md': lesson('name: Arrays', body('arrays')),
  'p/a/objects.md': lesson('name: Objects', body('objects')),
  'p/b/section.yaml': 'id: sec_types\nlessons: [strings, numbers]\n',
  'p/b/strings.md': lesson('name: Strings', body('strings')),
  'p/b/numbers.md': lesson('name: Numbers', body('numbers')),
};

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu?.close();
  await removeRepos();
});
beforeEach(async () => {
  await resetEmulator(emu);
});

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

interface Proxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A proxy to the emulator that shows each lesson request to `inspect` once its body has
 * arrived, then does what `inspect` returns: forward it, or hold it (`hold`: never forwarded;
 * `hold-answer`: forwarded, the school's answer never passed on).
 */
async function startProxy(inspect: (method: string, path: string, body: Record<string, unknown>) => 'forward' | 'hold' | 'hold-answer'): Promise<Proxy> {
  const to = new URL(emu.url);
  const server: Server = createServer(async (req, res) => {
    const bytes = await readBody(req);
    const parsed = bytes.length > 0 ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : {};
    const what = req.url?.includes('/lessons') ? inspect(req.method ?? '', req.url, parsed) : 'forward';
    if (what === 'hold') return;
    const upstream = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (what === 'hold-answer') {
        answer.resume();
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    upstream.end(bytes);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${to.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('a power loss as a request arrives', () => {
  /** Bytes of each journal (by path and inode) that a finished fdatasync covers. */
  const covered = new Map<string, number>();
  const original = fs.fdatasync;
  beforeAll(() => {
    // A slow disk: fdatasync answers 40 ms late. A request that did not wait for it arrives first.
    fs.fdatasync = ((fd: number, done: (e: NodeJS.ErrnoException | null) => void) => {
      const id = `${readlinkSync(`/proc/self/fd/${fd}`)}:${fstatSync(fd).ino}`;
      const size = fstatSync(fd).size;
      original(fd, (e) =>
        setTimeout(() => {
          if (!e) covered.set(id, Math.max(covered.get(id) ?? 0, size));
          done(e);
        }, 40),
      );
    }) as typeof fs.fdatasync;
    syncBuiltinESMExports();
  });
  afterAll(() => {
    fs.fdatasync = original;
    syncBuiltinESMExports();
  });

  /** The state a power loss now would leave: state.json (written atomically, fsynced) and the fsynced prefix of the journal. */
  function survivingState(dir: string): StateData {
    const file = statePath(dir);
    const state = parseStateText(readFileSync(file, 'utf8'), file);
    const jp = journalPath(dir);
    if (!existsSync(jp)) return state;
    const kept = readFileSync(jp).subarray(0, covered.get(`${jp}:${statSync(jp).ino}`) ?? 0);
    const journal = parseJournal(kept.toString('utf8'), jp);
    if (journal === null || journalFits(state, journal, jp, file, false) === 'skip') return state;
    return replayJournal(state, journal, jp);
  }

  it('keeps the pending record of every create and every placing PATCH; field-only PATCHes do not wait for the disk', async () => {
    const dir = await writeRepo(v1);
    const seen = { creates: 0, placing: 0, fieldsOnly: 0, fieldsOnlyAhead: 0 };
    const lost: string[] = [];
    const proxy = await startProxy((method, path, sent) => {
      if (!existsSync(statePath(dir))) {
        lost.push(`${method} ${path} before state.json exists`);
        return 'forward';
      }
      const pending = Object.values(survivingState(dir).pending);
      if (method === 'POST') {
        seen.creates++;
        if (!pending.some((p) => p.action === 'create' && p.name === sent.name)) lost.push(`POST ${String(sent.name)}`);
      } else if (method === 'PATCH' && Object.keys(sent).length > 0) {
        const id = path.split('/').pop();
        const recorded = pending.some((p) => p.lesson_id === id && p.action !== 'read-back');
        if ('position' in sent || 'section_id' in sent) {
          seen.placing++;
          if (!recorded) lost.push(`PATCH ${id} ${JSON.stringify(sent)}`);
        } else {
          seen.fieldsOnly++;
          if (!recorded) seen.fieldsOnlyAhead++;
        }
      }
      return 'forward';
    });
    try {
      const env = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: proxy.url };
      const first = await applyCourse(dir, { env, concurrency: 4, confirm: async () => true });
      expect(first.result?.outcomes.every((o) => o.status === 'done')).toBe(true);
      // Two bodies edited, a lesson moved to the other section, two lessons added (one in front).
      await writeRepo(
        {
          'p/a/section.yaml': 'id: sec_start\nlessons: [intro, loops, objects]\n',
          'p/a/intro.md': lesson('name: Intro', body('the course')),
          'p/a/loops.md': lesson('name: Loops', body('loops', ' Loops come back in every later lesson.')),
          'p/a/objects.md': lesson('name: Objects', body('objects', ' See also the [MDN guide](https://developer.mozilla.org/en-US/docs/Learn).')),
          'p/b/section.yaml': 'id: sec_types\nlessons: [strings, arrays, numbers, dates]\n',
          'p/b/dates.md': lesson('name: Dates', body('dates')),
        },
        dir,
      );
      fs.rmSync(`${dir}/p/a/arrays.md`);
      fs.writeFileSync(`${dir}/p/b/arrays.md`, v1['p/a/arrays.md']!);
      const second = await applyCourse(dir, { env, concurrency: 4, confirm: async () => true });
      expect(second.result?.outcomes.map((o) => `${o.status} ${o.step.call_id}`).sort()).toEqual(
        ['done create:dates', 'done create:intro', 'done move:arrays', 'done update:loops', 'done update:objects'],
      );
    } finally {
      await proxy.close();
    }
    expect(lost).toEqual([]);
    expect(seen.creates).toBe(7);
    expect(seen.placing).toBeGreaterThanOrEqual(1);
    expect(seen.fieldsOnly).toBe(2);
    // The point of the split: an edit is sent while its record is written but not yet fsynced.
    expect(seen.fieldsOnlyAhead).toBeGreaterThanOrEqual(1);
    const school = await schoolSections(emu);
    expect(school.get('sec_start')!.map((l) => l.name)).toEqual(['Intro', 'Loops', 'Objects']);
    expect(school.get('sec_types')!.map((l) => l.name)).toEqual(['Strings', 'Arrays', 'Numbers', 'Dates']);
  });
});

describe('an update killed mid-flight (SIGKILL, the built CLI)', () => {
  it.each([
    ['after the school saved it', 'hold-answer' as const],
    ['before it reached the school', 'hold' as const],
  ])('%s: its record survives the kill, and the next apply converges', async (_when, hold) => {
    let holding: 'off' | 'armed' | 'held' = 'off';
    let held: (() => void) | undefined;
    const reached = new Promise<void>((resolve) => (held = resolve));
    const proxy = await startProxy((method, _path, sent) => {
      if (holding !== 'armed' || method !== 'PATCH' || Object.keys(sent).length === 0) return 'forward';
      holding = 'held';
      // Once the held request has reached the school (or only the proxy), the CLI is killed.
      setTimeout(() => held!(), hold === 'hold-answer' ? 50 : 0);
      return hold;
    });
    try {
      // The state records the school's URL: every run goes through the proxy.
      const env = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: proxy.url };
      const dir = await writeRepo(v1);
      expect((await runCli(['apply', dir, '--yes'], env)).code).toBe(0);
      await writeRepo(
        {
          'p/a/loops.md': lesson('name: Loops, revised', body('loops', ' Now with `for...of`.')),
          'p/a/arrays.md': lesson('name: Arrays, revised', body('arrays', ' Now with `flatMap`.')),
          'p/b/numbers.md': lesson('name: Numbers, revised', body('numbers', ' Now with `BigInt`.')),
        },
        dir,
      );
      holding = 'armed';
      const child = spawn(process.execPath, [CLI, 'apply', dir, '--yes', '--concurrency', '1'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise((resolve) => child.on('close', resolve));
      // An apply that ends before the PATCH arrives is a failure of the test's set-up: say why.
      await Promise.race([reached, exited.then((code) => Promise.reject(new Error(`apply exited ${String(code)} before its PATCH: ${stderr}`)))]);
      child.kill('SIGKILL');
      expect(await exited).toBe(null);

      // The kill left the update's pending record (written before its request); other chains
      // may have written their first record too (a record is written before a request slot is free).
      const left = Object.values((await readStateFile(dir)).state.pending);
      expect(left.length).toBeGreaterThanOrEqual(1);
      expect(left.every((p) => p.action === 'update')).toBe(true);
      const saved = [...(await schoolSections(emu)).values()].flat().filter((l) => l.name.endsWith('revised'));
      expect(saved.length).toBe(hold === 'hold-answer' ? 1 : 0);

      const next = await runCli(['apply', dir, '--yes'], env);
      // The killed process's lock is taken over with a warning, and its pending records are read back.
      const said = next.stderr.trim().split('\n').filter((l) => !/taking over the state lock/.test(l));
      expect(said).toEqual([expect.stringMatching(/^coursesync: an interrupted apply left calls pending: read back \d+ lesson\(s\) from the school/)]);
      expect(next.code).toBe(0);
      const refreshed = await runCli(['plan', dir, '--refresh', '--detailed-exitcode'], env);
      expect(refreshed.stdout).toMatch(/^No changes\./);
      expect(refreshed.code).toBe(0);
      expect((await readStateFile(dir)).state.pending).toEqual({});
      const school = await schoolSections(emu);
      expect(school.get('sec_start')!.map((l) => `${l.position}:${l.name}`)).toEqual(['1:Loops, revised', '2:Arrays, revised', '3:Objects']);
      expect(school.get('sec_types')!.map((l) => `${l.position}:${l.name}`)).toEqual(['1:Strings', '2:Numbers, revised']);
    } finally {
      await proxy.close();
    }
  });
});
