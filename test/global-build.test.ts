import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { staleBecause } from './global-build.js';

const root = mkdtempSync(join(tmpdir(), 'coursesync-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, at: number): void {
  const file = join(root, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '');
  utimesSync(file, at, at);
}

describe('the global setup rebuilds a stale dist/', () => {
  it('knows a fresh build, a source edited after it, a new source, a build step not run and no build', () => {
    expect(staleBecause(root)).toBe('there is no build');
    for (const f of ['tsconfig.json', 'package.json', 'src/a.ts', 'src/cli/b.ts', 'src/vendor/html-stack.ts']) write(f, 1000);
    write('dist/a.js', 2000);
    write('dist/cli/b.js', 2000);
    expect(staleBecause(root)).toBe('dist/cli/completion-data.json was never written');
    write('dist/cli/completion-data.json', 2000);
    expect(staleBecause(root)).toBe('dist/cli/root-help.json was never written');
    write('dist/cli/root-help.json', 2000);
    expect(staleBecause(root)).toBe('dist/vendor/html-stack.js was never written');
    write('dist/vendor/html-stack.js', 2000);
    expect(staleBecause(root)).toBe('dist/bin/coursesync.js was never written');
    write('dist/bin/coursesync.js', 2000);
    expect(staleBecause(root)).toBeNull();
    // tsc alone after an edit: the command's bundle is then the oldest output, older than the edit.
    write('src/cli/b.ts', 2500);
    write('dist/a.js', 3000);
    write('dist/cli/b.js', 3000);
    expect(staleBecause(root)).toBe('src/cli/b.ts changed after the last build');
    write('src/cli/b.ts', 1000);
    write('src/cli/b.ts', 3000);
    expect(staleBecause(root)).toBe('src/cli/b.ts changed after the last build');
    write('src/cli/b.ts', 1000);
    write('src/c.ts', 1000);
    expect(staleBecause(root)).toBe('src/c.ts was never built');
  });

  it('knows an output left from a deleted source, which the build step after tsc removes', () => {
    const at = mkdtempSync(join(tmpdir(), 'coursesync-prune-'));
    try {
      const put = (path: string, time = 2000) => {
        mkdirSync(join(at, path, '..'), { recursive: true });
        writeFileSync(join(at, path), '');
        utimesSync(join(at, path), time, time);
      };
      for (const f of ['tsconfig.json', 'package.json', 'src/a.ts', 'src/old/b.ts', 'src/keep/c.ts', 'src/vendor/html-stack.ts']) put(f, 1000);
      for (const f of ['dist/a.js', 'dist/a.d.ts', 'dist/old/b.js', 'dist/old/b.d.ts', 'dist/keep/c.js', 'dist/keep/gone.js', 'dist/bin/chunk-X.js', 'dist/cli/root-help.json']) put(f);
      for (const step of ['dist/cli/completion-data.json', 'dist/vendor/html-stack.js', 'dist/bin/coursesync.js']) put(step);
      // As the repo has it: the script finds the project from its own place.
      put('scripts/prune-dist.mjs');
      copyFileSync(join(import.meta.dirname, '../scripts/prune-dist.mjs'), join(at, 'scripts/prune-dist.mjs'));
      expect(staleBecause(at)).toBe('dist/keep/gone.js is left from a deleted source');
      rmSync(join(at, 'src/old'), { recursive: true });
      expect(execFileSync(process.execPath, [join(at, 'scripts/prune-dist.mjs')], { encoding: 'utf8' })).toMatch(/^prune-dist: removed 3 file\(s\) left from deleted sources/);
      expect(['dist/keep/gone.js', 'dist/old/b.js', 'dist/old/b.d.ts', 'dist/old'].filter((f) => existsSync(join(at, f)))).toEqual([]);
      expect(['dist/a.js', 'dist/a.d.ts', 'dist/keep/c.js', 'dist/bin/chunk-X.js', 'dist/cli/root-help.json', 'dist/vendor/html-stack.js'].every((f) => existsSync(join(at, f)))).toBe(true);
      expect(staleBecause(at)).toBeNull();
    } finally {
      rmSync(at, { recursive: true, force: true });
    }
  });
});

