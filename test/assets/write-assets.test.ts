/**
 * `writeAssets` copies by real path and never through a link: a link retargeted into .git after
 * the repo was read is refused even when its bytes are the digest the lesson named, a link left
 * under an asset's name in the output folder is not taken for the file, and a large file is
 * copied whole (streamed).
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeAssets } from '../../src/assets/write-assets.js';
import { assetFileName } from '../../src/model/assets.js';
import type { LessonAsset } from '../../src/model/desired.js';

let work: string;
let repo: string;
let out: string;
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const asset = (p: string, bytes: Buffer | string): LessonAsset => ({ path: p, digest: sha(bytes), name: assetFileName(p, sha(bytes)), image: true });

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'cs-write-assets-'));
  repo = path.join(work, 'repo');
  out = path.join(work, 'site');
  await mkdir(path.join(repo, '.git'), { recursive: true });
  await mkdir(path.join(repo, 'img'), { recursive: true });
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('writeAssets', () => {
  it('refuses a link into .git, even with the digest the lesson named, and writes nothing', async () => {
    const config = '[remote "origin"]\n\turl = https://x-access-token:ghs_secret@github.com/a/b.git\n';
    await writeFile(path.join(repo, '.git/config'), config);
    await symlink('../.git/config', path.join(repo, 'img/logo.png'));
    await expect(writeAssets(repo, out, [asset('img/logo.png', config)])).rejects.toMatchObject({ code: 'assets/refused', message: expect.stringContaining('img/logo.png is a link to .git/config') });
    await expect(readFile(path.join(out, assetFileName('img/logo.png', sha(config))))).rejects.toThrow();
  });

  it('does not take a link under the asset name in the output folder for the file', async () => {
    const png = Buffer.from('a real image, as far as this test is concerned');
    await writeFile(path.join(repo, 'img/logo.png'), png);
    const a = asset('img/logo.png', png);
    await mkdir(out, { recursive: true });
    await writeFile(path.join(work, 'elsewhere'), 'not the image');
    await symlink(path.join(work, 'elsewhere'), path.join(out, a.name));
    const result = await writeAssets(repo, out, [a]);
    expect(result.written).toEqual([a]);
    expect((await lstat(path.join(out, a.name))).isFile()).toBe(true);
    expect(await readFile(path.join(out, a.name))).toEqual(png);
    expect(await readFile(path.join(work, 'elsewhere'), 'utf8')).toBe('not the image');
  });

  it('copies a 40 MB file whole, bytes checked', async () => {
    const big = Buffer.alloc(40 * 1024 * 1024, 7);
    big.write('start', 0);
    await writeFile(path.join(repo, 'img/lecture.mp4'), big);
    const a = asset('img/lecture.mp4', big);
    expect((await writeAssets(repo, out, [a])).written).toEqual([a]);
    expect(sha(await readFile(path.join(out, a.name)))).toBe(a.digest);
  });
});
