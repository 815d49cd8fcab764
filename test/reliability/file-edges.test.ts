/**
 * Odd files in a course repo, through the built CLI: a FIFO where the state (or a cache) file
 * should be, a file name that is not UTF-8, an unreadable section.yaml, and ESC/BEL in a file
 * name reaching GitHub annotations. Each is a clear error (or harmless), never a hang, an
 * ENOENT or raw terminal bytes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubAnnotation } from '../../src/diagnostics/github.js';
import { CLI, EXAMPLES, lesson } from '../e2e/helpers.js';
import { shareCli, type SharedCli } from './cli-for-user.js';

const isRoot = process.getuid?.() === 0;
let root: string;
let shared: SharedCli | undefined;
beforeAll(async () => {
  if (isRoot) shared = await shareCli();
  root = await mkdtemp(join(tmpdir(), 'coursesync-edges-'));
  await chmod(root, 0o755);
});
afterAll(async () => {
  await shared?.remove();
  await rm(root, { recursive: true, force: true });
});

/** Run the CLI, killed after 60 s (a hang fails the test instead of stalling it; generous for a loaded machine). */
function run(args: string[], options: { env?: Record<string, string>; uid?: number } = {}): Promise<{ code: number | null; stdout: string; stderr: string; hung: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.uid === undefined ? CLI : shared!.cli, ...args], {
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
    });
    let stdout = '';
    let stderr = '';
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, 60_000);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, hung });
    });
  });
}

async function examples(name: string): Promise<string> {
  const dir = join(root, name);
  await cp(EXAMPLES, dir, { recursive: true, filter: (src) => !src.endsWith('.coursesync') });
  execFileSync('chmod', ['-R', 'a+rX', dir]);
  return dir;
}

describe('odd files', () => {
  it('a FIFO as state.json: plan refuses at once, naming it; a FIFO as a cache file is ignored', async () => {
    const dir = join(root, 'fifo');
    await mkdir(join(dir, 'p/s'), { recursive: true });
    await writeFile(join(dir, 'p/program.yaml'), 'id: prog_intro\n');
    await writeFile(join(dir, 'p/s/section.yaml'), 'id: sec_start\n');
    await writeFile(join(dir, 'p/s/01-one.md'), lesson('name: One\nlesson_type: text', '# One\n\nText with a [link](https://example.com).'));
    await mkdir(join(dir, '.coursesync/cache'), { recursive: true });
    execFileSync('mkfifo', [join(dir, '.coursesync/cache/render.json')]);
    execFileSync('mkfifo', [join(dir, '.coursesync/cache/lessons.json')]);
    const cached = await run(['plan', dir, '--detailed-exitcode']);
    expect(cached.hung).toBe(false);
    expect(cached.code, cached.stderr).toBe(2); // one create planned: the caches were just not used
    expect(cached.stdout).toContain('One');
    execFileSync('mkfifo', [join(dir, '.coursesync/state.json')]);
    const r = await run(['plan', dir]);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot read the state file ${join(dir, '.coursesync/state.json')}: it is a FIFO (named pipe), not a regular file`);
    expect(r.stderr).not.toMatch(/internal error/);
  });

  it('a lesson file name that is not UTF-8: an error naming it, not ENOENT', async () => {
    const dir = await examples('not-utf8');
    const section = join(dir, 'intro-to-typescript/01-getting-started');
    await writeFile(Buffer.concat([Buffer.from(section + '/09-caf'), Buffer.from([0xe9]), Buffer.from('.md')]), lesson('name: Café\nlesson_type: text'));
    const r = await run(['validate', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('intro-to-typescript/01-getting-started/09-caf\uFFFD.md error the name is not valid UTF-8 (bytes 30 39 2d 63 61 66 e9 2e 6d 64) [file/name-not-utf8]');
    expect(r.stdout + r.stderr).not.toContain('ENOENT');
  });

  it('an unreadable section.yaml is reported once, not also as a folder without section.yaml', async () => {
    const dir = await examples('unreadable-section');
    const file = join(dir, 'intro-to-typescript/01-getting-started/section.yaml');
    await chmod(file, 0o000);
    // Root reads any file, so as root the CLI runs as `nobody`; anyone else runs as themselves.
    const r = await run(['validate', dir], isRoot ? { uid: 65534 } : {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('intro-to-typescript/01-getting-started/section.yaml error cannot read the file: EACCES [file/unreadable]');
    expect(r.stderr).not.toContain('section/missing-yaml');
  });

  it('ESC and BEL in a file name never reach a GitHub annotation raw', async () => {
    const name = 'p/s/01-\u001b[31mred\u0007.md';
    const line = githubAnnotation({ file: name, severity: 'error', code: 'file/control-char-name', message: `bad \u001b]0;title\u0007 name`, hint: 'rename \u0007 it' });
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(line).toBe('::error file=p/s/01-\\u001b[31mred\\u0007.md,title=file/control-char-name::bad \\u001b]0;title\\u0007 name (rename \\u0007 it)');
    expect(githubAnnotation({ file: 'a.md', severity: 'warning', code: 'x/y', message: 'two\nlines 100%' })).toBe('::warning file=a.md,title=x/y::two%0Alines 100%25');

    const dir = await examples('escape');
    await writeFile(join(dir, 'intro-to-typescript/01-getting-started/09-\u001b[31mred\u0007.md'), lesson('name: Red\nlesson_type: text'));
    const r = await run(['validate', dir], { env: { GITHUB_ACTIONS: 'true' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('::error file=intro-to-typescript/01-getting-started/09-\\u001b[31mred\\u0007.md');
    expect(r.stdout + r.stderr).not.toMatch(/[\u0007\u001b]/);
  });
});
