/**
 * The house stays layered (docs/architecture.md#layers): the folder import graph of src/ has no
 * cycle, no folder imports a layer above its own, and the pure folders (leaf and core) import no
 * node:fs/http/child_process. Every folder is in a layer and in the docs' folder table with that
 * layer. The checker itself is shown to fail on temporary trees with one bad import each.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderCycles, importGraph, layeringProblems, type Layer } from './import-graph.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SRC = join(ROOT, 'src');

/** The reader reads files and digests only; the load path (load/) runs the compiler on what it read. */
function readerProblems(root: string): string[] {
  return importGraph(root)
    .edges.filter((e) => e.from === 'source' && e.to === 'compile')
    .map((e) => `${e.file} imports ${e.specifier}: the reader (source/) never calls the compiler; compose them in load/`);
}

/** Every folder of src/ and its layer; docs/architecture.md's folder table says the same. */
const LAYERS: Record<string, Layer> = {
  vendor: 'leaf',
  diagnostics: 'leaf',
  'school-api': 'leaf',
  model: 'leaf',
  learner: 'core',
  compile: 'core',
  plan: 'core',
  school: 'io',
  state: 'io',
  source: 'io',
  load: 'io',
  assets: 'io',
  webhooks: 'io',
  sync: 'io',
  apply: 'io',
  clone: 'io',
  preview: 'io',
  emulator: 'io',
  cli: 'top',
  demo: 'top',
  '(root)': 'top',
};

describe('the layers of src/', () => {
  it('hold: no folder cycle, no import of a layer above, no I/O module in a pure folder', () => {
    expect(layeringProblems(SRC, LAYERS)).toEqual([]);
  });

  it('the graph is read: the planner imports the leaf and the core, the CLI imports every layer', () => {
    const { edges } = importGraph(SRC);
    const targets = (from: string) => new Set(edges.filter((e) => e.from === from).map((e) => e.to));
    expect([...targets('plan')].sort()).toEqual(['compile', 'diagnostics', 'learner', 'model', 'school-api']);
    expect(targets('cli')).toContain('sync');
    expect(targets('load')).toContain('compile');
    expect(targets('load')).toContain('source');
  });

  it('keep the reader apart from the compiler: source/ imports nothing from compile/ (load/ composes them)', () => {
    expect(readerProblems(SRC)).toEqual([]);
  });

  it('docs/architecture.md lists every folder, with its layer', () => {
    const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const table = doc.slice(doc.indexOf('\n## Folders'));
    const documented = new Map<string, string>();
    for (const m of table.matchAll(/^\| `([a-z-]+)\/` \| (\w+) \|/gm)) documented.set(m[1]!, m[2]!);
    const folders = Object.entries(LAYERS).filter(([folder]) => folder !== '(root)');
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(folders));
  });
});

describe('the layering check fails on a bad import (temporary trees)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  /** A source tree of the given files (path → text) in a fresh temporary folder. */
  function tree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'coursesync-layers-'));
    dirs.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it('a leaf folder importing the CLI', () => {
    const root = tree({ 'model/a.ts': "import { ExitCode } from '../cli/exit-codes.js';\n", 'cli/exit-codes.ts': 'export const ExitCode = {};\n' });
    expect(layeringProblems(root, LAYERS)).toEqual([
      'model/a.ts imports ../cli/exit-codes.js: leaf folder model/ imports top folder cli/, a layer above it',
    ]);
  });

  it('the pure core importing node:fs, also as a type or a dynamic import', () => {
    const root = tree({
      'compile/a.ts': "import { readFile } from 'node:fs/promises';\n",
      'plan/b.ts': "import type { Stats } from 'fs';\nexport const c = () => import('node:child_process');\n",
    });
    expect(layeringProblems(root, LAYERS)).toEqual([
      'compile/a.ts imports node:fs/promises: core folder compile/ is pure and does no I/O',
      'plan/b.ts imports fs: core folder plan/ is pure and does no I/O',
      'plan/b.ts imports node:child_process: core folder plan/ is pure and does no I/O',
    ]);
  });

  it('a cycle between two folders of one layer', () => {
    const root = tree({
      'state/a.ts': "export * from '../source/b.js';\n",
      'source/b.ts': "import type { A } from '../state/a.js';\n",
    });
    expect(layeringProblems(root, LAYERS)).toEqual(['folder cycle: source → state → source']);
    expect(folderCycles([{ from: 'a', to: 'b', file: '', specifier: '' }, { from: 'b', to: 'c', file: '', specifier: '' }, { from: 'c', to: 'a', file: '', specifier: '' }])).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('a folder in no layer', () => {
    expect(layeringProblems(tree({ 'extras/a.ts': 'export {};\n' }), LAYERS)).toEqual([
      'src/extras/ is in no layer: add it to LAYERS and to the folder table of docs/architecture.md',
    ]);
  });

  it('the reader importing the compiler, even as a type', () => {
    const root = tree({ 'source/a.ts': "import type { RenderResult } from '../compile/render.js';\n", 'compile/render.ts': 'export type RenderResult = {};\n' });
    expect(layeringProblems(root, LAYERS)).toEqual([]);
    expect(readerProblems(root)).toEqual(['source/a.ts imports ../compile/render.js: the reader (source/) never calls the compiler; compose them in load/']);
  });

  it('a copy of src/ with one bad import in the planner', () => {
    const root = mkdtempSync(join(tmpdir(), 'coursesync-layers-'));
    dirs.push(root);
    cpSync(SRC, root, { recursive: true });
    expect(layeringProblems(root, LAYERS)).toEqual([]);
    appendFileSync(join(root, 'plan/diff-course.ts'), "import '../state/state-file.js';\n");
    expect(layeringProblems(root, LAYERS)).toEqual([
      'plan/diff-course.ts imports ../state/state-file.js: core folder plan/ imports io folder state/, a layer above it',
    ]);
  });
});
