/**
 * The built command's code cache (src/cli/code-cache.ts): the first run of a command keeps
 * what V8 compiled, the next takes it back; a cache that is damaged, another user's, in a folder
 * that cannot be written, or turned off is compiled anew, and the run's output is the same
 * every time. The cache is only ever a speed-up, so these tests check what a run does, never
 * how long it takes.
 */
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheFolder } from '../../src/cli/code-cache.js';
import { copyExamples, removeRepos, runCli, type CliResult } from '../e2e/helpers.js';

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
  await removeRepos();
});

async function emptyFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coursesync-code-cache-'));
  folders.push(dir);
  return dir;
}

/** `coursesync validate <examples>` with the cache in `cache`: its result and what the cache step said. */
async function validate(repo: string, cache: string): Promise<CliResult & { said: string | undefined }> {
  const r = await runCli(['validate', repo], { COURSESYNC_CODE_CACHE: cache, COURSESYNC_DEBUG: 'timing' });
  return { ...r, said: /^debug: \d+ ms code cache: (\w+)$/m.exec(r.stderr)?.[1] };
}

/** The output that must not depend on the cache (the timing lines left out). */
const output = (r: CliResult) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr.replace(/^debug: .*\n/gm, '') });

/** `bytes` with the byte at `at` inverted. */
function flipped(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = copy[at]! ^ 0xff;
  return copy;
}

const cacheFiles = async (dir: string) => (await readdir(dir)).filter((f) => f.endsWith('.bin'));

describe('the code cache', () => {
  it('is written by a command’s first run and used by the next, with the same output', async () => {
    const repo = await copyExamples();
    const cache = await emptyFolder();
    const first = await validate(repo, cache);
    expect(first.said).toBe('none');
    expect(first.code, first.stderr).toBe(0);
    const files = await cacheFiles(cache);
    // Named for the build, Node's version, the platform and the command.
    expect(files).toEqual([expect.stringMatching(new RegExp(`^[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.platform}-${process.arch}-validate\\.bin$`))]);
    expect((await stat(join(cache, files[0]!))).mode & 0o077).toBe(0); // this user's alone

    const second = await validate(repo, cache);
    expect(second.said).toBe('used');
    expect(output(second)).toEqual(output(first));
    // Another command keeps its own.
    const plan = await runCli(['plan', '--help'], { COURSESYNC_CODE_CACHE: cache });
    expect(plan.code, plan.stderr).toBe(0);
    expect((await cacheFiles(cache)).map((f) => f.replace(/^.*-/, '')).sort()).toEqual(['plan.bin', 'validate.bin']);
  });

  it('that is damaged is compiled anew and written again; the run is the same', async () => {
    const repo = await copyExamples();
    const cache = await emptyFolder();
    const clean = await validate(repo, cache);
    const [file] = await cacheFiles(cache);
    const good = await readFile(join(cache, file!));
    const damaged = [
      Buffer.alloc(good.length, 0x5a), // the right size, every byte wrong
      good.subarray(0, 64), // cut short
      Buffer.concat([good.subarray(0, 64), Buffer.alloc(good.length - 64, 0)]), // the digest and V8's header kept, the code gone
      flipped(good, good.length >> 1), // one byte of the code wrong: V8 alone would run it (and crash)
    ];
    for (const bytes of damaged) {
      await writeFile(join(cache, file!), bytes);
      const r = await validate(repo, cache);
      expect(r.said).toMatch(/^(damaged|rejected)$/);
      expect(output(r)).toEqual(output(clean));
      expect((await readFile(join(cache, file!))).equals(bytes), 'written again').toBe(false);
      expect((await validate(repo, cache)).said).toBe('used');
    }
  });

  it('is not needed: turned off, or in a folder that cannot be made, the run is the same and nothing is written', async () => {
    const repo = await copyExamples();
    const base = await emptyFolder();
    const clean = await validate(repo, join(base, 'clean'));
    for (const value of ['off', '0']) {
      const r = await validate(repo, value);
      expect(r.said).toBe('off');
      expect(output(r)).toEqual(output(clean));
    }
    // A file where the folder would be.
    const blocked = join(base, 'a-file');
    await writeFile(blocked, 'not a folder');
    const r = await validate(repo, join(blocked, 'code'));
    expect(r.said).toBe('none');
    expect(output(r)).toEqual(output(clean));
    expect(await readFile(blocked, 'utf8')).toBe('not a folder');
  });

  it('that is a FIFO holds no run: the run is the same, and a file replaces the FIFO', async () => {
    const repo = await copyExamples();
    const cache = await emptyFolder();
    const clean = await validate(repo, cache);
    const [file] = await cacheFiles(cache);
    await rm(join(cache, file!));
    execFileSync('mkfifo', [join(cache, file!)]);
    // A run that opened the FIFO to read would wait for a writer for ever (the test's timeout).
    const r = await validate(repo, cache);
    expect(r.said).toBe('none');
    expect(output(r)).toEqual(output(clean));
    expect((await stat(join(cache, file!))).isFile()).toBe(true);
    expect((await validate(repo, cache)).said).toBe('used');
  });

  it('in a folder another can write is taken only from this user’s own files', async () => {
    const repo = await copyExamples();
    const cache = await emptyFolder();
    await validate(repo, cache);
    const [file] = await cacheFiles(cache);
    await chmod(cache, 0o777);
    expect((await validate(repo, cache)).said).toBe('used');
    // A folder: not a file of ours.
    await rm(join(cache, file!));
    await mkdir(join(cache, file!));
    const r = await validate(repo, cache);
    expect(r.said).toBe('none');
    expect(r.code, r.stderr).toBe(0);
    // Another user's file, and another user's folder (only root can make them: CI runs as root).
    if (process.getuid?.() === 0) {
      await rm(join(cache, file!), { recursive: true });
      await validate(repo, cache);
      await chown(join(cache, file!), 65534, 65534);
      expect((await validate(repo, cache)).said).toBe('none');
      const theirs = join(await emptyFolder(), 'theirs');
      await mkdir(theirs);
      await chown(theirs, 65534, 65534);
      const r2 = await validate(repo, theirs);
      expect(r2.said).toBe('none');
      expect(output(r2)).toEqual(output(r));
      expect(await readdir(theirs)).toEqual([]);
    }
  });

  it('keeps the newest of its files only, and never touches another file in the folder', async () => {
    const repo = await copyExamples();
    const cache = await emptyFolder();
    const old = new Date(Date.now() - 86_400_000);
    for (let i = 0; i < 30; i++) {
      const f = join(cache, `${String(i).padStart(16, '0')}-v0-old-x-validate.bin`);
      await writeFile(f, 'old');
      await utimes(f, old, old);
    }
    // Files of the user's own in the folder (COURSESYNC_CODE_CACHE can name any), older still: never touched.
    const theirs = ['notes.txt', 'photo.bin', 'ABCDEF0123456789-v20.0.0-linux-x64-plan.bin'];
    for (const name of theirs) {
      await writeFile(join(cache, name), 'mine');
      await utimes(join(cache, name), new Date(0), new Date(0));
    }
    const r = await validate(repo, cache);
    expect(r.code, r.stderr).toBe(0);
    const files = (await cacheFiles(cache)).filter((f) => !theirs.includes(f));
    expect(files.length).toBe(24);
    expect(files.filter((f) => !f.includes('-v0-old-'))).toHaveLength(1);
    expect((await readdir(cache)).filter((f) => theirs.includes(f)).sort()).toEqual([...theirs].sort());
  });

  it('lives in COURSESYNC_CODE_CACHE, else under XDG_CACHE_HOME, else ~/.cache', () => {
    expect(cacheFolder({ COURSESYNC_CODE_CACHE: '/x/y' })).toBe('/x/y');
    expect(cacheFolder({ COURSESYNC_CODE_CACHE: 'OFF' })).toBeUndefined();
    expect(cacheFolder({ COURSESYNC_CODE_CACHE: 'false' })).toBeUndefined();
    expect(cacheFolder({ XDG_CACHE_HOME: '/c' })).toBe(join('/c', 'coursesync', 'code'));
    expect(cacheFolder({ COURSESYNC_CODE_CACHE: '', XDG_CACHE_HOME: '/c' })).toBe(join('/c', 'coursesync', 'code'));
    expect(cacheFolder({})).toMatch(/[/\\]\.cache[/\\]coursesync[/\\]code$/);
    // A relative XDG_CACHE_HOME is not taken: it would put the cache in the working folder.
    expect(cacheFolder({ XDG_CACHE_HOME: 'cache' })).toBe(cacheFolder({}));
  });
});
