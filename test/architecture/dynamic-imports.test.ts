/**
 * The command is a bundle (scripts/bundle-cli.mjs), and a bundler gives `import()` of a
 * CommonJS package only its default export: `const { parse } = await import('yaml')` works
 * from tsc's modules (Node finds the named exports) and gets undefined from the bundle. So a
 * package loaded with `import()` must be an ES module package; a CommonJS one is imported
 * statically by a module of ours, which is then the one loaded on demand.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** Every `import('…')` of a package in src/, as `file: package`. */
function dynamicPackageImports(): Array<{ file: string; name: string }> {
  const found: Array<{ file: string; name: string }> = [];
  for (const file of readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(join(ROOT, 'src', file), 'utf8');
    for (const m of text.matchAll(/\bimport\(\s*['"]([^'"./][^'"]*)['"]\s*\)/g)) {
      const spec = m[1]!;
      if (spec.startsWith('node:')) continue;
      found.push({ file, name: spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]! });
    }
  }
  return found;
}

/** Whether Node and a bundler load `name` as an ES module when it is imported. */
function isModulePackage(name: string): boolean {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { type?: string; exports?: unknown };
  if (pkg.type === 'module') return true;
  const root = typeof pkg.exports === 'object' && pkg.exports !== null ? ((pkg.exports as Record<string, unknown>)['.'] ?? pkg.exports) : undefined;
  const entry = typeof root === 'object' && root !== null ? (root as Record<string, unknown>).import : undefined;
  const path = typeof entry === 'string' ? entry : typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>).default : undefined;
  return typeof path === 'string' && path.endsWith('.mjs');
}

describe('packages loaded on demand', () => {
  it('are ES module packages, so the bundle gets their named exports', () => {
    const imports = dynamicPackageImports();
    // The check sees the imports there are (the emulator's renderer's).
    expect(imports.map((i) => i.name)).toContain('unified');
    expect(imports.filter((i) => !isModulePackage(i.name)).map((i) => `${i.file}: import('${i.name}')`)).toEqual([]);
  });

  it('tells a CommonJS package', () => {
    expect(isModulePackage('yaml')).toBe(false);
    expect(isModulePackage('commander')).toBe(true);
    expect(isModulePackage('unified')).toBe(true);
  });
});
