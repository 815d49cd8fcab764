/**
 * Walk a course repo and read the files coursesync cares about (I/O): coursesync.yaml,
 * program.yaml, section.yaml and *.md. Hidden folders (.git, .coursesync), node_modules and
 * symlinks that leave the repo or lead into those folders are never followed (a lesson that
 * references one is refused); a symlink loop is reported, not walked.
 * With the stat index (stat-index.ts), a lesson file or referenced file whose stat data is
 * unchanged is not read: its digest comes from the index and a lesson's text is read on first
 * access (most lessons of a plan never need it).
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync, type Dirent, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { hasUnsafeChar, type Diagnostic } from '../diagnostics/diagnostic.js';
import { CoursesyncError } from '../diagnostics/errors.js';
import { diag } from '../diagnostics/repo-codes.js';
import { MAX_ASSET_BYTES, privatePart, type RefusedFile } from '../model/assets.js';
import { sha256 } from '../model/sha256.js';
import type { LessonSource, SourceFile, SourceTree } from '../model/source-tree.js';
import { splitFrontMatter } from './split-front-matter.js';
import { StatIndex } from './stat-index.js';

/** Files larger than this are reported, not read: no lesson needs 10 MB of text. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const IGNORED_DIRS = new Set(['node_modules']);
/** Why a file read on demand is refused: its bytes are not those the run digested. */
const CHANGED = 'its bytes no longer match the digest taken when the run began';

export type Kind = 'config' | 'program' | 'section' | 'lesson';

/** What coursesync reads a file as, from its repo path and name; undefined for any other file (maybe an asset). */
export function kindOf(rel: string, name: string): Kind | undefined {
  if (name === 'program.yaml') return 'program';
  if (name === 'section.yaml') return 'section';
  if (name === 'coursesync.yaml' && rel === name) return 'config';
  if (name.toLowerCase().endsWith('.md')) return 'lesson';
  return undefined;
}

export interface ReadSourceOptions {
  /**
   * Use and update the stat index under `.coursesync/cache/` (default false): files whose stat
   * data is unchanged are not read.
   */
  statIndex?: boolean;
  /**
   * Each lesson read is hashed and its bytes let go, not kept for its text (default false): for
   * a reader that hands on digests only (load/read-worker.ts). Its text cannot be had.
   */
  digestsOnly?: boolean;
  /**
   * With `statIndex`: leave the stored index unread, read every file, and write a new index
   * (default false). The read worker's read is one the index was not trusted to spare
   * (stat-index.ts indexMaySpare: one restored from before a checkout vouches for nothing, and
   * reading it cost the read ~20 ms at 10,000 files); the next run trusts the index it writes.
   */
  freshIndex?: boolean;
  /**
   * With `statIndex`: the index is left for the caller to write (Scan.writeIndex) after it has
   * handed on the scan (default false: written before the scan returns). The read worker
   * answers first: the index is for the next run, and its write cost the answer ~15 ms.
   */
  writeIndexLater?: boolean;
}

/**
 * Read the course repo at `dir`. Problems with single files become diagnostics; a `dir` that
 * does not exist or is not a folder is a CoursesyncError.
 */
export async function readSource(dir: string, options: ReadSourceOptions = {}): Promise<SourceTree> {
  return treeOf(await scanRepo(dir, options));
}

/**
 * What a walk found and read, before it is made a tree: plain data (it may cross threads:
 * read-aside.ts), but for the lessons read in this thread (their bytes stay where they were read).
 */
export interface Scan {
  diagnostics: Diagnostic[];
  /** The files coursesync reads, in walk order, and what each read gave (undefined: reported). */
  found: Array<{ rel: string; abs: string; kind: Kind }>;
  read: Array<SourceFile | undefined>;
  /** Files lessons may reference, and each one's digest (or why it is refused). */
  others: Array<{ rel: string; abs: string }>;
  digests: Array<string | RefusedFile | undefined>;
  linked: Map<string, string>;
  refused: Map<string, RefusedFile>;
  /** Lessons whose text (once read) is their bytes. */
  verbatim: Set<string>;
  /** Writes the stat index, when `writeIndexLater` left it to the caller. */
  writeIndex?: () => Promise<boolean>;
}

/** Walk the repo at `dir` and read its files: readSource, but for making the tree. */
export async function scanRepo(dir: string, options: ReadSourceOptions = {}): Promise<Scan> {
  const root = await resolveRoot(dir);
  // Read before the first stat: the index's snapshot starts now.
  const index = options.statIndex ? (options.freshIndex ? StatIndex.empty() : await StatIndex.read(root)) : undefined;
  const diagnostics: Diagnostic[] = [];
  const found: Array<{ rel: string; abs: string; kind: Kind }> = [];
  // Files lessons may reference (images, PDFs…): only their digests are read.
  const others: Array<{ rel: string; abs: string }> = [];
  const linked = new Map<string, string>();
  const refused = new Map<string, RefusedFile>();
  const visited = new Set<string>();
  const repoPath = (real: string) => path.relative(root, real).split(path.sep).join('/');

  // `absDir` is always a real path (links are resolved before walking), so `visited` catches
  // a link back to any folder already walked, however it was reached.
  const walk = async (absDir: string, relDir: string): Promise<void> => {
    visited.add(absDir);
    const entries = listFolder(absDir);
    if ('error' in entries) {
      diagnostics.push(diag('file/unreadable', relDir || '.', undefined, `cannot read the folder: ${reason(entries.error)}`));
      return;
    }
    // The folder's path once: a path.join per entry was a tenth of a memo hit's walk.
    const absPrefix = absDir.endsWith(path.sep) ? absDir : absDir + path.sep;
    for (const entry of entries) {
      const name = typeof entry.name === 'string' ? entry.name : utf8Name(entry.name);
      if (name === undefined) {
        const shown = new TextDecoder('utf-8').decode(entry.name as Buffer);
        const rel = relDir ? `${relDir}/${shown}` : shown;
        // Reported only where coursesync would look: a folder, or a file it would read.
        if (!shown.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink() || kindOf(rel, shown) !== undefined)) {
          diagnostics.push(diag('file/name-not-utf8', rel, undefined, `the name is not valid UTF-8 (bytes ${(entry.name as Buffer).toString('hex').replace(/(..)/g, '$1 ').trim()})`));
        }
        continue;
      }
      const rel = relDir ? `${relDir}/${name}` : name;
      const abs = absPrefix + name;
      let real = abs;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await resolveLink(abs);
        if (!target.ok) {
          // A dangling link is reported only when its name is one coursesync would read; a loop always.
          if (name.startsWith('.') || (!target.loop && kindOf(rel, name) === undefined)) continue;
          diagnostics.push(diag('repo/broken-symlink', rel, undefined, `symlink cannot be resolved: ${target.reason}`));
          continue;
        }
        if (!isInside(root, target.real)) {
          if (name.startsWith('.')) continue;
          diagnostics.push(diag('repo/symlink-outside', rel, undefined, 'symlink points outside the repo'));
          continue;
        }
        isDir = target.isDir;
        isFile = target.isFile;
        real = target.real;
        const realRel = `${repoPath(real)}${isDir ? '/' : ''}`;
        // A link into .git, .env, .coursesync or node_modules is never read: a lesson that
        // references it (or a file under it) is refused, and a lesson or YAML file is reported.
        if (privatePart(realRel) !== undefined && !name.startsWith('.')) {
          if (isFile && kindOf(rel, name) !== undefined) diagnostics.push(diag('repo/symlink-private', rel, undefined, `symlink points to ${realRel}, inside a hidden folder or node_modules`));
          else refused.set(rel, { kind: 'link', real: realRel, why: 'private' });
          continue;
        }
        // A link to a folder that holds it is a loop: reported (found by the hostile-input test).
        if (isDir && isInside(real, absDir) && !name.startsWith('.')) {
          diagnostics.push(diag('repo/broken-symlink', rel, undefined, 'symlink loop: it points to a folder that contains it'));
          continue;
        }
        // Kept so that `ignore:` can refuse a link into an ignored folder, walked here or not.
        if (isDir) linked.set(rel, realRel);
        // A link to a folder already walked elsewhere would read its files twice.
        if (isDir && visited.has(real)) continue;
      }
      if (isDir) {
        if (name.startsWith('.') || IGNORED_DIRS.has(name)) continue;
        await walk(real, rel);
      } else if (isFile) {
        const kind = kindOf(rel, name);
        if (name.startsWith('.')) continue;
        if (!kind) {
          if (hasUnsafeChar(rel)) continue;
          others.push({ rel, abs: real });
          // `absDir` is real, so only a link (this one or a folder's) makes the two differ.
          if (repoPath(real) !== rel) linked.set(rel, repoPath(real));
          continue;
        }
        // Found by the secrets test: a newline in a path printed in a plan or log could start a
        // GitHub workflow command (`::error::…`) of its own.
        if (hasUnsafeChar(rel)) diagnostics.push(diag('file/control-char-name', rel, undefined, 'the path holds a control character (a newline, a carriage return, an escape, a bidirectional control)'));
        else found.push({ rel, abs, kind });
      }
    }
  };
  await walk(root, '');

  // Lessons whose text (once read) is their bytes: their blob ids need no second read.
  const verbatim = new Set<string>();
  const read = found.map((f) => (f.kind === 'lesson' ? readLesson(f.abs, f.rel, diagnostics, index, verbatim, options.digestsOnly === true) : readOne(f.abs, f.rel, diagnostics)));
  const limit = pLimit(32);
  const digests = await Promise.all(others.map((f) => limit(() => digestOf(f.abs, f.rel, index))));
  const scan: Scan = { diagnostics, found, read, others, digests, linked, refused, verbatim };
  if (index && options.writeIndexLater) scan.writeIndex = () => index.write(root);
  else if (index) await index.write(root);
  return scan;
}

/**
 * A scan as it crosses threads: columns of text joined by NUL (no path holds one), not an object
 * per file (structured-cloning 10,000 objects cost ~30 ms on the thread receiving them), and
 * each lesson as its digest only (a Lesson's bytes and getters do not cross).
 */
export interface PortableScan {
  diagnostics: Diagnostic[];
  linked: Map<string, string>;
  refused: Map<string, RefusedFile>;
  /** Per file found: its repo path, absolute path, kind (its first letter), and for a lesson its digest ('' when not read). */
  rels: string;
  abs: string;
  kinds: string;
  lessonDigests: string;
  /** Per file found that is not a lesson: what its read gave. */
  files: Array<SourceFile | undefined>;
  otherRels: string;
  otherAbs: string;
  digests: Array<string | RefusedFile | undefined>;
  verbatim: string;
}

const KINDS: Record<string, Kind> = { c: 'config', p: 'program', s: 'section', l: 'lesson' };

/** A scan made portable (see PortableScan). */
export function portableScan(scan: Scan): PortableScan {
  const { diagnostics, linked, refused, found, read, others, digests } = scan;
  const isLesson = (i: number) => found[i]!.kind === 'lesson';
  return {
    diagnostics,
    linked,
    refused,
    rels: found.map((f) => f.rel).join('\0'),
    abs: found.map((f) => f.abs).join('\0'),
    kinds: found.map((f) => f.kind[0]).join(''),
    lessonDigests: read.map((file, i) => (isLesson(i) ? (file?.digest ?? '') : '')).join('\0'),
    files: read.map((file, i) => (isLesson(i) ? undefined : file)),
    otherRels: others.map((f) => f.rel).join('\0'),
    otherAbs: others.map((f) => f.abs).join('\0'),
    digests,
    verbatim: [...scan.verbatim].join('\0'),
  };
}

/** A scan received from another thread (portableScan): its lessons read, and checked against their digests, on first access. */
export function receivedScan(portable: PortableScan): Scan {
  const split = (text: string) => (text === '' ? [] : text.split('\0'));
  const rels = split(portable.rels);
  const abs = split(portable.abs);
  const lessonDigests = portable.lessonDigests.split('\0');
  const otherAbs = split(portable.otherAbs);
  const verbatim = new Set(split(portable.verbatim));
  const found = rels.map((rel, i) => ({ rel, abs: abs[i]!, kind: KINDS[portable.kinds[i]!]! }));
  const read = found.map((f, i) => (f.kind !== 'lesson' ? portable.files[i] : lessonDigests[i] ? lazyLesson(f.abs, f.rel, lessonDigests[i]!, verbatim) : undefined));
  const others = split(portable.otherRels).map((rel, i) => ({ rel, abs: otherAbs[i]! }));
  return { diagnostics: portable.diagnostics, found, read, others, digests: portable.digests, linked: portable.linked, refused: portable.refused, verbatim };
}

/** The tree of a scan: files by kind, sorted by path. */
export function treeOf(scan: Scan): SourceTree {
  const { diagnostics, found, read, others, digests, linked, refused, verbatim } = scan;
  const files = new Map<string, string>();
  others.forEach((f, i) => {
    const digest = digests[i];
    if (typeof digest === 'string') files.set(f.rel, digest);
    else if (digest !== undefined) refused.set(f.rel, digest);
  });
  const tree: SourceTree = { programs: [], sections: [], lessons: [], diagnostics, files, readText: textReader(others, files) };
  if (linked.size > 0) tree.linked = linked;
  if (refused.size > 0) tree.refused = refused;
  found.forEach((f, i) => {
    const file = read[i];
    if (!file) return;
    if (f.kind === 'config') tree.config = file;
    else if (f.kind === 'program') tree.programs.push(file);
    else if (f.kind === 'section') tree.sections.push(file);
    else tree.lessons.push(file as LessonSource);
  });
  // By path, made on the first question (a plan asks only for the lessons it changes, if any).
  let lessons: Map<string, LessonSource> | undefined;
  tree.verbatimText = (rel) => (verbatim.has(rel) ? (lessons ??= new Map(tree.lessons.map((l) => [l.path, l]))).get(rel)!.text : undefined);
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  tree.programs.sort(byPath);
  tree.sections.sort(byPath);
  tree.lessons.sort(byPath);
  return tree;
}

/** A lesson file with its front-matter split on first access: a lesson the state knows unchanged is never split. */
function toLesson(file: SourceFile): LessonSource {
  return lessonOf(file.path, file.digest, () => file.text);
}

/** A lesson whose text comes from `textOf` and whose front-matter is split, each once, on first access. */
function lessonOf(path: string, digest: string, textOf: () => string): LessonSource {
  return new Lesson(path, digest, textOf);
}

/**
 * A lesson file, its text and parts made on first access. A class, not an object literal with
 * getters and closures: 10,000 of those were a memo hit's largest allocation.
 */
class Lesson implements LessonSource {
  private textNow: string | undefined;
  private split: ReturnType<typeof splitFrontMatter> | undefined;

  constructor(
    readonly path: string,
    readonly digest: string,
    private readonly textOf: () => string,
  ) {}

  get text(): string {
    return (this.textNow ??= this.textOf());
  }

  private parts(): ReturnType<typeof splitFrontMatter> {
    return (this.split ??= splitFrontMatter(this.text));
  }

  get frontMatter(): LessonSource['frontMatter'] {
    return this.parts().frontMatter;
  }

  get frontMatterUnclosed(): LessonSource['frontMatterUnclosed'] {
    return this.parts().frontMatterUnclosed;
  }

  get body(): LessonSource['body'] {
    return this.parts().body;
  }
}

/**
 * The file's stat data, or undefined when it cannot be had. Synchronous on purpose: a stat of a
 * file the walk just listed is a few µs, and through the thread pool 10,000 of them cost ~10×
 * the time in callbacks and promises (a --cpu-prof of a warm plan).
 */
function statNow(abs: string): Stats | undefined {
  try {
    // A plain stat: numbers, which is what the index compares (stat-index.ts says why that is exact enough).
    return statSync(abs, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * A lesson file: from the stat index when it vouches for the file (text read on first access),
 * else read and hashed now, its bytes kept and decoded on first access: a plan needs the text
 * of the lessons that changed, and 10,000 texts decoded during the walk were most of a fresh
 * checkout's garbage collection (bytes in an arena are off the heap: nothing to copy). With
 * `digestsOnly`, the bytes are read over by the next lesson's, and the text cannot be had.
 */
function readLesson(abs: string, rel: string, diagnostics: Diagnostic[], index: StatIndex | undefined, verbatim: Set<string>, digestsOnly: boolean): LessonSource | undefined {
  if (!index) {
    const file = readOne(abs, rel, diagnostics, verbatim);
    return file && toLesson(file);
  }
  // No entry (a fresh checkout): the read's own fstat is the file's one stat.
  if (index.has(rel)) {
    const stats = statNow(abs);
    const digest = stats && index.lookup(rel, stats);
    if (digest !== undefined) return lazyLesson(abs, rel, digest, verbatim);
  }
  if (digestsOnly) {
    const read = readLessonBytes(abs, rel, diagnostics, index, verbatim, scratchRoom);
    return read && lessonOf(rel, read.digest, textNotKept);
  }
  const read = readLessonBytes(abs, rel, diagnostics, index, verbatim, arenaRoom);
  return read && lessonOf(rel, read.digest, () => (decodeText(read.bytes, rel) as { text: string }).text);
}

/** The text of a lesson read for its digest alone (ReadSourceOptions.digestsOnly): asking for it is a bug. */
const textNotKept = (): string => {
  throw new Error('this lesson was read for its digest only (digestsOnly): its text was not kept');
};

/** Where the bytes of lessons read now are kept: 1 MB blocks, filled one after the other. */
const ARENA_BLOCK = 1 << 20;
let arena = Buffer.allocUnsafeSlow(ARENA_BLOCK);
let arenaUsed = 0;

/** Room for `size` bytes in the arena, taken for good (a block of its own past a block's size). */
function arenaRoom(size: number): Buffer {
  if (arenaUsed + size > arena.length) {
    arena = Buffer.allocUnsafeSlow(Math.max(ARENA_BLOCK, size));
    arenaUsed = 0;
  }
  arenaUsed += size;
  return arena.subarray(arenaUsed - size, arenaUsed);
}

/**
 * Room for `size` bytes in one buffer every lesson read for its digest alone is read into,
 * grown as needed, read over by the next. Fresh memory for each file's bytes cost more than
 * the reads themselves: the kernel faults its pages in as it copies (30 MB at 10,000 lessons:
 * ~200 ms of `read` in a worker's profile, ~60 into pages already in use).
 */
let scratch = Buffer.allocUnsafeSlow(1 << 16);
function scratchRoom(size: number): Buffer {
  if (size > scratch.length) scratch = Buffer.allocUnsafeSlow(size);
  return scratch.subarray(0, size);
}

/**
 * Read, hash and check the lesson file at `abs` as `readOne` does (the same diagnostics), and
 * record it in the index. Its digest and bytes (in `room`, checked to decode as text), or
 * undefined when the file cannot be a lesson.
 */
function readLessonBytes(abs: string, rel: string, diagnostics: Diagnostic[], index: StatIndex, verbatim: Set<string>, room: (size: number) => Buffer): { digest: string; bytes: Buffer } | undefined {
  const read = readBytes(abs, rel, diagnostics, room);
  if (!read) return undefined;
  const { bytes, info } = read;
  const digest = sha256(bytes);
  // Text when it is UTF-8 with no NUL (what decodeText asks), checked on the bytes: no string made yet.
  if (!isUtf8(bytes) || bytes.indexOf(0) !== -1) {
    const decoded = decodeText(bytes, rel);
    if ('problem' in decoded) diagnostics.push(decoded.problem);
    return undefined;
  }
  // Only files that read cleanly are indexed: a lazy read never meets a problem a read would have reported.
  index.record(rel, info, digest);
  if (!(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) && bytes.indexOf(0x0d) === -1) verbatim.add(rel);
  return { digest, bytes };
}

/**
 * A lesson whose digest is known and whose text is read (synchronously: compile/ is) on first
 * access. Bytes that no longer have that digest changed after the stat: the run stops rather
 * than compile other bytes than the digest says.
 */
function lazyLesson(abs: string, rel: string, digest: string, verbatim: Set<string>): LessonSource {
  return lessonOf(rel, digest, () => {
    let bytes: Buffer;
    try {
      bytes = readFileSync(abs);
    } catch (e) {
      throw failure('source/changed-while-reading', { file: rel, what: `it can no longer be read (${reason(e)})` });
    }
    const decoded = sha256(bytes) === digest ? decodeText(bytes, rel) : undefined;
    if (!decoded || 'problem' in decoded) throw failure('source/changed-while-reading', { file: rel, what: CHANGED });
    if (decoded.verbatim) verbatim.add(rel);
    return decoded.text;
  });
}

/**
 * Reads the text of a file that is not a lesson (a listing an include takes), synchronously
 * (compile/ is) and only when asked. Bytes that no longer have the digest read changed after
 * the walk: the run stops rather than compile other bytes than the digest says.
 */
function textReader(others: ReadonlyArray<{ rel: string; abs: string }>, digests: ReadonlyMap<string, string>): (rel: string) => string | undefined {
  const absOf = new Map(others.map((f) => [f.rel, f.abs]));
  return (rel) => {
    const abs = absOf.get(rel);
    const digest = digests.get(rel);
    if (abs === undefined || digest === undefined) return undefined;
    let bytes: Buffer;
    try {
      if (statSync(abs).size > MAX_FILE_BYTES) return undefined;
      bytes = readFileSync(abs);
    } catch {
      return undefined;
    }
    if (sha256(bytes) !== digest) throw failure('source/changed-while-reading', { file: rel, what: CHANGED });
    const decoded = decodeText(bytes, rel);
    return 'problem' in decoded ? undefined : decoded.text;
  };
}

/** Files up to this size are read whole to be hashed: a stream costs more than the read below it. */
const READ_WHOLE_BYTES = 1024 * 1024;

/**
 * sha256 of a file: read whole when small (an image), streamed when large (a referenced
 * video or PDF); undefined when unreadable; a file over the asset limit is not read at all.
 */
async function digestOf(abs: string, rel: string, index: StatIndex | undefined): Promise<string | RefusedFile | undefined> {
  const stats = statNow(abs);
  if (stats && stats.size > MAX_ASSET_BYTES) return { kind: 'too-large', bytes: stats.size };
  const known = stats && index?.lookup(rel, stats);
  if (known !== undefined) return known;
  const digest = stats?.isFile() && stats.size <= READ_WHOLE_BYTES ? wholeDigest(abs) : await streamedDigest(abs);
  // The stat was taken before the bytes were read: a change while reading shows next time.
  if (digest !== undefined && stats && stats.isFile() && index) index.record(rel, stats, digest);
  return digest;
}

/** sha256 of a small file read in one call; undefined when unreadable. */
function wholeDigest(abs: string): string | undefined {
  try {
    return sha256(readFileSync(abs));
  } catch {
    return undefined;
  }
}

/** sha256 of a file read as a stream; undefined when unreadable. */
function streamedDigest(abs: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const hash = createHash('sha256');
    createReadStream(abs)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', () => resolve(undefined));
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

const names = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The entries of the folder `abs`, listed synchronously (a promise per folder is pure overhead
 * for a listing). Names come as text; a folder holding a name that is not UTF-8 (decoded with
 * U+FFFD, so not found again under that name) is listed again as bytes, so that name can be
 * reported with its bytes.
 */
function listFolder(abs: string): Array<Dirent<string> | Dirent<Buffer>> | { error: unknown } {
  try {
    const entries = readdirSync(abs, { withFileTypes: true });
    for (const entry of entries) if (entry.name.includes('\uFFFD')) return readdirSync(abs, { withFileTypes: true, encoding: 'buffer' });
    return entries;
  } catch (e) {
    return { error: e };
  }
}

/** A file name's text, or undefined when its bytes are not UTF-8. */
function utf8Name(bytes: Buffer): string | undefined {
  try {
    // One decoder for every name: without `stream`, each decode starts afresh.
    return names.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Read one course file. Synchronous on purpose (like statNow): these are small files the walk
 * just listed, and through promises and the thread pool 10,000 of them cost about a second of
 * this thread's time in open/fstat/read/close callbacks (a --cpu-prof of a fresh-checkout plan).
 */
function readOne(abs: string, rel: string, diagnostics: Diagnostic[], verbatim?: Set<string>): SourceFile | undefined {
  const read = readBytes(abs, rel, diagnostics);
  if (!read) return undefined;
  const digest = sha256(read.bytes);
  const decoded = decodeText(read.bytes, rel);
  if ('problem' in decoded) {
    diagnostics.push(decoded.problem);
    return undefined;
  }
  if (decoded.verbatim) verbatim?.add(rel);
  return { path: rel, text: decoded.text, digest };
}

/**
 * The bytes of the course file at `abs` (into `room(size)` when given) and its stat, or
 * undefined with a diagnostic when it is too large or cannot be read.
 */
function readBytes(abs: string, rel: string, diagnostics: Diagnostic[], room?: (size: number) => Buffer): { bytes: Buffer; info: Stats } | undefined {
  try {
    // One open file for the size check and the read: a separate stat costs a path lookup per file.
    const fd = openSync(abs, 'r');
    try {
      const info = fstatSync(fd);
      if (info.size > MAX_FILE_BYTES) {
        diagnostics.push(diag('file/too-large', rel, undefined, `file is ${info.size} bytes, over the limit of ${MAX_FILE_BYTES}`));
        return undefined;
      }
      return { bytes: readOpenFile(fd, info.size, info.size === 0 ? undefined : room?.(info.size)), info };
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    diagnostics.push(diag('file/unreadable', rel, undefined, `cannot read the file: ${reason(e)}`));
    return undefined;
  }
}

/**
 * The bytes of the open file `fd`, whose size the caller has just taken with fstat: what
 * readFileSync(fd) reads (up to that size, less if the file shrank; to its end when the size
 * is 0), without the second fstat it would make (one stat per file: 10,000 fewer syscalls at
 * 10,000 lessons).
 */
function readOpenFile(fd: number, size: number, into?: Buffer): Buffer {
  if (size === 0) return readFileSync(fd);
  const bytes = into ?? Buffer.allocUnsafe(size);
  let length = 0;
  while (length < size) {
    const read = readSync(fd, bytes, length, size - length, null);
    if (read === 0) break;
    length += read;
  }
  return length < bytes.length ? bytes.subarray(0, length) : bytes;
}

/** A file's text (BOM dropped, line endings LF), or the diagnostic saying why its bytes are not text. */
function decodeText(bytes: Buffer, rel: string): { text: string; verbatim: boolean } | { problem: Diagnostic } {
  let text: string;
  try {
    // The decoder drops a leading BOM (ignoreBOM: false means "consume it").
    text = utf8.decode(bytes);
  } catch {
    return { problem: diag('file/not-utf8', rel, firstInvalidUtf8(bytes), 'file is not valid UTF-8') };
  }
  const nul = text.indexOf('\0');
  if (nul !== -1) return { problem: diag('file/binary', rel, positionOf(text, nul), 'file contains a NUL byte: it is not a text file') };
  // No BOM dropped and no line ending changed: the text encodes back to the very bytes (valid UTF-8 round-trips).
  const verbatim = !(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) && !text.includes('\r');
  return { text: verbatim ? text : text.replace(/\r\n?/g, '\n'), verbatim };
}

/** Line and column of the first byte that breaks UTF-8 decoding. */
function firstInvalidUtf8(bytes: Uint8Array): { line: number; column: number } {
  const decodes = (n: number, stream: boolean) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream });
      return true;
    } catch {
      return false;
    }
  };
  // Longest prefix that decodes when more bytes may follow (monotonic, so binary search works).
  let lo = 0;
  let hi = bytes.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (decodes(mid, true)) lo = mid;
    else hi = mid - 1;
  }
  // That prefix may end inside the bad sequence: back up to where a complete prefix decodes.
  let bad = lo;
  while (bad > 0 && lo - bad < 4 && !decodes(bad, false)) bad--;
  const prefix = new TextDecoder('utf-8').decode(bytes.subarray(0, bad));
  return positionOf(prefix, prefix.length);
}

function positionOf(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: index - start + 1 };
}

async function resolveRoot(dir: string): Promise<string> {
  try {
    const real = await realpath(dir);
    if (!(await stat(real)).isDirectory()) throw failure('source/not-a-folder', { dir });
    return real;
  } catch (e) {
    if (e instanceof CoursesyncError) throw e;
    throw failure('source/not-found', { dir, reason: reason(e) });
  }
}

type LinkTarget = { ok: true; real: string; isDir: boolean; isFile: boolean } | { ok: false; loop: boolean; reason: string };

async function resolveLink(abs: string): Promise<LinkTarget> {
  try {
    const real = await realpath(abs);
    const info = await stat(real);
    // A link to a FIFO or a device is neither: reading it could block for ever.
    return { ok: true, real, isDir: info.isDirectory(), isFile: info.isFile() };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { ok: false, loop: true, reason: 'it is a symlink loop' };
    if (code === 'ENOENT') return { ok: false, loop: false, reason: 'its target does not exist' };
    return { ok: false, loop: true, reason: reason(e) };
  }
}

function isInside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function reason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code ?? (e instanceof Error ? e.message : String(e));
}
