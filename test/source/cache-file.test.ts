/** The cache file format: one entry per line, read a chunk of lines at a time, older one-line files still read. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCacheFile, writeCacheFile } from '../../src/source/cache-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'coursesync-cache-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

// Values as the caches hold them: HTML with newlines, quotes and non-ASCII, arrays, nesting.
const entries = new Map<string, unknown>([
  ['p/s/01-a.md\u0000{}', { fields: { body: '<h1 id="a">A</h1>\n<p>"quoted", naïve, 日本語</p>\n<pre><code>x\ny\n</code></pre>', drip_delay: 3 }, anchors: ['a'] }],
  ['key with "quotes" and \n newline', [1, '2', null]],
  ['z', 'plain'],
]);

async function read(file: string, accept: (tag: string) => boolean = () => true) {
  const got = new Map<string, unknown>();
  const ok = await readCacheFile(file, 'renderer', accept, (k, v) => got.set(k, v));
  return { ok, got };
}

describe('cache files under .coursesync/cache/', () => {
  it('are written one entry per line and read back entry by entry, the tag checked first', async () => {
    const file = path.join(dir, 'c.json');
    expect(await writeCacheFile(file, 'renderer', 'r1', entries)).toBe(true);
    const text = await readFile(file, 'utf8');
    expect(JSON.parse(text)).toEqual({ renderer: 'r1', entries: Object.fromEntries(entries) });
    expect(text.split('\n')).toHaveLength(1 + entries.size + 2); // head, entries, `}}`, the final newline
    const tags: string[] = [];
    expect(await read(file, (t) => (tags.push(t), true))).toEqual({ ok: true, got: entries });
    expect(tags).toEqual(['r1']);
    expect(await read(file, (t) => t === 'r2')).toEqual({ ok: false, got: new Map() });
    // No entries at all.
    expect(await writeCacheFile(file, 'renderer', 'r1', new Map())).toBe(true);
    expect(await read(file)).toEqual({ ok: true, got: new Map() });
  });

  it('a file an older coursesync wrote whole on one line is read whole', async () => {
    const file = path.join(dir, 'old.json');
    await writeFile(file, JSON.stringify({ renderer: 'r1', entries: Object.fromEntries(entries) }));
    expect(await read(file)).toEqual({ ok: true, got: entries });
  });

  it('many entries over several read chunks (1 MB each) come back whole and in order; damage in a later chunk keeps those before it', async () => {
    const file = path.join(dir, 'big.json');
    // 3,000 entries of ~1 KB, one of 1.5 MB (longer than a chunk), multi-byte text across chunk edges.
    const big = new Map<string, unknown>();
    for (let i = 0; i < 3000; i++) big.set(`lessons/${i}.md`, { html: `<p>${'naïve 日本語 '.repeat(60)}${i}</p>`, n: i });
    big.set('huge', 'x'.repeat(1_500_000));
    big.set('last', [1, 2, 3]);
    await writeCacheFile(file, 'renderer', 'r1', big);
    const back = await read(file);
    expect(back.ok).toBe(true);
    expect([...back.got.keys()]).toEqual([...big.keys()]);
    expect(back.got).toEqual(big);
    // Cut entry 2,500 short (past the first chunk): the 2,500 before it are read, nothing after.
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[2501] = lines[2501]!.slice(0, 20);
    await writeFile(file, lines.join('\n'));
    const damaged = await read(file);
    expect(damaged.ok).toBe(true);
    expect([...damaged.got.keys()]).toEqual([...big.keys()].slice(0, 2500));
  });

  it('damage ends the read where it is; what is missing, odd or a FIFO reads as nothing, at once', async () => {
    const file = path.join(dir, 'c.json');
    await writeCacheFile(file, 'renderer', 'r1', entries);
    const lines = (await readFile(file, 'utf8')).split('\n');
    lines[2] = lines[2]!.slice(0, 10); // the second entry cut short
    await writeFile(file, lines.join('\n'));
    expect((await read(file)).got).toEqual(new Map([...entries].slice(0, 1)));
    for (const text of ['', 'null', '[1]', '{"renderer":1,"entries":{', '{"renderer":"r1"}', 'not json']) {
      await writeFile(file, text);
      expect(await read(file), text).toEqual({ ok: false, got: new Map() });
    }
    expect(await read(path.join(dir, 'missing.json'))).toEqual({ ok: false, got: new Map() });
    expect(await read(dir)).toEqual({ ok: false, got: new Map() });
    execFileSync('mkfifo', [path.join(dir, 'fifo.json')]);
    expect(await read(path.join(dir, 'fifo.json'))).toEqual({ ok: false, got: new Map() });
  });
});
