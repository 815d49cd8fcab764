/**
 * The cache files under `.coursesync/cache/` (I/O): a JSON object of a version tag and a map of
 * entries, one entry per line:
 *
 *   {"renderer":"…","entries":{
 *   "key":value,
 *   "key":value
 *   }}
 *
 * Written in chunks to a temp file and renamed into place, so a reader never sees half a file;
 * read a line at a time, so neither side ever holds the whole file as one string (at 100,000
 * lessons the lesson cache is hundreds of MB: held whole, with its parsed copy, it was most of a
 * first apply's peak memory, and near V8's limit on a string's length). JSON never writes a
 * raw newline inside a value, so a line is an entry. A cache is only ever a speed-up: anything
 * missing, unreadable or not in this shape is ignored.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { dirname } from 'node:path';
import { openRegularFile } from '../state/read-regular-file.js';

/**
 * Write `{"<tagName>": tag, "entries": {key: value, …}}` to `file` atomically. Returns false
 * when it could not be written (read-only checkout, full disk): a cache is only ever a speed-up.
 */
export async function writeCacheFile(file: string, tagName: string, tag: string, entries: ReadonlyMap<string, unknown>): Promise<boolean> {
  return writeCacheText(file, entryLines(tagName, tag, entries));
}

/** The text of a cache file, in chunks of about 1 MB. */
function* entryLines(tagName: string, tag: string, entries: ReadonlyMap<string, unknown>): Generator<string> {
  let chunk = `{${JSON.stringify(tagName)}:${JSON.stringify(tag)},"entries":{`;
  let first = true;
  for (const [key, value] of entries) {
    chunk += `${first ? '\n' : ',\n'}${JSON.stringify(key)}:${JSON.stringify(value)}`;
    first = false;
    if (chunk.length > 1 << 20) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk + '\n}}\n';
}

/**
 * Write `parts` to `file` atomically: to a temp file, renamed into place, so a reader never
 * sees half a file. False when it could not be written (a cache is only ever a speed-up).
 */
export async function writeCacheText(file: string, parts: Iterable<string>): Promise<boolean> {
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(dirname(file), { recursive: true });
    const handle = await open(temp, 'w');
    try {
      for (const part of parts) await handle.write(part);
    } finally {
      await handle.close();
    }
    await rename(temp, file);
    return true;
  } catch {
    await rm(temp, { force: true }).catch(() => undefined);
    return false;
  }
}

/**
 * Read the cache file `file` written by writeCacheFile. `accept` is shown its tag first; when
 * it says yes, `onEntry` is told each entry in order. False when the file is missing,
 * unreadable, not a regular file (a FIFO would hang the read), not in this shape, or of a tag
 * not accepted. A file written whole on one line (an older coursesync) is read whole. An entry
 * line that does not parse ends the read there; the entries before it stand (each reader
 * checks its entries anyway).
 */
export async function readCacheFile(file: string, tagName: string, accept: (tag: string) => boolean, onEntry: (key: string, value: unknown) => void): Promise<boolean> {
  let handle;
  try {
    handle = await openRegularFile(file);
  } catch {
    return false;
  }
  try {
    let head = true;
    // Lines are taken from 1 MB chunks, and a chunk's entries parsed as one object: a promise
    // and a JSON.parse per line (readLines) cost ~10× that on a 10,000-entry file.
    for await (let lines of chunkLines(handle)) {
      if (head) {
        head = false;
        const top = parseObject(lines[0]!.endsWith('{') ? `${lines[0]}}}` : lines[0]!);
        const tag = top?.[tagName];
        if (typeof tag !== 'string' || typeof top?.entries !== 'object' || top.entries === null || !accept(tag)) return false;
        // One line holds the whole file (an older writer): its entries are in it.
        for (const [key, value] of Object.entries(top.entries)) onEntry(key, value);
        lines = lines.slice(1);
      }
      const end = lines.indexOf('}}');
      const body = end === -1 ? lines : lines.slice(0, end);
      if (!entriesOf(body, onEntry) || end !== -1) return true;
    }
    return !head;
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

/**
 * Tell `onEntry` the entries of these lines (`"key":value,` each), parsed together; when that
 * fails, line by line up to the first that does not parse. False when one did not.
 */
function entriesOf(lines: string[], onEntry: (key: string, value: unknown) => void): boolean {
  if (lines.length === 0) return true;
  const joined = lines.join('\n');
  const all = parseObject(`{${joined.endsWith(',') ? joined.slice(0, -1) : joined}}`);
  if (all !== undefined) {
    for (const [key, value] of Object.entries(all)) onEntry(key, value);
    return true;
  }
  for (const line of lines) {
    const entry = parseObject(`{${line.endsWith(',') ? line.slice(0, -1) : line}}`);
    if (entry === undefined) return false;
    for (const [key, value] of Object.entries(entry)) onEntry(key, value);
  }
  return true;
}

/** The file's lines, a chunk's worth at a time (the last line of a chunk waits for the next). */
async function* chunkLines(handle: FileHandle): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.allocUnsafe(1 << 20);
  let rest = '';
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    const lines = (rest + decoder.write(buffer.subarray(0, bytesRead))).split('\n');
    rest = lines.pop()!;
    if (lines.length > 0) yield lines;
  }
  rest += decoder.end();
  if (rest !== '') yield [rest];
}

/** `text` parsed when it is a JSON object, else undefined. */
function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
