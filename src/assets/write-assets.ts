/**
 * `coursesync assets` (I/O): copy every referenced repo file into a folder under its
 * content-addressed name, ready for any static host. A name holds the file's digest, so a file
 * already there is the same file: it is not written again (an unchanged repo writes nothing).
 * Each file is written to a temporary name and renamed, so a host never serves half a file.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { failure } from '../diagnostics/error-codes/index.js';
import type { LessonAsset } from '../model/desired.js';

export interface WriteAssetsResult {
  written: LessonAsset[];
  unchanged: LessonAsset[];
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Copy `assets` of the repo at `repoDir` into `outDir`. */
export async function writeAssets(repoDir: string, outDir: string, assets: readonly LessonAsset[]): Promise<WriteAssetsResult> {
  await mkdir(outDir, { recursive: true });
  const result: WriteAssetsResult = { written: [], unchanged: [] };
  for (const asset of assets) {
    const target = path.join(outDir, asset.name);
    if (await exists(target)) {
      result.unchanged.push(asset);
      continue;
    }
    const source = path.join(repoDir, asset.path);
    // The file may have changed since the repo was read: publish only the bytes the lesson names.
    const digest = createHash('sha256').update(await readFile(source)).digest('hex');
    if (digest !== asset.digest) {
      throw failure('assets/changed', { path: asset.path });
    }
    const temp = `${target}.partial-${process.pid}`;
    await copyFile(source, temp);
    await rename(temp, target);
    result.written.push(asset);
  }
  return result;
}
