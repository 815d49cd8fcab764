/**
 * Walk a course repo and read the files coursesync cares about (I/O): coursesync.yaml,
 * program.yaml, section.yaml and *.md. Hidden folders (.git, .coursesync), node_modules and
 * symlinks that leave the repo are never followed; a symlink loop is reported, not walked.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { CoursesyncError } from '../diagnostics/errors.js';
import { diag } from '../compile/codes.js';
import type { LessonSource, SourceFile, SourceTree } from '../model/source-tree.js';
import { splitFrontMatter } from './split-front-matter.js';

/** Files larger than this are reported, not read: no lesson needs 10 MB of text. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const IGNORED_DIRS = new Set(['node_modules']);
const CONTROL_CHAR = /[\u0000-\u001f\u007f-\u009f]/;

type Kind = 'config' | 'program' | 'section' | 'lesson';

function kindOf(rel: string, name: string): Kind | undefined {
  if (name === 'program.yaml') return 'program';
  if (name === 'section.yaml') return 'section';
  if (name === 'coursesync.yaml' && rel === name) return 'config';
  if (name.toLowerCase().endsWith('.md')) return 'lesson';
  return undefined;
}

/**
 * Read the course repo at `dir`. Problems with single files become diagnostics; a `dir` that
 * does not exist or is not a folder is a CoursesyncError.
 */
export async function readSource(dir: string): Promise<SourceTree> {
  const root = await resolveRoot(dir);
  const diagnostics: Diagnostic[] = [];
  const found: Array<{ rel: string; abs: string; kind: Kind }> = [];
  // Files lessons may reference (images, PDFs…): only their digests are read.
  const others: Array<{ rel: string; abs: string }> = [];
  const visited = new Set<string>();

  // `absDir` is always a real path (links are resolved before walking), so `visited` catches
  // a link back to any folder already walked, however it was reached.
  const walk = async (absDir: string, relDir: string): Promise<void> => {
    visited.add(absDir);
    let entries;
    try {
      // As bytes: a name that is not UTF-8 would otherwise be decoded with U+FFFD and then not
      // be found under that name (ENOENT).
      entries = await readdir(absDir, { withFileTypes: true, encoding: 'buffer' });
    } catch (e) {
      diagnostics.push(diag('file/unreadable', relDir || '.', undefined, `cannot read the folder: ${reason(e)}`));
      return;
    }
    for (const entry of entries) {
      const name = utf8Name(entry.name);
      if (name === undefined) {
        const shown = new TextDecoder('utf-8').decode(entry.name);
        const rel = relDir ? `${relDir}/${shown}` : shown;
        // Reported only where coursesync would look: a folder, or a file it would read.
        if (!shown.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink() || kindOf(rel, shown) !== undefined)) {
          diagnostics.push(diag('file/name-not-utf8', rel, undefined, `the name is not valid UTF-8 (bytes ${entry.name.toString('hex').replace(/(..)/g, '$1 ').trim()})`));
        }
        continue;
      }
      const rel = relDir ? `${relDir}/${name}` : name;
      const abs = path.join(absDir, name);
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
        // A link to a folder that holds it is a loop: reported (found by the hostile-input test).
        if (isDir && isInside(real, absDir) && !name.startsWith('.')) {
          diagnostics.push(diag('repo/broken-symlink', rel, undefined, 'symlink loop: it points to a folder that contains it'));
          continue;
        }
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
          if (!CONTROL_CHAR.test(rel)) others.push({ rel, abs: real });
          continue;
        }
        // Found by the secrets test: a newline in a path printed in a plan or log could start a
        // GitHub workflow command (`::error::…`) of its own.
        if (CONTROL_CHAR.test(rel)) diagnostics.push(diag('file/control-char-name', rel, undefined, 'the path holds a control character (a newline, a carriage return, an escape)'));
        else found.push({ rel, abs, kind });
      }
    }
  };
  await walk(root, '');

  const limit = pLimit(32);
  const read = await Promise.all(found.map((f) => limit(() => readOne(f.abs, f.rel, diagnostics))));
  const digests = await Promise.all(others.map((f) => limit(() => digestOf(f.abs))));
  const files = new Map<string, string>();
  others.forEach((f, i) => {
    const digest = digests[i];
    if (digest !== undefined) files.set(f.rel, digest);
  });
  const tree: SourceTree = { programs: [], sections: [], lessons: [], diagnostics, files };
  found.forEach((f, i) => {
    const file = read[i];
    if (!file) return;
    if (f.kind === 'config') tree.config = file;
    else if (f.kind === 'program') tree.programs.push(file);
    else if (f.kind === 'section') tree.sections.push(file);
    else tree.lessons.push(toLesson(file));
  });
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  tree.programs.sort(byPath);
  tree.sections.sort(byPath);
  tree.lessons.sort(byPath);
  return tree;
}

function toLesson(file: SourceFile): LessonSource {
  return { ...file, ...splitFrontMatter(file.text) };
}

/** sha256 of a file, streamed (a referenced video or PDF may be large); undefined when unreadable. */
function digestOf(abs: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const hash = createHash('sha256');
    createReadStream(abs)
      .on('data', (chunk) => hash.update(chunk))
      .on('end', () => resolve(hash.digest('hex')))
      .on('error', () => resolve(undefined));
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** A file name's text, or undefined when its bytes are not UTF-8. */
function utf8Name(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

async function readOne(abs: string, rel: string, diagnostics: Diagnostic[]): Promise<SourceFile | undefined> {
  try {
    // One open file for the size check and the read: a separate stat costs a path lookup per file.
    const handle = await open(abs, 'r');
    let bytes: Buffer;
    try {
      const info = await handle.stat();
      if (info.size > MAX_FILE_BYTES) {
        diagnostics.push(diag('file/too-large', rel, undefined, `file is ${info.size} bytes, over the limit of ${MAX_FILE_BYTES}`));
        return undefined;
      }
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
    const digest = createHash('sha256').update(bytes).digest('hex');
    let text: string;
    try {
      // The decoder drops a leading BOM (ignoreBOM: false means "consume it").
      text = utf8.decode(bytes);
    } catch {
      const at = firstInvalidUtf8(bytes);
      diagnostics.push(diag('file/not-utf8', rel, at, 'file is not valid UTF-8'));
      return undefined;
    }
    const nul = text.indexOf('\0');
    if (nul !== -1) {
      const at = positionOf(text, nul);
      diagnostics.push(diag('file/binary', rel, at, 'file contains a NUL byte: it is not a text file'));
      return undefined;
    }
    return { path: rel, text: text.replace(/\r\n?/g, '\n'), digest };
  } catch (e) {
    diagnostics.push(diag('file/unreadable', rel, undefined, `cannot read the file: ${reason(e)}`));
    return undefined;
  }
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
