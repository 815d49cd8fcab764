/**
 * `coursesync assets` (I/O): copy every referenced repo file into a folder under its
 * content-addressed name, ready for any static host. A name holds the file's digest, so a file
 * already there is the same file: it is not written again (an unchanged repo writes nothing).
 * Each file is streamed to a temporary name (hashed on the way, never whole in memory) and
 * renamed, so a host never serves half a file. No link is followed blindly: a source is read
 * at its real path, which must be inside the repo and outside hidden folders and node_modules,
 * and the folder's own entries are never written through a link.
 */
import { createHash } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { failure } from '../diagnostics/error-codes/index.js';
import { MAX_ASSET_BYTES, privatePart } from '../model/assets.js';
import type { LessonAsset } from '../model/desired.js';

export interface WriteAssetsResult {
  written: LessonAsset[];
  unchanged: LessonAsset[];
}

/** True when `file` is a regular file itself (a link planted under the asset's name is not "already there"). */
async function exists(file: string): Promise<boolean> {
  try {
    return (await lstat(file)).isFile();
  } catch {
    return false;
  }
}

/** The real path of the repo file `rel`, refused when a link takes it out of what a lesson may publish. */
async function publishable(root: string, rel: string): Promise<string> {
  const real = await realpath(path.join(root, rel));
  const inRepo = path.relative(root, real).split(path.sep).join('/');
  if (inRepo.startsWith('../') || path.isAbsolute(inRepo) || privatePart(inRepo) !== undefined) throw failure('assets/refused', { path: rel, real: inRepo });
  return real;
}

/** Stream `source` into a new file `temp`, returning the sha256 of the bytes copied. */
async function copyHashed(source: string, rel: string, temp: string): Promise<string> {
  // O_NOFOLLOW: `source` is a real path; a link swapped in since is refused, not followed.
  const input = await open(source, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const info = await input.stat();
    if (!info.isFile() || info.size > MAX_ASSET_BYTES) throw failure('assets/changed', { path: rel });
    const hash = createHash('sha256');
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    // `wx`: created here or not at all, never written through a link left under that name.
    await pipeline(input.createReadStream({ autoClose: false }), tap, createWriteStream(temp, { flags: 'wx' }));
    return hash.digest('hex');
  } finally {
    await input.close();
  }
}

/** Copy `assets` of the repo at `repoDir` into `outDir`. */
export async function writeAssets(repoDir: string, outDir: string, assets: readonly LessonAsset[]): Promise<WriteAssetsResult> {
  await mkdir(outDir, { recursive: true });
  const root = await realpath(repoDir);
  const result: WriteAssetsResult = { written: [], unchanged: [] };
  for (const asset of assets) {
    const target = path.join(outDir, asset.name);
    if (await exists(target)) {
      result.unchanged.push(asset);
      continue;
    }
    const source = await publishable(root, asset.path);
    const temp = `${target}.partial-${process.pid}`;
    await unlink(temp).catch(() => undefined);
    let digest: string;
    try {
      digest = await copyHashed(source, asset.path, temp);
    } catch (e) {
      await unlink(temp).catch(() => undefined);
      throw e;
    }
    // The file may have changed since the repo was read: publish only the bytes the lesson names.
    if (digest !== asset.digest) {
      await unlink(temp).catch(() => undefined);
      throw failure('assets/changed', { path: asset.path });
    }
    await rename(temp, target);
    result.written.push(asset);
  }
  return result;
}
