/**
 * readGitBlobs against real git repositories: a blob of an older commit is found, one a shallow
 * clone never fetched is absent, and a folder outside any repository gives a reason, not an error.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitBlobId } from '../../src/source/blob-id.js';
import { readGitBlobs } from '../../src/source/git-blobs.js';

const run = promisify(execFile);
let root: string;
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 'A', GIT_AUTHOR_EMAIL: 'a@example.com', GIT_COMMITTER_NAME: 'A', GIT_COMMITTER_EMAIL: 'a@example.com', GIT_CONFIG_NOSYSTEM: '1' };
const git = async (cwd: string, ...args: string[]) => (await run('git', args, { cwd, env: { ...GIT_ENV, HOME: root } })).stdout.trim();

const V1 = '---\nname: Tables\nlesson_type: text\n---\n# Tables\n\n| key | meaning |\n|---|---|\n| `name` | shown |\n';
const V2 = V1 + '| `video` | a host |\n\n![Logo](img/logo.png)\n';

let repo: string;
let oldBlob: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'coursesync-git-blobs-'));
  repo = join(root, 'course');
  await mkdir(join(repo, 'p/s'), { recursive: true });
  await git(repo, 'init', '--quiet', '--initial-branch=main');
  await writeFile(join(repo, 'p/s/1-tables.md'), V1);
  await git(repo, 'add', '.');
  await git(repo, 'commit', '--quiet', '-m', 'one');
  oldBlob = await git(repo, 'rev-parse', 'HEAD:p/s/1-tables.md');
  await writeFile(join(repo, 'p/s/1-tables.md'), V2);
  await git(repo, 'commit', '--quiet', '-am', 'two');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('readGitBlobs', () => {
  it('gitBlobId is what git hash-object computes', async () => {
    expect(gitBlobId(await readFile(join(repo, 'p/s/1-tables.md')))).toBe(await git(repo, 'hash-object', 'p/s/1-tables.md'));
    expect(gitBlobId(new TextEncoder().encode(V1))).toBe(oldBlob);
  });

  it('reads a blob of an older commit, from a subfolder too; unknown and malformed ids are left out', async () => {
    const unknown = 'f'.repeat(40);
    const r = await readGitBlobs(join(repo, 'p'), [oldBlob, unknown, '--batch-all-objects', oldBlob]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([...r.blobs.keys()]).toEqual([oldBlob]);
    expect(r.blobs.get(oldBlob)!.toString('utf8')).toBe(V1);
  });

  it('a shallow clone lacks the older blob', async () => {
    const shallow = join(root, 'shallow');
    await git(root, 'clone', '--quiet', '--depth', '1', `file://${repo}`, shallow);
    const current = await git(shallow, 'rev-parse', 'HEAD:p/s/1-tables.md');
    const r = await readGitBlobs(shallow, [oldBlob, current]);
    expect(r.ok && [...r.blobs.keys()]).toEqual([current]);
  });

  it('outside a repository: a reason, no error', async () => {
    const plain = join(root, 'plain');
    await mkdir(plain);
    // GIT_CEILING_DIRECTORIES keeps git from finding a repository above the temp folder.
    process.env.GIT_CEILING_DIRECTORIES = root;
    try {
      expect(await readGitBlobs(plain, [oldBlob])).toEqual({ ok: false, reason: 'the course folder is not in a git repository' });
    } finally {
      delete process.env.GIT_CEILING_DIRECTORIES;
    }
  });

  it('no git on PATH: a reason, no error', async () => {
    const path = process.env.PATH;
    process.env.PATH = join(root, 'no-bin');
    try {
      expect(await readGitBlobs(repo, [oldBlob])).toEqual({ ok: false, reason: 'git is not installed here' });
    } finally {
      process.env.PATH = path;
    }
  });

  it('no ids: git is not run at all', async () => {
    expect(await readGitBlobs(join(root, 'does-not-exist'), [])).toEqual({ ok: true, blobs: new Map() });
  });
});
