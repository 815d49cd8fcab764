/**
 * The entry's head start for `plan` (cli/plan-early.ts, load/early-read.ts): what a plan's words
 * say is read with certainty or not at all, and the memo's own rule decides the read; with the
 * built command, a plan of a fresh checkout takes the read the entry started (from the repo, a
 * subfolder, `--dir`), plans what it plans without it, and a plan whose stat index spares the
 * reads starts none.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readPlanWords } from '../../src/cli/plan-early.js';
import { memoizable } from '../../src/sync/plan-question.js';
import type { CommandSpec } from '../../src/cli/completion-scripts.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'dist/bin/coursesync.js');
const FIXTURE = join(root, 'test/fixtures/repos/includes');
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The plan command's long options as the build wrote them (what the entry reads). */
function planOptions(): Map<string, boolean> {
  const tree = JSON.parse(readFileSync(join(root, 'dist/bin/completion-data.json'), 'utf8')) as CommandSpec;
  return new Map(tree.commands.find((c) => c.name === 'plan')!.options.map((o) => [o.long, o.takesValue]));
}

describe('what a plan\'s words say, read before commander', () => {
  const options = planOptions();
  const aside = (words: string[]) => {
    const read = readPlanWords(words, options);
    return read !== null && memoizable({ ...read, env: {} });
  };
  it.each([
    [[], undefined],
    [['course'], 'course'],
    [['--dir', 'course'], 'course'],
    [['--dir=course'], 'course'],
    [['--format', 'json', 'course', '--detailed-exitcode'], 'course'],
    [['--env=staging', '--out', 'plan.json'], undefined],
    [['course', '--dir', 'course'], 'course'],
  ])('%j names %j, a plan that reads aside', (words, folder) => {
    expect(readPlanWords(words, options)).toEqual({ folder, refresh: false, tokenFile: undefined });
    expect(aside(words)).toBe(true);
  });
  it.each([
    [['--refresh', 'course'], { folder: 'course', refresh: true, tokenFile: undefined }],
    [['--token-file', 't'], { folder: undefined, refresh: false, tokenFile: 't' }],
    [['--token-file=t', '--dir', 'c'], { folder: 'c', refresh: false, tokenFile: 't' }],
  ])('%j: read, and a plan the memo never answers reads nothing aside', (words, read) => {
    expect(readPlanWords(words, options)).toEqual(read);
    expect(aside(words)).toBe(false);
  });
  it.each([[['--help']], [['-h']], [['--no-such-option']], [['--json=yes']], [['--dir']], [['a', 'b']], [['a', '--dir', 'b']]])('%j: not read (the plan starts its own read, or none)', (words) => {
    expect(readPlanWords(words, options)).toBeNull();
  });
});

describe('a plan of a fresh checkout takes the read the entry started', () => {
  /** The includes course, a fresh copy (no stat index). */
  function fresh(): string {
    const dir = mkdtempSync(join(tmpdir(), 'cs-plan-early-'));
    made.push(dir);
    cpSync(FIXTURE, dir, { recursive: true });
    return dir;
  }
  const plan = (args: string[], cwd: string) => {
    const { GITHUB_ACTIONS: _ignored, ...base } = process.env;
    const r = spawnSync(process.execPath, [cli, 'plan', ...args], { cwd, env: { ...base, NO_COLOR: '1', COURSESYNC_DEBUG: 'timing' }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return { stdout: r.stdout, read: r.stderr.match(/^debug: \d+ ms (read: (?:worker started.*|repo read on this thread))$/m)?.[1] };
  };

  it('from the repo, a subfolder and --dir; then, with the stat index, none', () => {
    const named = fresh();
    const first = plan([named], root);
    expect(first.read).toBe('read: worker started early, taken');
    const fromSubfolder = fresh();
    expect(plan([], join(fromSubfolder, 'book', '01-getting-started'))).toEqual(first);
    const byDir = fresh();
    expect(plan(['--dir', byDir], tmpdir())).toEqual(first);
    expect(plan([named], root)).toEqual({ stdout: first.stdout, read: 'read: repo read on this thread' });
  });

  it('a plan that stops on a usage error does not wait for the read it did not take', () => {
    const dir = fresh();
    const r = spawnSync(process.execPath, [cli, 'plan', dir, '--format', 'bogus'], { cwd: root, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8' });
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('unknown format "bogus"');
  });
});
