/**
 * Reading a fresh checkout on the other core (load/read-aside.ts) gives the very tree reading it
 * here gives: files, digests, texts (read again on demand, checked against the worker's
 * digests), diagnostics, links and refusals. Worker threads run built JavaScript, so each case
 * runs dist/ in a child process (npm test builds first).
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const DIST = join(import.meta.dirname, '../../dist');
const FIXTURE = join(import.meta.dirname, '../fixtures/repos/includes');
const INDEX = join('.coursesync', 'cache', 'stat-index.json');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** The includes book (lessons, partials, listings, an image) plus files each reading must report alike. */
async function hostileRepo(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coursesync-aside-'));
  dirs.push(dir);
  await cp(FIXTURE, dir, { recursive: true });
  const section = join(dir, 'book', '01-getting-started');
  await writeFile(join(section, '02-crlf.md'), '---\r\nname: Line endings\r\n---\r\n# Windows\r\n\r\nA lesson saved with CRLF.\r\n');
  await writeFile(join(section, '03-bom.md'), '\uFEFF# With a byte-order mark\n\nText.\n');
  await writeFile(join(section, '04-latin1.md'), Buffer.from([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]));
  await writeFile(join(section, '05-binary.md'), Buffer.from('# A\n\0\n'));
  await symlink('/etc/hostname', join(section, '06-outside.md'));
  await mkdir(join(dir, '.git'));
  await writeFile(join(dir, '.git', 'config'), '[core]\n');
  await symlink('../.git', join(dir, 'book', 'git-link'));
  await writeFile(join(dir, 'book', 'img', 'diagram.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>\n');
  await aged();
  return dir;
}

/** Past the stat index's clock margin: a file changed within it is not trusted from the index (stat-index.ts). */
const aged = () => sleep(150);

/**
 * In a child process: read `dir` with readSourceAside (whose `meanwhile` says when it ran) or
 * readSource, and print what the tree holds, every lesson's text and parts read, in one JSON.
 */
async function treeOf(how: 'aside' | 'here', dir: string, before = ''): Promise<any> {
  const script = `
    const { readSourceAside } = await import(${JSON.stringify(join(DIST, 'load/read-aside.js'))});
    const { readSource } = await import(${JSON.stringify(join(DIST, 'source/read-source.js'))});
    const dir = process.argv[1];
    let meanwhile = false;
    const tree = ${JSON.stringify(how)} === 'aside' ? await readSourceAside(dir, async () => { meanwhile = true; }) : await readSource(dir, { statIndex: true });
    ${before}
    const file = (f) => f && { path: f.path, digest: f.digest, text: f.text };
    const out = {
      meanwhile,
      config: file(tree.config), programs: tree.programs.map(file), sections: tree.sections.map(file),
      lessons: tree.lessons.map((l) => { try { return { ...file(l), frontMatter: l.frontMatter, unclosed: l.frontMatterUnclosed, body: l.body, verbatim: tree.verbatimText(l.path) !== undefined }; } catch (e) { return { path: l.path, error: e.code }; } }),
      files: [...tree.files], linked: [...(tree.linked ?? [])], refused: [...(tree.refused ?? [])], diagnostics: tree.diagnostics,
      texts: [...tree.files.keys()].map((p) => [p, tree.readText(p) ?? null]),
    };
    process.stdout.write(JSON.stringify(out));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dir], { maxBuffer: 1 << 26 });
  return JSON.parse(stdout);
}

/** In a child process: readSourceAside with `whileWaiting` given as the script `steps` (an async generator's body): how many steps ran, and the lessons read. */
async function whileWaiting(dir: string, steps: string): Promise<{ ran: number; lessons: number }> {
  const script = `
    const { readSourceAside } = await import(${JSON.stringify(join(DIST, 'load/read-aside.js'))});
    let ran = 0;
    const tree = await readSourceAside(process.argv[1], async () => {}, async function* () { ${steps} });
    process.stdout.write(JSON.stringify({ ran, lessons: tree.lessons.length }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dir]);
  return JSON.parse(stdout);
}

describe('reading a fresh checkout on the other core', () => {
  it('runs the steps to do while waiting until the worker answers, and no longer', async () => {
    const dir = await hostileRepo();
    const lessons = (await treeOf('here', dir)).lessons.length;
    await rm(join(dir, '.coursesync'), { recursive: true, force: true });
    // Steps that never end stop when the answer comes (the worker takes longer than a turn of the loop to start).
    const endless = await whileWaiting(dir, 'for (;;) { ran++; yield; }');
    expect(endless.ran).toBeGreaterThan(0);
    expect(endless.lessons).toBe(lessons);
    await rm(join(dir, '.coursesync'), { recursive: true, force: true });
    // Steps that end before the answer: the read is still awaited.
    const one = await whileWaiting(dir, 'ran++; yield;');
    expect(one).toEqual({ ran: 1, lessons });
  });

  it('gives the tree reading it here gives, diagnostics, refusals and texts included', async () => {
    const dir = await hostileRepo();
    const aside = await treeOf('aside', dir);
    // The worker ran (meanwhile runs only then), and wrote the stat index as a read here would.
    expect(aside.meanwhile).toBe(true);
    expect(existsSync(join(dir, INDEX))).toBe(true);
    await rm(join(dir, '.coursesync'), { recursive: true });
    const here = await treeOf('here', dir);
    expect(here.meanwhile).toBe(false);
    expect({ ...aside, meanwhile: undefined }).toEqual({ ...here, meanwhile: undefined });
    // What the comparison covers: every kind of file and problem the fixture holds.
    const codes = here.diagnostics.map((d: { code: string }) => d.code).sort();
    expect(codes).toEqual(expect.arrayContaining(['file/binary', 'file/not-utf8', 'repo/symlink-outside']));
    expect(here.lessons.find((l: { path: string }) => l.path.endsWith('02-crlf.md'))).toMatchObject({ verbatim: false, body: { text: '# Windows\n\nA lesson saved with CRLF.\n', line: 4 } });
    expect(here.lessons.find((l: { path: string }) => l.path.endsWith('01-hello-world.md')).verbatim).toBe(true);
    expect(here.refused.map(([p]: [string]) => p)).toContain('book/git-link');
    expect(here.texts.find(([p]: [string]) => p === 'book/img/diagram.svg')[1]).toContain('<svg');
    expect(here.lessons.length).toBeGreaterThanOrEqual(5);
  });

  it('reads here, and runs nothing meanwhile, when a stat index is there', async () => {
    const dir = await hostileRepo();
    await treeOf('here', dir);
    expect((await treeOf('aside', dir)).meanwhile).toBe(false);
  });

  it('reads on the worker, to the same tree, when the stat index is older than the config (a CI cache restored after a checkout)', async () => {
    const dir = await hostileRepo();
    const here = await treeOf('here', dir);
    expect((await treeOf('aside', dir)).meanwhile).toBe(false);
    // A checkout writes every file anew: the config's ctime is then later than the index.
    await utimes(join(dir, 'coursesync.yaml'), new Date(), new Date());
    await aged();
    const aside = await treeOf('aside', dir);
    expect(aside.meanwhile).toBe(true);
    expect({ ...aside, meanwhile: undefined }).toEqual({ ...here, meanwhile: undefined });
    // That read wrote the index anew: the next one is here again.
    expect((await treeOf('aside', dir)).meanwhile).toBe(false);
  });

  it('refuses a lesson whose bytes changed between the worker and the read of its text', async () => {
    const dir = await hostileRepo();
    const lesson = join(dir, 'book', '01-getting-started', '01-hello-world.md');
    const tree = await treeOf('aside', dir, `(await import('node:fs')).appendFileSync(${JSON.stringify(lesson)}, 'Edited meanwhile.\\n');`);
    expect(tree.lessons.find((l: { path: string }) => l.path.endsWith('01-hello-world.md'))).toEqual({ path: 'book/01-getting-started/01-hello-world.md', error: 'source/changed-while-reading' });
  });

  it('fails as a read here does when the folder is not there', async () => {
    const script = `
      const { readSourceAside } = await import(${JSON.stringify(join(DIST, 'load/read-aside.js'))});
      try { await readSourceAside(process.argv[1], async () => {}); } catch (e) { process.stdout.write(JSON.stringify({ code: e.code, message: e.message })); }`;
    const missing = join(tmpdir(), 'coursesync-aside-missing', 'course');
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, missing]);
    expect(JSON.parse(stdout)).toMatchObject({ code: 'source/not-found' });
  });

  it('lets the process end when what runs meanwhile throws, the worker still reading', async () => {
    const dir = await hostileRepo();
    const script = `
      const { readSourceAside } = await import(${JSON.stringify(join(DIST, 'load/read-aside.js'))});
      await readSourceAside(process.argv[1], async () => { throw new Error('meanwhile failed'); }).catch((e) => process.stdout.write(e.message));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script, dir]);
    expect(stdout).toBe('meanwhile failed');
  });
});
