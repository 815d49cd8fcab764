import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCachedRender, renderDigest } from '../../src/compile/render-cache.js';
import { renderMarkdown } from '../../src/compile/render.js';
import { BUILT_ID_FILE, COMPILER_FOLDERS, COMPILER_PACKAGES, codeDigest, compilerDigest, compilerId, computeCodeDigest, computeCodeProof, computeCompilerDigest, installedVersions, provenCodeDigest } from '../../src/load/compiler-id.js';
import { loadCourse } from '../../src/load/load-course.js';
import { readLessonCache } from '../../src/load/lesson-cache-file.js';
import { readRenderCache, renderCachePath } from '../../src/load/render-cache-file.js';
import { runCli } from '../e2e/helpers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = path.join(ROOT, 'src');
const BODY = '# Tables\n\nA GFM table and a ~~strike~~:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n';

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'coursesync-compiler-id-'));
});
afterEach(() => rm(tmp, { recursive: true, force: true }));

/** Every .ts file under `dir`. */
async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await sources(p)));
    else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/**
 * An install of coursesync in `tmp` that Node resolves like the real one: node_modules holds a
 * link to every installed package, but a copy of remark-gfm, whose installed version a test
 * can change as an upgrade within `^4.0.1` would.
 */
async function linkedInstall(): Promise<{ from: string; setGfmVersion: (v: string) => Promise<void> }> {
  const modules = path.join(tmp, 'node_modules');
  await mkdir(modules);
  for (const name of await readdir(path.join(ROOT, 'node_modules'))) {
    if (name === 'remark-gfm' || name.startsWith('.')) continue;
    await symlink(path.join(ROOT, 'node_modules', name), path.join(modules, name));
  }
  await cp(path.join(ROOT, 'node_modules', 'remark-gfm'), path.join(modules, 'remark-gfm'), { recursive: true });
  const manifest = path.join(modules, 'remark-gfm', 'package.json');
  return {
    from: tmp,
    setGfmVersion: async (version) => {
      const json = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
      await writeFile(manifest, JSON.stringify({ ...json, version }));
    },
  };
}

describe('the compiler id: our code and the installed renderer packages, one rule', () => {
  it('lists every package the compiling code imports', async () => {
    const imported = new Set<string>();
    for (const folder of COMPILER_FOLDERS) {
      for (const file of await sources(path.join(SRC, folder))) {
        const text = await readFile(file, 'utf8');
        // Type-only imports (`hast`, `mdast` types) run no code.
        for (const m of text.matchAll(/^(?:import|export)(?! type\b)[^;]*?from '([^'.][^']*)'/gm)) {
          const spec = m[1]!;
          if (spec.startsWith('node:')) continue;
          imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
        }
      }
    }
    expect([...imported].sort()).toEqual([...COMPILER_PACKAGES].sort());
  });

  it('records the exact installed versions of those packages and of what they depend on', async () => {
    const versions = installedVersions(COMPILER_PACKAGES, ROOT);
    const gfm = JSON.parse(await readFile(path.join(ROOT, 'node_modules/remark-gfm/package.json'), 'utf8')) as { version: string };
    expect(versions).toContain(`remark-gfm@${gfm.version}`);
    // Transitive: remark-parse's own parser, never named by us.
    expect(versions.some((v) => v.startsWith('micromark@'))).toBe(true);
    expect(versions.some((v) => v.endsWith('@missing'))).toBe(false);
  });

  it('resolves a dependency nested under its dependent before a hoisted one, as Node does', async () => {
    const pkg = (dir: string, name: string, version: string, dependencies: Record<string, string> = {}) =>
      mkdir(path.join(dir, 'node_modules', name), { recursive: true }).then(() => writeFile(path.join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version, dependencies })));
    await pkg(tmp, 'a', '1.0.0', { shared: '^2' });
    await pkg(tmp, 'shared', '1.0.0');
    await pkg(path.join(tmp, 'node_modules', 'a'), 'shared', '2.1.0');
    expect(installedVersions(['a', 'gone'], tmp)).toEqual(['a@1.0.0', 'gone@missing', 'shared@2.1.0']);
  });

  it('is the same twice for an unchanged install, and the same as this process computes', async () => {
    const install = await linkedInstall();
    const inputs = { root: SRC, ext: '.ts', packagesFrom: install.from };
    const first = computeCompilerDigest(inputs);
    expect(computeCompilerDigest(inputs)).toBe(first);
    expect(first).toBe(await compilerDigest());
    expect(await compilerId()).toBe(first.slice(0, 12));
  });

  it('changes when a renderer package is upgraded, and then the render and lesson caches miss: the text is rendered again', async () => {
    const install = await linkedInstall();
    const inputs = { root: SRC, ext: '.ts', packagesFrom: install.from };
    const before = computeCompilerDigest(inputs);

    // A repo loaded with the caches, as a plan does: both caches written under this install's id.
    const repo = path.join(tmp, 'repo');
    await mkdir(path.join(repo, 'p/s'), { recursive: true });
    await writeFile(path.join(repo, 'p/program.yaml'), 'id: prog_1\n');
    await writeFile(path.join(repo, 'p/s/section.yaml'), 'id: sec_1\n');
    await writeFile(path.join(repo, 'p/s/01-tables.md'), `---\nname: Tables\nkeep_title: true\n---\n${BODY}`);
    await loadCourse(repo, { cache: true, renderThreads: 1 });
    expect((await readLessonCache(repo, before)).size).toBe(1);
    // Mark the stored rendering, so using it would show.
    const stored = JSON.parse(await readFile(renderCachePath(repo), 'utf8')) as { compiler: string; entries: Record<string, { html: string }> };
    expect(stored.compiler).toBe(before);
    stored.entries[renderDigest(BODY)]!.html = '<p>rendered by remark-gfm 4.0.1</p>';
    await writeFile(renderCachePath(repo), JSON.stringify(stored));
    const unchanged = createCachedRender(await readRenderCache(repo, before));
    expect(unchanged.render(BODY).html).toBe('<p>rendered by remark-gfm 4.0.1</p>');
    expect(unchanged.misses).toBe(0);

    await install.setGfmVersion('4.0.2');
    const after = computeCompilerDigest(inputs);
    expect(after).not.toBe(before);
    expect((await readLessonCache(repo, after)).size).toBe(0);
    const upgraded = createCachedRender(await readRenderCache(repo, after));
    expect(upgraded.render(BODY).html).toBe(renderMarkdown(BODY).html);
    expect(upgraded.misses).toBe(1);
    expect(upgraded.hits).toBe(0);
  });

  it('is, for the bundled command, the id its build wrote beside it: the id of the code it bundled', async () => {
    const dist = path.join(ROOT, 'dist');
    const written = JSON.parse(await readFile(path.join(dist, 'bin', BUILT_ID_FILE), 'utf8')) as { compiler: string };
    // What the build wrote is what the built modules and this install give.
    expect(written.compiler).toBe(computeCompilerDigest({ root: dist, ext: '.js', packagesFrom: ROOT }));
    // A copy of the bundle with another id beside it: the caches its plan keeps are that id's.
    const pkg = path.join(tmp, 'pkg');
    await cp(path.join(dist, 'bin'), path.join(pkg, 'dist', 'bin'), { recursive: true });
    await cp(path.join(ROOT, 'package.json'), path.join(pkg, 'package.json'));
    const other = 'f'.repeat(64);
    await writeFile(path.join(pkg, 'dist', 'bin', BUILT_ID_FILE), JSON.stringify({ compiler: other }));
    const repo = path.join(tmp, 'repo');
    await mkdir(path.join(repo, 'p/s'), { recursive: true });
    await writeFile(path.join(repo, 'p/program.yaml'), 'id: prog_1\n');
    await writeFile(path.join(repo, 'p/s/section.yaml'), 'id: sec_1\n');
    await writeFile(path.join(repo, 'p/s/01-tables.md'), BODY);
    const planned = await runCli(['plan', repo], {}, undefined, path.join(pkg, 'dist', 'bin', 'coursesync.js'));
    expect(planned.code, planned.stderr).toBe(0);
    expect((await readLessonCache(repo, other)).size).toBe(1);
    expect((await readLessonCache(repo, written.compiler)).size).toBe(0);
  });

  it('changes when the compiling code changes', async () => {
    const code = path.join(tmp, 'code');
    for (const folder of COMPILER_FOLDERS) await cp(path.join(SRC, folder), path.join(code, folder), { recursive: true });
    const inputs = { root: code, ext: '.ts', packagesFrom: ROOT };
    const before = computeCompilerDigest(inputs);
    expect(before).toBe(await compilerDigest());
    // A nested module counts as much as a top-level one.
    const nested = path.join(code, 'model', 'state', 'schema.ts');
    await writeFile(nested, (await readFile(nested, 'utf8')) + '\n// changed\n');
    expect(computeCompilerDigest(inputs)).not.toBe(before);
  });

  it('the code digest (what a kept plan is tagged with) changes with any module, the compiler\'s unchanged', async () => {
    const code = path.join(tmp, 'code');
    await cp(SRC, code, { recursive: true });
    const inputs = { root: code, ext: '.ts', packagesFrom: ROOT };
    const before = { code: computeCodeDigest(inputs), compiler: computeCompilerDigest(inputs) };
    expect(before.code).toBe(codeDigest());
    expect(before.code).not.toBe(before.compiler);
    // A planning module outside the compiler folders: a plan kept by the old code is not the new code's.
    const planning = path.join(code, 'plan', 'diff-course.ts');
    await writeFile(planning, (await readFile(planning, 'utf8')) + '\n// changed\n');
    expect(computeCodeDigest(inputs)).not.toBe(before.code);
    expect(computeCompilerDigest(inputs)).toBe(before.compiler);
    // A top-level module too.
    await writeFile(path.join(code, 'index.ts'), (await readFile(path.join(code, 'index.ts'), 'utf8')) + '\n// changed\n');
    const top = computeCodeDigest(inputs);
    await writeFile(path.join(code, 'index.ts'), (await readFile(path.join(code, 'index.ts'), 'utf8')) + '\n// again\n');
    expect(computeCodeDigest(inputs)).not.toBe(top);
  });

  it('its proof vouches for the digest until a module, a folder of modules or an installed package changes, or one appears where none was', async () => {
    const code = path.join(tmp, 'code');
    await cp(SRC, code, { recursive: true });
    const install = await linkedInstall();
    await writeFile(path.join(install.from, 'package.json'), JSON.stringify({ name: 'coursesync', dependencies: { 'remark-gfm': '^4.0.1', unified: '^11.0.5' } }));
    const inputs = { root: code, ext: '.ts', packagesFrom: install.from };
    // Files changed within the proof's clock margin never vouch ("racily clean"): let them age past it.
    const age = () => sleep(300);
    await age();
    const proof = computeCodeProof(inputs);
    expect(proof.digest).toBe(computeCodeDigest(inputs));
    expect(provenCodeDigest(proof)).toBe(proof.digest);
    expect(provenCodeDigest(JSON.parse(JSON.stringify(proof)))).toBe(proof.digest); // as kept in the memo
    for (const bad of [null, 'x', {}, { ...proof, stats: [] }, { ...proof, since: 'soon' }, { ...proof, stats: [42] }]) expect(provenCodeDigest(bad)).toBeUndefined();

    // A module edited (even to the same size), a module added to a folder, an installed package upgraded.
    const planning = path.join(code, 'plan', 'diff-course.ts');
    const text = await readFile(planning, 'utf8');
    await writeFile(planning, text.replace('a', 'b'));
    expect(provenCodeDigest(proof)).toBeUndefined();
    await writeFile(planning, text);
    await age();
    const again = computeCodeProof(inputs);
    expect(provenCodeDigest(again)).toBe(proof.digest);
    await writeFile(path.join(code, 'plan', 'new-step.ts'), 'export const x = 1;\n');
    expect(provenCodeDigest(again)).toBeUndefined();
    await rm(path.join(code, 'plan', 'new-step.ts'));
    await age();
    const third = computeCodeProof(inputs);
    expect(provenCodeDigest(third)).toBe(proof.digest);
    await install.setGfmVersion('4.0.2');
    expect(provenCodeDigest(third)).toBeUndefined();
    // A package installed where the lookup found none (a nested copy under a dependency).
    const fourth = computeCodeProof(inputs);
    const missing = fourth.stats.map((l) => l.split('\0')).find(([p, size]) => size === '-' && p!.endsWith('node_modules'))?.[0];
    expect(missing).toBeDefined();
    await mkdir(missing!, { recursive: true });
    expect(provenCodeDigest(fourth)).toBeUndefined();
    // Just computed: nothing vouches yet for files changed in this clock tick.
    const fresh = path.join(tmp, 'fresh');
    await cp(SRC, fresh, { recursive: true });
    expect(provenCodeDigest(computeCodeProof({ ...inputs, root: fresh }))).toBeUndefined();
  });
});
