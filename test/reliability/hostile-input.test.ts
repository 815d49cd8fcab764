/**
 * Hostile and broken input (docs/architecture.md#guarantees): at least 1,000 generated malformed repos go
 * through the same loadCourse path as `validate`/`plan`/`apply`, and each must come back
 * invalid, with an error naming the broken file (and its line where it has one), without a
 * crash. A sample goes through the built CLI (`plan --refresh`, `apply --yes`, `validate`) with a
 * token and an emulator address set: each exits 1 with the file named, no stack trace, and the
 * emulator sees no request at all. Counts: HOSTILE_REPOS (default 1000), HOSTILE_CLI (default 20: every one of the 14 kinds at least once).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { loadCourse } from '../../src/load/load-course.js';
import { SECRET, startTestEmulator } from '../apply/helpers.js';
import { runCli } from '../e2e/helpers.js';
import { KINDS, hostileRepo, writeHostileRepo, type HostileRepo } from './hostile-repos.js';
import { countFromEnv, createRng } from './random.js';

const REPOS = countFromEnv('HOSTILE_REPOS', 1000);
const CLI_SAMPLE = countFromEnv('HOSTILE_CLI', 20);
const SEED = 0x9e3779b9;
/** The bound on one repo: far above what any takes (a 10 MB file: about a second). */
const BOUND_MS = 30_000;

const ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
let work: string;
let outside: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, 'coursesync-hostile-'));
  outside = join(work, 'outside');
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'lesson.md'), '---\nname: Outside\n---\nsecret\n');
  await writeFile(join(outside, 'section.yaml'), 'id: sec_types\n');
  await writeFile(join(outside, '01-x.md'), '---\nname: X\n---\nx\n');
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** What went wrong with one repo, or null when it behaved. */
function judge(repo: HostileRepo, diagnostics: ReadonlyArray<{ file: string; line?: number; severity: string; code: string; message: string }>, valid: boolean): string | null {
  if (valid) return 'was accepted as valid';
  const errors = diagnostics.filter((d) => d.severity === 'error' && d.file === repo.file);
  const seen = () => diagnostics.map((d) => `${d.file}:${d.line ?? '-'} ${d.code}`).join('; ');
  if (errors.length === 0) return `no error names ${repo.file} (got: ${seen()})`;
  if (repo.line === 'some' && !errors.some((d) => d.line !== undefined)) return `no line given for ${repo.file} (got: ${seen()})`;
  if (typeof repo.line === 'number' && !errors.some((d) => d.line === repo.line)) return `no error at ${repo.file}:${repo.line} (got: ${seen()})`;
  return null;
}

function withBound<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${BOUND_MS} ms`)), BOUND_MS);
  });
  return Promise.race([p, bound]).finally(() => clearTimeout(timer));
}

describe('hostile input', () => {
  it(`${REPOS} generated malformed repos: each is invalid with an error naming the file (and line), none crashes`, async () => {
    const rng = createRng(SEED);
    const problems: string[] = [];
    const kinds = new Map<string, number>();
    for (let i = 0; i < REPOS; i++) {
      const repo = hostileRepo(rng, i);
      kinds.set(repo.kind, (kinds.get(repo.kind) ?? 0) + 1);
      const dir = join(work, `repo-${i}`);
      await writeHostileRepo(repo, dir, outside);
      try {
        const result = await withBound(loadCourse(dir), repo.name);
        const problem = judge(repo, result.diagnostics, result.desired !== undefined);
        if (problem) problems.push(`${repo.name}: ${problem}`);
      } catch (e) {
        problems.push(`${repo.name}: threw ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`.slice(0, 600));
      }
      await rm(dir, { recursive: true, force: true });
    }
    console.log(`hostile input: ${REPOS} repos checked in-process; by kind: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    expect(problems).toEqual([]);
    expect(kinds.size).toBeGreaterThanOrEqual(Math.min(REPOS, KINDS.length));
  }, 600_000);

  describe('through the built CLI, with a token and a school set', () => {
    let emu: RunningEmulator;
    beforeAll(async () => {
      emu = await startTestEmulator();
    });
    afterAll(async () => {
      await emu?.close();
    });

    it(`a sample of ${CLI_SAMPLE} repos: exit 1, the file named on stderr, no stack trace, no request, no state written`, async () => {
      const rng = createRng(SEED ^ 0x5bd1e995);
      const env = { COURSESYNC_TOKEN: SECRET, COURSESYNC_BASE_URL: emu.url, GITHUB_ACTIONS: 'true' };
      const commands: string[][] = [
        ['plan', '--refresh'],
        ['apply', '--yes'],
        ['validate'],
        ['plan', '--json'],
      ];
      const problems: string[] = [];
      // Every kind appears; the 10 MB repos stay in the in-process run (hugeEvery beyond the sample).
      const repos = Array.from({ length: CLI_SAMPLE }, (_, i) => hostileRepo(rng, i, 1_000_000));
      const queue = repos.map((repo, i) => ({ repo, i }));
      const worker = async () => {
        for (let job = queue.shift(); job; job = queue.shift()) {
          const { repo, i } = job;
          const dir = join(work, `cli-${i}`);
          await writeHostileRepo(repo, dir, outside);
          const args = commands[i % commands.length]!;
          const r = await runCli([args[0]!, dir, ...args.slice(1)], env);
          const out = r.stdout + r.stderr;
          if (r.code !== 1) problems.push(`${repo.name} (${args.join(' ')}): exit ${r.code}`);
          if (!out.includes(repo.file)) problems.push(`${repo.name} (${args.join(' ')}): ${repo.file} not named in:\n${out.slice(0, 400)}`);
          if (/internal error|^\s+at .+:\d+:\d+\)?$/m.test(out)) problems.push(`${repo.name} (${args.join(' ')}): stack trace:\n${out.slice(0, 800)}`);
          if (out.includes(SECRET)) problems.push(`${repo.name}: the token was printed`);
          if (existsSync(join(dir, '.coursesync', 'state.json'))) problems.push(`${repo.name} (${args.join(' ')}): a state file was written`);
          await rm(dir, { recursive: true, force: true });
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      expect(problems).toEqual([]);
      expect(emu.stats().requests).toBe(0);
    }, 300_000);

    it('a YAML collection used as a key is an error, and no Node warning reaches stderr', async () => {
      const dir = join(work, 'collection-key');
      await writeHostileRepo({ ...hostileRepo(createRng(1), 0), files: { 'p/program.yaml': 'id: prog_intro\n', 'p/s/section.yaml': 'id: sec_start\n', 'p/s/01-k.md': '---\nname: K\n[a, b]: c\n---\nx\n' } }, dir, outside);
      const r = await runCli(['validate', dir]);
      expect(r.code).toBe(1);
      // stderr holds the diagnostic (with its hint) and nothing else.
      expect(r.stderr).toMatch(/^p\/s\/01-k\.md:\d+:\d+ error .*\[lesson\/unknown-key\]$/m);
      expect(r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('p/s/01-k.md:') && !l.startsWith('  hint: '))).toEqual([]);
      expect(r.stdout).toMatch(/: 1 error\n$/);
    });
  });
});
