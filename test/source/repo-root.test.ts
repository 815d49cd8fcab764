/** findRepoRoot: git-like discovery of the course repo, and nested repos refused. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findRepoRoot } from '../../src/source/repo-root.js';

const made: string[] = [];
afterAll(async () => {
  await Promise.all(made.map((d) => rm(d, { recursive: true, force: true })));
});

/** A temp tree of `paths` (ending in / for folders, else files). */
async function tree(paths: string[]): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'coursesync-root-'));
  made.push(root);
  for (const p of paths) {
    if (p.endsWith('/')) await mkdir(join(root, p), { recursive: true });
    else {
      await mkdir(join(root, p, '..'), { recursive: true });
      await writeFile(join(root, p), p.endsWith('.json') ? '{}' : 'x: 1\n');
    }
  }
  return root;
}

describe('findRepoRoot', () => {
  it('finds coursesync.yaml or a state upward from a subfolder', async () => {
    const root = await tree(['course/coursesync.yaml', 'course/prog/sec/', 'other/.coursesync/state.json', 'other/prog/']);
    expect(await findRepoRoot(undefined, join(root, 'course/prog/sec'))).toBe(join(root, 'course'));
    expect(await findRepoRoot(undefined, join(root, 'other/prog'))).toBe(join(root, 'other'));
  });

  it('stops at the git root: a marker above it is not this repo; with none found, the current folder', async () => {
    const root = await tree(['coursesync.yaml', 'work/.git/', 'work/prog/']);
    expect(await findRepoRoot(undefined, join(root, 'work/prog'))).toBe(join(root, 'work/prog'));
  });

  it('a render cache alone (.coursesync/cache) is not a mark', async () => {
    const root = await tree(['coursesync.yaml', 'prog/.coursesync/cache/', 'prog/sec/']);
    expect(await findRepoRoot(undefined, join(root, 'prog/sec'))).toBe(root);
  });

  it('an explicit folder is returned as given, unless it lies inside another repo', async () => {
    const root = await tree(['a/coursesync.yaml', 'a/prog/', 'b/']);
    expect(await findRepoRoot('a', root)).toBe('a');
    expect(await findRepoRoot(join(root, 'b'), root)).toBe(join(root, 'b'));
    await expect(findRepoRoot(join(root, 'a/prog'), root)).rejects.toMatchObject({ code: 'repo/nested' });
  });

  it('a repo holding its own marker inside another is refused, naming both', async () => {
    const root = await tree(['coursesync.yaml', 'inner/.coursesync/state.json', 'inner/sec/']);
    const err = await findRepoRoot(undefined, join(root, 'inner/sec')).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'repo/nested' });
    expect((err as Error).message).toContain(`${join(root, 'inner')} holds .coursesync/state.json but lies inside the course repo ${root}`);
  });
});
