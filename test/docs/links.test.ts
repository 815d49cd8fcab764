/**
 * Every link to the project's docs resolves: `docs/<file>.md#<anchor>` cited anywhere in src/,
 * test/, README.md, examples/ and docs/ (also the `docs/x.md (#a, #b)` form of code comments, and
 * relative links between docs) names a file that exists and a heading of it, by GitHub's
 * heading ids (github-slugger, the algorithm GitHub uses). And every source file a doc names
 * (`school-api/positions.ts`, `routes/lessons.ts`) exists, so the rule tables cannot point nowhere.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs');

function walk(path: string): string[] {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => !e.name.startsWith('.') && e.name !== 'node_modules' && e.name !== 'fixtures')
    .flatMap((e) => walk(join(path, e.name)));
}

/** The heading ids of a Markdown file, as GitHub makes them (code fences skipped). */
function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const out = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) out.add(slugger.slug(m[1]!.replace(/`/g, '')));
  }
  return out;
}

interface Link {
  from: string;
  doc: string;
  anchor: string | null;
}

/** Links in one file: `docs/x.md#a`, `docs/x.md (#a, #b)`, and in docs/ relative `(x.md#a)`. */
function linksIn(file: string): Link[] {
  const text = readFileSync(file, 'utf8');
  const from = relative(ROOT, file);
  const out: Link[] = [];
  for (const m of text.matchAll(/docs\/([\w-]+\.md)(?:#([\w-]+)|\s+\(((?:#[\w-]+(?:,\s*)?)+)\))?/g)) {
    const doc = join(DOCS, m[1]!);
    if (m[2]) out.push({ from, doc, anchor: m[2] });
    else if (m[3]) for (const a of m[3].matchAll(/#([\w-]+)/g)) out.push({ from, doc, anchor: a[1]! });
    else out.push({ from, doc, anchor: null });
  }
  if (file.startsWith(DOCS) && file.endsWith('.md')) {
    for (const m of text.matchAll(/\]\((?!https?:|\/)([\w./-]*\.md)?(?:#([\w-]+))?\)/g)) {
      if (!m[1] && !m[2]) continue;
      out.push({ from, doc: m[1] ? resolve(dirname(file), m[1]) : file, anchor: m[2] ?? null });
    }
  }
  return out;
}

const files = ['src', 'test', 'examples', 'docs', 'README.md'].flatMap((p) => walk(join(ROOT, p))).filter((f) => /\.(ts|mjs|md|ya?ml)$/.test(f));
const links = files.filter((f) => f !== import.meta.filename).flatMap(linksIn);

describe('links to docs/', () => {
  it('the code cites the docs (the scan finds links)', () => {
    expect(links.filter((l) => l.from.startsWith('src/')).length).toBeGreaterThan(50);
  });

  it('every linked doc exists and every anchor is one of its headings', () => {
    const anchors = new Map<string, Set<string>>();
    const broken: string[] = [];
    for (const l of links) {
      if (!existsSync(l.doc)) {
        broken.push(`${l.from}: ${relative(ROOT, l.doc)} does not exist`);
        continue;
      }
      if (l.anchor === null) continue;
      if (!anchors.has(l.doc)) anchors.set(l.doc, anchorsOf(l.doc));
      if (!anchors.get(l.doc)!.has(l.anchor)) broken.push(`${l.from}: ${relative(ROOT, l.doc)}#${l.anchor} is not a heading`);
    }
    expect(broken).toEqual([]);
  });
});

describe('source files named in docs/', () => {
  it('every `*.ts` a doc names exists (paths are under src/, or the emulator\'s and the school client\'s folders, or the reliability, end-to-end and browser tests)', () => {
    const roots = ['', 'src/', 'src/emulator/', 'src/school/', 'test/reliability/', 'test/e2e/', 'test/browser/'];
    const missing: string[] = [];
    for (const doc of walk(DOCS).filter((f) => f.endsWith('.md'))) {
      for (const m of readFileSync(doc, 'utf8').matchAll(/`([A-Za-z0-9_./-]+\.ts)`/g)) {
        if (!roots.some((r) => existsSync(join(ROOT, r, m[1]!)))) missing.push(`${relative(ROOT, doc)}: ${m[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
