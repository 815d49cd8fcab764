import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { placeOf } from '../../src/diagnostics/diagnostic.js';
import { isCoursesyncError } from '../../src/diagnostics/errors.js';
import { loadCourse } from '../../src/load/load-course.js';
import { readSource, scanRepo, type Scan } from '../../src/source/read-source.js';

let dir: string;
let outside: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'coursesync-src-'));
  outside = await mkdtemp(path.join(tmpdir(), 'coursesync-out-'));
  await mkdir(path.join(dir, 'p/s'), { recursive: true });
  await writeFile(path.join(dir, 'p/program.yaml'), 'id: prog_1\n');
  await writeFile(path.join(dir, 'p/s/section.yaml'), 'id: sec_1\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const put = (rel: string, data: string | Uint8Array) => writeFile(path.join(dir, rel), data);
const brief = async () => (await loadCourse(dir)).diagnostics.map((d) => `${placeOf(d)} ${d.code}`);

describe('readSource: file names', () => {
  it('reads a file whose valid UTF-8 name holds U+FFFD, next to one whose name is not UTF-8, and reports only the latter', async () => {
    // Names are listed as text, and a folder with a U+FFFD in a name listed again as bytes:
    // the replacement character written on purpose must not be taken for a broken name.
    const lesson = '---\nname: Replacement\n---\n# The \ufffd character\n';
    await put('p/s/01-\ufffd.md', lesson);
    await writeFile(Buffer.concat([Buffer.from(path.join(dir, 'p/s/02-caf')), Buffer.from([0xe9]), Buffer.from('.md')]), '---\nname: Cafe\n---\n');
    for (const statIndex of [false, true]) {
      const tree = await readSource(dir, { statIndex });
      expect(tree.lessons.map((l) => [l.path, l.text])).toEqual([['p/s/01-\ufffd.md', lesson]]);
      expect(tree.diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual(['p/s/02-caf\ufffd.md file/name-not-utf8']);
    }
  });
});

describe('readSource: files that cannot be read as text', () => {
  it('reports invalid UTF-8 at the line and column of the first bad byte', async () => {
    await put('p/s/01-bad.md', Buffer.concat([Buffer.from('---\nname: caf'), Buffer.from([0xe9]), Buffer.from('\n---\n')]));
    expect(await brief()).toEqual(['p/s/01-bad.md:2:10 file/not-utf8']);
  });

  it('reports a NUL byte at its place', async () => {
    await put('p/s/01-nul.md', '---\nname: x\n---\nab\0c\n');
    expect(await brief()).toEqual(['p/s/01-nul.md:4:3 file/binary']);
  });

  it('strips a BOM, accepts CRLF, and digests the bytes as stored', async () => {
    const bytes = Buffer.from('\ufeff---\r\nname: Hello\r\nnmae: typo\r\n---\r\n# Hi\r\n', 'utf8');
    await put('p/s/01-crlf.md', bytes);
    const tree = await readSource(dir);
    const lesson = tree.lessons[0];
    expect(lesson?.text.startsWith('---\nname: Hello\n')).toBe(true);
    expect(lesson?.digest).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(lesson?.body).toEqual({ text: '# Hi\n', line: 5 });
    // Lines still count right: the typo is on line 3.
    expect(await brief()).toEqual(['p/s/01-crlf.md:3:1 lesson/unknown-key']);
  });

  it('gives a lesson text as the very bytes only when no BOM was dropped and no line ending changed', async () => {
    const plain = '---\nname: Plain\n---\n# Café\n';
    await put('p/s/01-plain.md', plain);
    await put('p/s/02-crlf.md', '---\r\nname: Crlf\r\n---\r\n# Hi\r\n');
    await put('p/s/03-bom.md', '\ufeff---\nname: Bom\n---\n# Hi\n');
    await put('p/s/04-lone-cr.md', '---\nname: Cr\n---\n# Hi\rthere\n');
    // Files this new are read again even with the stat index (racily clean): each run reads them.
    for (const statIndex of [false, true]) {
      const tree = await readSource(dir, { statIndex });
      // Asked before any text was: the answer is known from the bytes read.
      expect(tree.lessons.map((l) => [l.path, tree.verbatimText?.(l.path)])).toEqual([
        ['p/s/01-plain.md', plain],
        ['p/s/02-crlf.md', undefined],
        ['p/s/03-bom.md', undefined],
        ['p/s/04-lone-cr.md', undefined],
      ]);
      expect(tree.lessons.map((l) => l.text)).toEqual([plain, '---\nname: Crlf\n---\n# Hi\n', '---\nname: Bom\n---\n# Hi\n', '---\nname: Cr\n---\n# Hi\nthere\n']);
    }
  });

  it('keeps every lesson read with the stat index whole, across and past the 1 MB blocks its bytes are kept in', async () => {
    // 300 KB each: the fourth does not fit in the first block; 1.5 MB: a block of its own.
    const texts = [300_000, 300_000, 300_000, 300_000, 1_500_000, 2_000].map((size, i) => `---\nname: L${i}\n---\n${String.fromCharCode(97 + i).repeat(size)}é\n`);
    await Promise.all(texts.map((text, i) => put(`p/s/0${i}.md`, text)));
    const tree = await readSource(dir, { statIndex: true });
    expect(tree.lessons.map((l) => [l.path, l.digest])).toEqual(texts.map((text, i) => [`p/s/0${i}.md`, createHash('sha256').update(text).digest('hex')]));
    // Decoded on first access, in reverse: each from its own bytes.
    expect([...tree.lessons].reverse().map((l) => l.text)).toEqual([...texts].reverse());
  });

  it('for digests only, reads each lesson over the last one (larger, smaller, empty, not text): the same digests, diagnostics and verbatim set', async () => {
    const texts = ['---\nname: A\n---\n' + 'a'.repeat(200_000), '---\nname: B\n---\nshort\n', '', '---\r\nname: D\r\n---\r\nWindows\r\n', '\uFEFF# BOM\n'];
    await Promise.all(texts.map((text, i) => put(`p/s/0${i}.md`, text)));
    await put('p/s/05-binary.md', Buffer.from('# A\n\0\n'));
    await put('p/s/06-latin1.md', Buffer.from([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a]));
    const kept = await scanRepo(dir, { statIndex: true });
    await rm(path.join(dir, '.coursesync'), { recursive: true });
    const only = await scanRepo(dir, { statIndex: true, digestsOnly: true });
    const digests = (scan: Scan) => scan.read.map((f) => f && [f.path, f.digest]);
    expect(digests(only)).toEqual(digests(kept));
    expect(digests(only).filter(Boolean).length).toBe(texts.length + 2); // the lessons that are text, program.yaml, section.yaml
    expect(only.diagnostics).toEqual(kept.diagnostics);
    expect(only.diagnostics.map((d) => d.code).sort()).toEqual(['file/binary', 'file/not-utf8']);
    expect([...only.verbatim].sort()).toEqual([...kept.verbatim].sort());
    // Its text was not kept: asking for it is a bug, said as such.
    const lesson = only.read.find((f) => f?.path === 'p/s/00.md')!;
    expect(() => lesson.text).toThrow(/digest only/);
  });

  it('reads every byte of an empty file and of one larger than a read chunk, with and without the stat index', async () => {
    // Past 64 KB a read takes more than one chunk; the file is read up to the size its one fstat gave.
    const large = `---\nname: Large\n---\n${'A paragraph of a long lesson, with **emphasis**. é\n'.repeat(2000)}`;
    await put('p/s/01-empty.md', '');
    await put('p/s/02-large.md', large);
    for (const statIndex of [false, true, true]) {
      const tree = await readSource(dir, { statIndex });
      expect(tree.lessons.map((l) => [l.path, l.text.length, l.digest])).toEqual([
        ['p/s/01-empty.md', 0, createHash('sha256').update('').digest('hex')],
        ['p/s/02-large.md', large.length, createHash('sha256').update(large).digest('hex')],
      ]);
      expect(tree.lessons[1]?.text).toBe(large);
    }
  });
});

describe('readSource: symlinks', () => {
  it('reports a symlinked file that leaves the repo, without reading it', async () => {
    await writeFile(path.join(outside, 'secret.md'), '---\nname: Outside\n---\n');
    await symlink(path.join(outside, 'secret.md'), path.join(dir, 'p/s/01-link.md'));
    const tree = await readSource(dir);
    expect(tree.lessons).toEqual([]);
    expect(await brief()).toEqual(['p/s/01-link.md repo/symlink-outside']);
  });

  it('reports a symlinked folder that leaves the repo', async () => {
    await mkdir(path.join(outside, 'sec'));
    await writeFile(path.join(outside, 'sec/section.yaml'), 'id: sec_x\n');
    await symlink(outside, path.join(dir, 'p/elsewhere'));
    expect(await brief()).toEqual(['p/elsewhere repo/symlink-outside']);
  });

  it('does not hang on a loop, and reports it (a folder link to its own ancestor too)', async () => {
    await put('p/s/01-real.md', '---\nname: Real\n---\n');
    await symlink(path.join(dir, 'p'), path.join(dir, 'p/s/back-to-program'));
    await symlink('loop-b', path.join(dir, 'p/s/loop-a.md'));
    await symlink('loop-a.md', path.join(dir, 'p/s/loop-b'));
    expect(await brief()).toEqual(['p/s/back-to-program repo/broken-symlink', 'p/s/loop-a.md repo/broken-symlink', 'p/s/loop-b repo/broken-symlink']);
    const tree = await readSource(dir);
    expect(tree.lessons.map((l) => l.path)).toEqual(['p/s/01-real.md']);
  });
});

describe('readSource: what is walked', () => {
  it('ignores hidden folders, node_modules and files it does not read', async () => {
    await mkdir(path.join(dir, '.coursesync'), { recursive: true });
    await mkdir(path.join(dir, 'node_modules/x'), { recursive: true });
    await mkdir(path.join(dir, '.git'), { recursive: true });
    await put('.coursesync/state.md', 'not read');
    await put('node_modules/x/program.yaml', ': broken');
    await put('.git/section.yaml', ': broken');
    await put('p/s/image.png', Buffer.from([0xff, 0xd8, 0x00]));
    await put('p/s/.hidden.md', 'not read');
    await put('p/s/01-a.md', '---\nname: A\n---\n');
    const tree = await readSource(dir);
    expect(tree.lessons.map((l) => l.path)).toEqual(['p/s/01-a.md']);
    expect(tree.programs.map((f) => f.path)).toEqual(['p/program.yaml']);
    expect(await brief()).toEqual([]);
  });

  it('a folder that does not exist is a user error, not a crash', async () => {
    const err = await readSource(path.join(dir, 'nope')).catch((e: unknown) => e);
    expect(isCoursesyncError(err) && err.code).toBe('source/not-found');
  });

  it('checks rendered length limits in code points', async () => {
    const long = 'word '.repeat(40_000) + '\n'; // renders to <p>…</p>, over 200000 characters
    await put('p/s/01-long.md', `---\nname: Long\ndescription: "${'d'.repeat(200_001)}"\n---\n${long}`);
    expect(await brief()).toEqual(['p/s/01-long.md:3:14 lesson/description-too-long', 'p/s/01-long.md:5:1 lesson/body-too-long']);
  });
});

describe('readSource: the other files lessons may reference', () => {
  it('lists every other file with the sha256 of its bytes, not hidden folders, node_modules or course files', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc000000301010018dd8db00000000049454e44ae426082', 'hex');
    await mkdir(path.join(dir, 'p/s/img'), { recursive: true });
    await mkdir(path.join(dir, '.github'), { recursive: true });
    await mkdir(path.join(dir, 'node_modules/x'), { recursive: true });
    await put('p/s/img/dot.png', png);
    await put('shared.pdf', '%PDF-1.1\n');
    await put('.github/logo.png', png);
    await put('node_modules/x/a.png', png);
    await put('p/s/.hidden.png', png);
    await symlink(path.join(dir, 'p/s/img/dot.png'), path.join(dir, 'p/s/alias.png'));
    const sha = (b: string | Uint8Array) => createHash('sha256').update(b).digest('hex');
    const tree = await readSource(dir);
    expect(new Map([...(tree.files ?? [])].sort())).toEqual(
      new Map([
        ['p/s/alias.png', sha(png)],
        ['p/s/img/dot.png', sha(png)],
        ['shared.pdf', sha('%PDF-1.1\n')],
      ]),
    );
  });

  it('digests a file read whole (up to 1 MiB) and one streamed (larger) alike, with and without the stat index', async () => {
    const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
    const files: Record<string, Uint8Array> = { 'at-limit.bin': bytes(1024 * 1024, 1), 'past-limit.bin': bytes(1024 * 1024 + 1, 2), 'video.mp4': bytes(3 * 1024 * 1024 + 7, 3), 'empty.txt': new Uint8Array() };
    for (const [name, data] of Object.entries(files)) await put(name, data);
    const want = new Map(Object.entries(files).map(([name, data]) => [name, createHash('sha256').update(data).digest('hex')]));
    for (const statIndex of [false, true, true]) {
      const tree = await readSource(dir, { statIndex });
      expect(new Map([...(tree.files ?? [])].filter(([p]) => want.has(p))), `statIndex ${statIndex}`).toEqual(want);
    }
  });
});
