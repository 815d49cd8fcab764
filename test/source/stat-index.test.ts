import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isCoursesyncError } from '../../src/diagnostics/errors.js';
import type { LessonSource } from '../../src/model/source-tree.js';
import { readSource } from '../../src/source/read-source.js';
import { cleanDigest, indexMaySpare, STAT_INDEX_FILE, type StatEntry } from '../../src/source/stat-index.js';

const LESSON = `---
name: Narrowing with type guards
lesson_type: text
description: How \`typeof\` and \`in\` narrow a union.
---
# Narrowing

A value of type \`string | number\` is narrowed by a check:

\`\`\`ts
function pad(value: string | number) {
  return typeof value === 'number' ? ' '.repeat(value) : value;
}
\`\`\`

| check | narrows to |
|---|---|
| \`typeof x === "string"\` | \`string\` |
| \`"kind" in x\` | the members with \`kind\` |

> The compiler follows control flow, not just the condition.

![The narrowing diagram](img/narrowing.png)
See [the handbook](https://www.typescriptlang.org/docs/handbook/2/narrowing.html).
`;
/** Same length as LESSON: an edit that keeps the size. */
const EDITED = LESSON.replace('Narrowing with type guards', 'Narrowing with type GUARDS');
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c4944415408d763f8cfc000000301010018dd8db00000000049454e44ae426082', 'hex');
const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
/** A whole second, so utimes can restore the mtime to the nanosecond. */
const OLD_SECONDS = 1_700_000_000;

let dir: string;
let lessonFile: string;
const LESSON_PATH = 'typescript/01-basics/narrowing.md';
/** The catalogue code `run` throws with. */
function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (e) {
    return isCoursesyncError(e) ? e.code : String(e);
  }
  return undefined;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'coursesync-stat-'));
  await mkdir(path.join(dir, 'typescript/01-basics/img'), { recursive: true });
  await writeFile(path.join(dir, 'typescript/program.yaml'), 'name: TypeScript\n');
  await writeFile(path.join(dir, 'typescript/01-basics/section.yaml'), 'name: Basics\n');
  lessonFile = path.join(dir, LESSON_PATH);
  await writeFile(lessonFile, LESSON);
  await utimes(lessonFile, OLD_SECONDS, OLD_SECONDS);
  await writeFile(path.join(dir, 'typescript/01-basics/img/narrowing.png'), PNG);
  // Files changed within the index's clock margin are re-hashed: let them age past it.
  await sleep(150);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const read = () => readSource(dir, { statIndex: true });
const lessonOf = (tree: { lessons: LessonSource[] }) => tree.lessons.find((l) => l.path === LESSON_PATH)!;
const indexFile = () => path.join(dir, STAT_INDEX_FILE);

/** The index file as stored: columns (stat-index.ts). */
interface StoredIndex {
  index: string;
  paths: string[];
  stats: number[];
  digests: string;
}
const readIndex = async () => JSON.parse(await readFile(indexFile(), 'utf8')) as StoredIndex;
/** The stored row of `file`: size, mtime, ctime, inode and digest. */
function rowOf(index: StoredIndex, file: string): unknown[] | undefined {
  const i = index.paths.indexOf(file);
  return i === -1 ? undefined : [...index.stats.slice(i * 4, i * 4 + 4), index.digests.slice(i * 64, i * 64 + 64)];
}
/** `index` with the row of `file` replaced. */
function withRow(index: StoredIndex, file: string, [size, mtime, ctime, ino, digest]: [number, number, number, number, string]): StoredIndex {
  const i = index.paths.indexOf(file);
  const stats = [...index.stats];
  stats.splice(i * 4, 4, size, mtime, ctime, ino);
  return { ...index, stats, digests: index.digests.slice(0, i * 64) + digest + index.digests.slice(i * 64 + 64) };
}

describe('cleanDigest (the rule of one entry)', () => {
  const entry: StatEntry = { size: 100, mtimeMs: 1_700_000_000_000.25, ctimeMs: 1_700_000_000_002.5, ino: 42, digest: 'd' };
  const since = 1_700_000_000_100;
  it('vouches for a file with the same size, mtime, ctime and inode, changed before the snapshot', () => {
    expect(cleanDigest(entry, { ...entry }, since)).toBe('d');
  });
  it('does not when any of the four differs, by as little as a microsecond', () => {
    for (const change of [{ size: 101 }, { mtimeMs: entry.mtimeMs + 0.001 }, { ctimeMs: entry.ctimeMs + 0.001 }, { ino: 43 }]) expect(cleanDigest(entry, { ...entry, ...change }, since)).toBeUndefined();
  });
  it('does not for a racily clean entry: mtime or ctime not older than the snapshot', () => {
    expect(cleanDigest(entry, { ...entry }, 1_700_000_000_000)).toBeUndefined();
    expect(cleanDigest(entry, { ...entry }, entry.ctimeMs)).toBeUndefined();
    expect(cleanDigest(entry, { ...entry }, 1_700_000_000_003)).toBe('d');
  });
  it('does not for an inode past 2^53 (a number could not hold it exactly)', () => {
    const big = { ...entry, ino: 2 ** 53 + 2 };
    expect(cleanDigest(big, { ...big }, since)).toBeUndefined();
  });
});

describe('readSource with the stat index', () => {
  it('reads an unchanged lesson lazily: digest from the index, text on first access', async () => {
    const first = lessonOf(await read());
    expect(first.digest).toBe(sha(LESSON));
    const written = (await stat(indexFile())).mtimeMs;
    const second = lessonOf(await read());
    expect(second.digest).toBe(sha(LESSON));
    expect(second.frontMatter?.text).toContain('name: Narrowing with type guards');
    expect(second.body.text).toContain('| `typeof x === "string"` | `string` |');
    expect(second.body.line).toBe(6);
    expect(second.text).toBe(LESSON);
    // Nothing changed: the index is not rewritten.
    expect((await stat(indexFile())).mtimeMs).toBe(written);
    // Not read by readSource: a file removed after it only fails when its text is asked for.
    const third = lessonOf(await read());
    await rm(lessonFile);
    expect(third.digest).toBe(sha(LESSON));
    let error: unknown;
    try {
      void third.body;
    } catch (e) {
      error = e;
    }
    expect(isCoursesyncError(error) && error.message).toMatch(new RegExp(`${LESSON_PATH}.*ENOENT`));
  });

  it('sees an edit that keeps the size and restores the mtime (utimes): ctime moved', async () => {
    await read();
    const before = await stat(lessonFile, { bigint: true });
    await writeFile(lessonFile, EDITED);
    await utimes(lessonFile, OLD_SECONDS, OLD_SECONDS);
    const after = await stat(lessonFile, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const lesson = lessonOf(await read());
    expect(lesson.digest).toBe(sha(EDITED));
    expect(lesson.frontMatter?.text).toContain('type GUARDS');
  });

  it('sees a file replaced by a rename (new inode) with the same size and mtime', async () => {
    await read();
    const temp = path.join(dir, 'typescript/01-basics/.narrowing.md.tmp');
    await writeFile(temp, EDITED);
    await utimes(temp, OLD_SECONDS, OLD_SECONDS);
    await rename(temp, lessonFile);
    expect(lessonOf(await read()).digest).toBe(sha(EDITED));
  });

  it('re-hashes a racily clean entry: stat data equal, changed in the tick the index was taken', async () => {
    await read();
    // The edit lands in the same clock tick as the stat the index recorded (a coarse-clock
    // filesystem): the index holds the edited file's stat data with the old digest.
    await writeFile(lessonFile, EDITED);
    const now = await stat(lessonFile);
    const forge = async (since: number) => {
      const index = withRow(await readIndex(), LESSON_PATH, [now.size, now.mtimeMs, now.ctimeMs, now.ino, sha(LESSON)]);
      await writeFile(indexFile(), JSON.stringify({ ...index, index: `${index.index.split(' ')[0]} ${since}` }));
    };
    // The index's snapshot time is whole milliseconds: the last one not after the edit.
    const latest = Math.floor(Math.max(now.mtimeMs, now.ctimeMs));
    await forge(latest);
    expect(lessonOf(await read()).digest).toBe(sha(EDITED));
    // The rule is what protects: the same forged entry, taken a tick later, would be trusted.
    await forge(latest + 1);
    expect(lessonOf(await read()).digest).toBe(sha(LESSON));
  });

  it('reads again a file changed just before the index was taken (racily clean), until it has aged', async () => {
    await writeFile(lessonFile, EDITED);
    // Both reads happen at the moment of the edit, however slow this machine is: the clock the
    // index takes its snapshot time from stands still (file I/O and timers stay real).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Number((await stat(lessonFile, { bigint: true })).mtimeNs / 1_000_000n));
      await read();
      // Read, not taken from the index: its text is there even once the file is gone.
      const racy = lessonOf(await read());
      await rm(lessonFile);
      expect(racy.text).toBe(EDITED);
      expect(racy.digest).toBe(sha(EDITED));
    } finally {
      vi.useRealTimers();
    }
  });

  it('indexes referenced files too, and drops the entries of deleted files', async () => {
    const png = 'typescript/01-basics/img/narrowing.png';
    expect((await read()).files?.get(png)).toBe(sha(PNG));
    const edited = Buffer.from(PNG);
    edited[edited.length - 5] = 0x00;
    await writeFile(path.join(dir, png), edited);
    expect((await read()).files?.get(png)).toBe(sha(edited));
    await rm(path.join(dir, png));
    await read();
    const index = await readIndex();
    expect(index.paths).toContain(LESSON_PATH);
    expect(index.paths).not.toContain(png);
  });

  it('stops with the file named when a lazily read lesson changed after the stat', async () => {
    await read();
    const lesson = lessonOf(await read());
    await writeFile(lessonFile, EDITED);
    expect(() => lesson.text).toThrow(/narrowing\.md.*changed while coursesync was reading the repo/);
    expect(codeOf(() => lesson.text)).toBe('source/changed-while-reading');
  });

  it('stops with its own code when a lazily read lesson is gone, or an included listing changed, after the walk', async () => {
    const listing = 'typescript/01-basics/pad.ts';
    await writeFile(path.join(dir, listing), "export const pad = (n: number) => ' '.repeat(n);\n");
    await read();
    const tree = await read();
    expect(tree.readText?.(listing)).toContain('repeat');
    await writeFile(path.join(dir, listing), "export const pad = (n: number) => '-'.repeat(n);\n");
    expect(codeOf(() => tree.readText?.(listing))).toBe('source/changed-while-reading');
    const lesson = lessonOf(tree);
    await rm(lessonFile);
    expect(() => lesson.text).toThrow(/^typescript\/01-basics\/narrowing\.md changed while coursesync was reading the repo: it can no longer be read \(ENOENT\)$/);
    expect(codeOf(() => lesson.text)).toBe('source/changed-while-reading');
  });

  it('ignores a damaged index and writes a good one', async () => {
    await mkdir(path.dirname(indexFile()), { recursive: true });
    const now = await stat(lessonFile);
    const good = { index: 'coursesync-stat-index/2 9999999999999', paths: [LESSON_PATH], stats: [now.size, now.mtimeMs, now.ctimeMs, now.ino], digests: sha('another lesson') };
    // Each would vouch for the wrong digest if its damage went unseen.
    const damaged = [
      JSON.stringify(good).slice(0, -2),
      JSON.stringify({ ...good, digests: good.digests.slice(1) }),
      JSON.stringify({ ...good, digests: good.digests.toUpperCase() }),
      JSON.stringify({ ...good, stats: good.stats.slice(1) }),
      JSON.stringify({ ...good, stats: good.stats.map(String) }),
      JSON.stringify({ ...good, paths: [LESSON_PATH, 'x.md'] }),
      JSON.stringify({ ...good, index: 'coursesync-stat-index/2 12.5' }),
    ];
    for (const text of damaged) {
      await writeFile(indexFile(), text);
      expect(lessonOf(await read()).digest).toBe(sha(LESSON));
      expect(rowOf(await readIndex(), LESSON_PATH)?.[4]).toBe(sha(LESSON));
    }
    // The same, undamaged: trusted (which is why the damaged ones must not be).
    await writeFile(indexFile(), JSON.stringify(good));
    expect(lessonOf(await read()).digest).toBe(sha('another lesson'));
  });

  it('reads an index of the older format (nanoseconds as strings) as a miss, not as stat data', async () => {
    await read();
    // What coursesync-stat-index/1 wrote for this very file, with a digest that is not its own:
    // taken for this format's numbers, or trusted at all, it would be the lesson's digest.
    const now = await stat(lessonFile, { bigint: true });
    const stale = sha('another lesson');
    const old = { index: `coursesync-stat-index/1 ${BigInt(Date.now()) * 1_000_000n}`, entries: { [LESSON_PATH]: [now.size, now.mtimeNs, now.ctimeNs, now.ino].map(String).concat(stale) } };
    await writeFile(indexFile(), JSON.stringify(old));
    expect(lessonOf(await read()).digest).toBe(sha(LESSON));
    const rewritten = await readIndex();
    expect(rewritten.index).toMatch(/^coursesync-stat-index\/2 \d+$/);
    const plain = await stat(lessonFile);
    expect(rowOf(rewritten, LESSON_PATH)).toEqual([plain.size, plain.mtimeMs, plain.ctimeMs, plain.ino, sha(LESSON)]);
  });

  it('is neither read nor written unless asked for', async () => {
    const lesson = lessonOf(await readSource(dir));
    expect(lesson.text).toBe(LESSON);
    await expect(stat(indexFile())).rejects.toThrow();
  });
});

describe('indexMaySpare (whether a read may take digests from the index)', () => {
  /** The config, aged past the index's clock margin (as the other files are). */
  const config = async () => {
    await writeFile(path.join(dir, 'coursesync.yaml'), 'school:\n  base_url: https://school.example/api/v1\n');
    await sleep(150);
  };

  it('says no without an index, and yes for one written after the config and state last changed', async () => {
    await config();
    expect(await indexMaySpare(dir)).toBe(false);
    await read();
    expect(await indexMaySpare(dir)).toBe(true);
  });

  it('says no once the config changed after the index was written (a checkout, then a CI cache restored)', async () => {
    await config();
    await read();
    // Any change sets the ctime to now: a checkout writes every file anew.
    await utimes(path.join(dir, 'coursesync.yaml'), OLD_SECONDS, OLD_SECONDS);
    expect(await indexMaySpare(dir)).toBe(false);
  });

  it('asks the state file when there is no config, and says yes when there is neither', async () => {
    await read();
    expect(await indexMaySpare(dir)).toBe(true);
    await mkdir(path.join(dir, '.coursesync'), { recursive: true });
    await writeFile(path.join(dir, '.coursesync/state.json'), '{}\n');
    expect(await indexMaySpare(dir)).toBe(false);
  });

  it('says no for an index of another version or shape', async () => {
    await config();
    await read();
    const text = await readFile(indexFile(), 'utf8');
    await writeFile(indexFile(), text.replace('coursesync-stat-index/2', 'coursesync-stat-index/1'));
    expect(await indexMaySpare(dir)).toBe(false);
    await writeFile(indexFile(), '[]\n');
    expect(await indexMaySpare(dir)).toBe(false);
    // A control character where the tag is: read as no index, never thrown.
    await writeFile(indexFile(), text.replace('coursesync-stat-index/2', 'coursesync-stat-index/2\t'));
    expect(await indexMaySpare(dir)).toBe(false);
  });
});
