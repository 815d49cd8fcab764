import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
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
    for (const f of ['tsconfig.json', 'package.json', 'src/a.ts', 'src/cli/b.ts']) write(f, 1000);
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
});
