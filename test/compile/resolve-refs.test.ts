import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCourse } from '../../src/compile/index.js';
import type { DesiredLesson } from '../../src/model/desired.js';
import { lessonLinkMarker } from '../../src/model/lesson-links.js';
import { readSource } from '../../src/source/read-source.js';

const ODIN = path.resolve(__dirname, '../fixtures/repos/odin');
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function copyOdin(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'coursesync-refs-'));
  dirs.push(dir);
  await cp(ODIN, dir, { recursive: true });
  return dir;
}

async function compile(dir: string) {
  return compileCourse(await readSource(dir));
}

function lessons(result: Awaited<ReturnType<typeof compile>>): Map<string, DesiredLesson> {
  const map = new Map<string, DesiredLesson>();
  for (const p of result.desired?.programs ?? []) for (const s of p.sections) for (const l of s.lessons) map.set(l.key, l);
  return map;
}

async function edit(dir: string, file: string, from: string, to: string): Promise<void> {
  const full = path.join(dir, file);
  const text = await readFile(full, 'utf8');
  expect(text).toContain(from);
  await writeFile(full, text.replace(from, to));
}

describe('references of the Odin-like fixture', () => {
  it('compiles clean: images and files under assets.base_url, lesson links marked, headings with GitHub ids', async () => {
    const result = await compile(ODIN);
    expect(result.diagnostics).toEqual([]);
    const byKey = lessons(result);
    expect([...byKey.keys()]).toEqual(['welcome', 'setup', 'recipes']);
    const welcome = byKey.get('welcome')!;
    expect(welcome.fields.body).toMatch(/<img src="http:\/\/assets\.test\/course\/clone_repo\.[0-9a-f]{16}\.png" alt="Cloning a repository">/);
    expect(welcome.fields.body).toMatch(/srcset="http:\/\/assets\.test\/course\/logo\.[0-9a-f]{16}\.png 1x, http:\/\/assets\.test\/course\/logo-2x\.[0-9a-f]{16}\.png 2x"/);
    expect(welcome.fields.body).toMatch(/<a href="http:\/\/assets\.test\/course\/git-cheatsheet\.[0-9a-f]{16}\.pdf">Git cheat sheet<\/a>/);
    expect(welcome.fields.body).toContain(`<a href="${lessonLinkMarker('setup')}#step-1">the second step</a>`);
    expect(welcome.fields.body).toContain(`<a href="${lessonLinkMarker('recipes')}">Recipes project</a>`);
    expect(welcome.fields.body).toContain('<a href="#next-steps">the next steps</a>');
    expect(welcome.fields.body).toContain('<h2 id="next-steps">Next steps</h2>');
    expect(welcome.fields.body).toContain('<a href="https://git-scm.com/book">Git book</a>');
    expect(welcome.fields.body).toContain('<a href="mailto:team@example.com">the team</a>');
    expect(welcome.fields.description).toContain(`<a href="${lessonLinkMarker('setup')}#installing-git">`);
    expect(welcome.links).toEqual(['setup', 'recipes']);
    expect(welcome.assets?.map((a) => a.path)).toEqual([
      'foundations/01-intro/images/clone_repo.png',
      'foundations/01-intro/images/logo.png',
      'foundations/01-intro/images/logo@2x.png',
      'shared/git-cheatsheet.pdf',
    ]);
    const setup = byKey.get('setup')!;
    expect(setup.fields.body).toContain('<h2 id="step">Step</h2>');
    expect(setup.fields.body).toContain('<h2 id="step-1">Step</h2>');
    expect(setup.fields.body).toContain('<a href="#custom-anchor">Back to the check</a>');
  });

  it('applies ignore globs and lesson defaults of repo, program and section', async () => {
    const result = await compile(ODIN);
    const byKey = lessons(result);
    // drafts/ would otherwise be a lesson folder nested in a section (an error); README.md is not read.
    expect(result.counts.lessons).toBe(3);
    expect(byKey.get('welcome')?.fields).toMatchObject({ lesson_type: 'text', is_progression_locked: false });
    expect(byKey.get('recipes')?.fields).toMatchObject({ lesson_type: 'text', is_progression_locked: true });
  });

  it('reports every broken reference at once, at path:line:col, with a hint', async () => {
    const dir = await copyOdin();
    await edit(dir, 'foundations/01-intro/01-welcome.md', '](images/clone_repo.png)', '](images/clone-repo.png)');
    await edit(dir, 'foundations/01-intro/01-welcome.md', '(02-setup.md#step-1)', '(02-setup.md#step-3)');
    await edit(dir, 'foundations/01-intro/01-welcome.md', '(#next-steps)', '(#next-step)');
    await edit(dir, 'foundations/02-project/01-recipes.md', '(img/diagram.png)', '(../../../outside.png)');
    await edit(dir, 'foundations/02-project/01-recipes.md', 'the welcome', '<img src="img/missing.png" alt="x"> the welcome');
    const result = await compile(dir);
    expect(result.desired).toBeUndefined();
    const found = result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message} | ${d.hint}`);
    expect(found).toEqual([
      'foundations/01-intro/01-welcome.md:9:1 lesson/missing-file "images/clone-repo.png": no file foundations/01-intro/images/clone-repo.png in the repo | did you mean images/clone_repo.png?',
      'foundations/01-intro/01-welcome.md:16:21 lesson/missing-anchor #step-3: no heading or anchor with this id in foundations/01-intro/02-setup.md | did you mean #step-1?',
      'foundations/01-intro/01-welcome.md:25:9 lesson/missing-anchor #next-step: no heading or anchor with this id in this lesson | did you mean #next-steps?',
      'foundations/02-project/01-recipes.md:6:27 lesson/missing-file "img/missing.png": no file foundations/02-project/img/missing.png in the repo | did you mean img/diagram.png?',
      'foundations/02-project/01-recipes.md:8:1 lesson/ref-outside-repo "../../../outside.png" points outside the repo | copy the file into the repo: lessons can reference only what the repo holds',
    ]);
  });

  it("a missing folder page names the folder; a missing file of a common name, the one nearest it", async () => {
    const dir = await copyOdin();
    // A module's folder of code with no README (DataTalksClub links `taxi_rides_ny/README.md`), and READMEs elsewhere.
    await writeFile(path.join(dir, 'foundations/02-project/code.js'), 'export {};\n');
    await cp(path.join(dir, 'foundations/02-project/img'), path.join(dir, 'foundations/02-project/starter'), { recursive: true });
    await writeFile(path.join(dir, 'foundations/01-intro/images/notes.txt'), 'Notes.\n');
    await writeFile(path.join(dir, 'shared/notes.txt'), 'Shared notes.\n');
    await edit(dir, 'foundations/02-project/01-recipes.md', 'the welcome', '[the starter](starter/README.md) and [notes](notes.txt) the welcome');
    const result = await compile(dir);
    const found = result.diagnostics.filter((d) => d.code === 'lesson/missing-file').map((d) => `${d.message} | ${d.hint}`);
    expect(found).toEqual([
      '"starter/README.md": no file foundations/02-project/starter/README.md in the repo | foundations/02-project/starter/ has no README.md: link the folder itself (starter/), which goes to its page in the repo',
      '"notes.txt": no file foundations/02-project/notes.txt in the repo | did you mean ../01-intro/images/notes.txt?',
    ]);
  });

  it('a link to a folder goes to its README; one that is not a lesson is an error saying why, never a published .md', async () => {
    const dir = await copyOdin();
    const config = path.join(dir, 'coursesync.yaml');
    await writeFile(config, (await readFile(config, 'utf8')).replace('  - README.md\n', ''));
    await edit(dir, 'foundations/02-project/01-recipes.md', '(../01-intro/01-welcome.md#next-steps)', '(../../)');
    const result = await compile(dir);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      'foundations/02-project/01-recipes.md:6:26 lesson/link-not-lesson "../../": README.md is outside every program folder (no program.yaml above it), so it is not a lesson',
    ]);
  });

  it('says when a referenced file is left out by ignore:, and that a link may go to its page in the repo (an image may not)', async () => {
    const dir = await copyOdin();
    await edit(dir, 'foundations/02-project/01-recipes.md', '![How the pages link](img/diagram.png)', '![How the pages link](/README.md) [the course](/README.md)');
    const result = await compile(dir);
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.message} | ${d.hint}`)).toEqual([
      'foundations/02-project/01-recipes.md:8:1 "/README.md": README.md is left out by `ignore:` in coursesync.yaml | remove the pattern that matches it from `ignore:`, or do not reference the file',
      'foundations/02-project/01-recipes.md:8:35 "/README.md": README.md is left out by `ignore:` in coursesync.yaml | remove the pattern that matches it from `ignore:`, or do not reference the file, or set `repo_url:` in coursesync.yaml to link its page in the repo',
    ]);
  });

  it('resolves the references of an HTML body too, and leaves one without any as written', async () => {
    const dir = await copyOdin();
    await writeFile(
      path.join(dir, 'foundations/02-project/02-cheatsheet.md'),
      '---\nname: Cheat sheet\ncontent_format: html\n---\n<h2 id="print">Print it</h2>\n<p><a href="/shared/git-cheatsheet.pdf">PDF</a> <a href="#print">top</a> <a href="01-recipes.md#recipes">recipes</a></p>\n',
    );
    await writeFile(path.join(dir, 'foundations/02-project/03-plain.md'), '---\nname: Plain\ncontent_format: html\n---\n<P>Kept  <B>as written</B></P>\n');
    const byKey = lessons(await compile(dir));
    expect(byKey.get('cheatsheet')?.fields.body).toMatch(
      new RegExp(`^<h2 id="print">Print it</h2>\n<p><a href="http://assets\\.test/course/git-cheatsheet\\.[0-9a-f]{16}\\.pdf">PDF</a> <a href="#print">top</a> <a href="${lessonLinkMarker('recipes')}#recipes">recipes</a></p>\n$`),
    );
    expect(byKey.get('plain')?.fields.body).toBe('<P>Kept  <B>as written</B></P>\n');
    const dir2 = await copyOdin();
    await writeFile(path.join(dir2, 'foundations/02-project/02-broken.md'), '---\nname: Broken\ncontent_format: html\n---\n<p>\n<img src="img/nope.png"></p>\n');
    const broken = await compile(dir2);
    expect(broken.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`)).toEqual(['foundations/02-project/02-broken.md:6:1 lesson/missing-file']);
  });

  it('names the setting a local image or a lesson link needs', async () => {
    const dir = await copyOdin();
    await writeFile(path.join(dir, 'coursesync.yaml'), 'ignore: [README.md, drafts/]\n');
    const result = await compile(dir);
    const codes = new Set(result.diagnostics.map((d) => d.code));
    expect(codes).toEqual(new Set(['lesson/needs-assets-url', 'lesson/needs-lesson-url']));
    const image = result.diagnostics.find((d) => d.code === 'lesson/needs-assets-url');
    expect(image).toMatchObject({ file: 'foundations/01-intro/01-welcome.md', line: 9, column: 1 });
    expect(image?.message).toContain('assets.base_url');
    expect(result.diagnostics.find((d) => d.code === 'lesson/needs-lesson-url')?.message).toContain('school.lesson_url');
  });

  it('an edited image changes exactly the lessons that show it', async () => {
    const dir = await copyOdin();
    const before = lessons(await compile(dir));
    const png = path.join(dir, 'foundations/02-project/img/diagram.png');
    const bytes = await readFile(png);
    // Same picture, one more byte after IEND: another file, so another URL.
    await writeFile(png, Buffer.concat([bytes, Buffer.from([0])]));
    const after = lessons(await compile(dir));
    const changed = [...after.keys()].filter((k) => after.get(k)?.fields.body !== before.get(k)?.fields.body);
    expect(changed).toEqual(['recipes']);
    expect(after.get('recipes')?.digest).not.toBe(before.get('recipes')?.digest);
    expect(after.get('welcome')?.digest).toBe(before.get('welcome')?.digest);
  });
});

describe('a file in a hidden folder or node_modules, which the walk never enters', () => {
  it('a link or an include of one says why it is out of reach (not "no file"), at its place', async () => {
    const dir = await copyOdin();
    // As in a course about tooling: the CI workflow and a cargo config exist in the repo.
    await writeFile(path.join(dir, '.env'), 'TOKEN=secret\n');
    await cp(path.join(dir, 'foundations/01-intro/images'), path.join(dir, 'foundations/01-intro/.cargo'), { recursive: true });
    await writeFile(path.join(dir, 'foundations/01-intro/.cargo/config.toml'), '[build]\ntarget = "thumbv7em-none-eabihf"\n');
    await edit(dir, 'foundations/02-project/01-recipes.md', '# Recipes', '# Recipes\n\nThe [workflow](../../.github/workflows/ci.yml) and [its packages](../../node_modules/left-pad/index.js).\n\n{{#include ../01-intro/.cargo/config.toml}}\n\n{{#include ../../.env}}\n');
    const result = await compile(dir);
    const out = result.diagnostics.filter((d) => d.file === 'foundations/02-project/01-recipes.md').map((d) => `${d.line}:${d.column} ${d.code} ${d.message} | ${d.hint}`);
    expect(out).toEqual([
      '6:5 lesson/missing-file "../../.github/workflows/ci.yml": .github/workflows/ci.yml is in a hidden folder (.github/): coursesync never reads nor publishes such files, which may be secrets (.env, .git) | link a copy kept outside it, or its page on the web (https://…)',
      '6:52 lesson/missing-file "../../node_modules/left-pad/index.js": node_modules/left-pad/index.js is in node_modules: coursesync never reads nor publishes such files, which may be secrets (.env, .git) | link a copy kept outside it, or its page on the web (https://…)',
      '8:1 include/missing-file {{#include ../01-intro/.cargo/config.toml}}: foundations/01-intro/.cargo/config.toml is in a hidden folder (.cargo/): coursesync never reads nor publishes such files, which may be secrets (.env, .git) | include a copy of what learners should see, kept outside it',
      '10:1 include/missing-file {{#include ../../.env}}: .env is hidden (its name starts with a dot): coursesync never reads nor publishes such files, which may be secrets (.env, .git) | include a copy of what learners should see, kept outside it',
    ]);
    expect(JSON.stringify(result)).not.toContain('TOKEN=secret');
  });
});

describe('footnotes whose label is not ASCII (Rust by Example writes [^†])', () => {
  it("their links reach their ids, which hold percent-escapes: no error of ours about our own HTML; a link to one from another lesson too", async () => {
    const dir = await copyOdin();
    await edit(dir, 'foundations/02-project/01-recipes.md', '# Recipes', '# Recipes\n\n`?` is *almost*[^†] exactly `unwrap`.\n\n[^†]: See the next lesson for more.\n');
    await edit(dir, 'foundations/01-intro/01-welcome.md', '# Welcome', '# Welcome\n\nWhy *almost*: [the note](../02-project/01-recipes.md#user-content-fn-%E2%80%A0).\n');
    const result = await compile(dir);
    expect(result.diagnostics).toEqual([]);
    const recipes = lessons(result).get('recipes')!;
    expect(recipes.fields.body).toContain('id="user-content-fn-%E2%80%A0"');
    expect(recipes.fields.body).toContain('href="#user-content-fn-%E2%80%A0"');
    // A fragment no id matches, written or decoded, is still an error.
    await edit(dir, 'foundations/01-intro/01-welcome.md', '#user-content-fn-%E2%80%A0', '#user-content-fn-%E2%80%A1');
    expect((await compile(dir)).diagnostics.map((d) => `${d.file} ${d.code} ${d.message}`)).toEqual([
      'foundations/01-intro/01-welcome.md lesson/missing-anchor #user-content-fn-‡: no heading or anchor with this id in foundations/02-project/01-recipes.md',
    ]);
  });
});
