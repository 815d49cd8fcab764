/**
 * The folder import graph of a source tree, read with TypeScript's own parser
 * (`ts.preProcessFile`: static, dynamic and type-only imports and re-exports alike), and the
 * house's layering rules checked against it (docs/architecture.md#layers).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Bottom to top: a folder may import its own layer and the layers below, never one above. */
export const LAYER_ORDER = ['leaf', 'core', 'io', 'top'] as const;
export type Layer = (typeof LAYER_ORDER)[number];

/** Leaf and core folders are pure: no I/O folder, no file system, network server or process. */
export const PURE_LAYERS: ReadonlySet<Layer> = new Set(['leaf', 'core']);

/** Node modules a pure folder may not import (with or without `node:`; subpaths included). */
export const IO_MODULES = ['fs', 'http', 'https', 'http2', 'child_process'];

/** The folder of a file: its top-level folder under the source root, `(root)` for a file at the root. */
export function folderOf(root: string, file: string): string {
  const parts = relative(root, file).split(sep);
  return parts.length > 1 ? parts[0]! : '(root)';
}

export interface ImportEdge {
  from: string;
  to: string;
  /** The importing file (relative to the root) and the specifier as written. */
  file: string;
  specifier: string;
}

/** Every import of every `.ts` file under `root`: edges between folders, and Node built-ins by folder. */
export function importGraph(root: string): { folders: Set<string>; edges: ImportEdge[]; builtins: ImportEdge[] } {
  const folders = new Set<string>();
  const edges: ImportEdge[] = [];
  const builtins: ImportEdge[] = [];
  for (const file of tsFiles(root)) {
    const from = folderOf(root, file);
    folders.add(from);
    const rel = relative(root, file);
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (specifier.startsWith('.')) {
        const to = folderOf(root, resolve(dirname(file), specifier));
        if (to !== from) edges.push({ from, to, file: rel, specifier });
      } else if (IO_MODULES.includes(specifier.replace(/^node:/, '').split('/')[0]!)) {
        builtins.push({ from, to: specifier, file: rel, specifier });
      }
    }
  }
  return { folders, edges, builtins };
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every cycle of the folder graph, one per strongly connected component, as a path `a → b → … → a`. */
export function folderCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) (next.get(e.from) ?? next.set(e.from, new Set()).get(e.from)!).add(e.to);
  // Tarjan's strongly connected components; each component of more than one folder holds a cycle.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component);
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((component) => cycleWithin(new Set(component), next));
}

/** One cycle through a strongly connected component, from its first folder by name. */
function cycleWithin(component: Set<string>, next: Map<string, Set<string>>): string[] {
  const start = [...component].sort()[0]!;
  const path = [start];
  const seen = new Set([start]);
  for (;;) {
    const here = path[path.length - 1]!;
    const targets = [...(next.get(here) ?? [])].filter((t) => component.has(t)).sort();
    if (targets.includes(start)) return [...path, start];
    const step = targets.find((t) => !seen.has(t)) ?? targets[0]!;
    if (seen.has(step)) return [...path.slice(path.indexOf(step)), step];
    path.push(step);
    seen.add(step);
  }
}

/** What breaks the layering of the tree at `root`, one line each; empty when it holds. */
export function layeringProblems(root: string, layers: Readonly<Record<string, Layer>>): string[] {
  const { folders, edges, builtins } = importGraph(root);
  const problems: string[] = [];
  for (const folder of [...folders].sort()) {
    if (!(folder in layers)) problems.push(`src/${folder}/ is in no layer: add it to LAYERS and to the folder table of docs/architecture.md`);
  }
  const rank = (folder: string): number => LAYER_ORDER.indexOf(layers[folder] ?? 'top');
  for (const e of edges) {
    if (rank(e.to) > rank(e.from)) {
      problems.push(`${e.file} imports ${e.specifier}: ${layers[e.from]} folder ${e.from}/ imports ${layers[e.to]} folder ${e.to}/, a layer above it`);
    }
  }
  for (const e of builtins) {
    const layer = layers[e.from];
    if (layer && PURE_LAYERS.has(layer)) problems.push(`${e.file} imports ${e.specifier}: ${layer} folder ${e.from}/ is pure and does no I/O`);
  }
  for (const cycle of folderCycles(edges)) problems.push(`folder cycle: ${cycle.join(' → ')}`);
  return problems;
}
