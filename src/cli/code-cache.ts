/**
 * The built commands' code through V8's code cache (I/O edge). Compiling the ~4 MB the
 * commands are made of is most of what a run costs before it reads a course (a third of a small
 * course's plan); V8 can keep what it compiled and take it back for a fraction of that. Node 20
 * keeps no such cache for ES modules (module.enableCompileCache is Node 22's), so the commands
 * are built as one CommonJS file (scripts/bundle-cli.mjs) and compiled here with `vm.Script`,
 * its cached code kept per build, Node version and command in the user's cache folder
 * (docs/development.md, "The code cache"). A cache is only ever a speed-up: one that cannot be
 * read, written or used is compiled anew, and never fails a run.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { Script } from 'node:vm';
import { timing } from '../load/timing.js';

/** The built file's first line names its build (a digest of the rest): `// coursesync build <16 hex>`. */
const BUILD_LINE = /^\/\/ coursesync build ([0-9a-f]{16})\n/;
/** Cache files kept, newest first (one per build, Node version, platform and command). */
const KEEP = 24;
/** A cache file's name (`<build>-<node version>-<platform>-<arch>-<command>.bin`), or one being written (`….<pid>.tmp`). */
const CACHE_FILE = /^[0-9a-f]{16}-v[0-9.]+-[a-z0-9]+-[a-z0-9]+-[a-z-]+\.bin(\.\d+\.tmp)?$/;
/** A cache file larger than this is not ours (the commands' whole code caches to ~5 MB). */
const MAX_BYTES = 64 * 1024 * 1024;

/** A cache file is the sha256 of the code V8 made, then that code. */
const DIGEST_BYTES = 32;
const digest = (bytes: Uint8Array): Buffer => createHash('sha256').update(bytes).digest();

type Wrapper = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

/** Where the cache lives: COURSESYNC_CODE_CACHE (`0`, `off` or `false`: no cache), else the user's cache folder. */
export function cacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  const set = env.COURSESYNC_CODE_CACHE;
  if (set !== undefined && set !== '') return ['0', 'off', 'false'].includes(set.toLowerCase()) ? undefined : set;
  // A relative XDG_CACHE_HOME is to be ignored (the XDG spec): it would put the cache in the
  // working folder, which is often a course repo.
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'coursesync', 'code');
}

/** The exports of the CommonJS file `file`, compiled from the code cached for `command` when there is some. */
export function loadCached<T>(file: string, command: string, env: NodeJS.ProcessEnv = process.env): T {
  const source = readFileSync(file, 'utf8');
  const build = BUILD_LINE.exec(source)?.[1];
  const folder = build === undefined ? undefined : cacheFolder(env);
  const cacheFile = folder === undefined ? undefined : join(folder, `${build}-${process.version}-${process.platform}-${process.arch}-${keyOf(command)}.bin`);
  const kept = cacheFile === undefined ? undefined : readOwn(cacheFile);
  const cachedData = kept instanceof Buffer ? kept : undefined;
  // The file is the module already wrapped in its function (scripts/bundle-cli.mjs).
  const script = new Script(source, { filename: file, cachedData });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  timing(`code cache: ${cacheFile === undefined ? 'off' : used ? 'used' : cachedData !== undefined ? 'rejected' : (kept ?? 'none')}`);
  // Written as the run ends, so it holds all the run compiled (a function compiles when first called).
  if (folder !== undefined && cacheFile !== undefined && !used) process.once('exit', () => keep(script, folder, cacheFile));
  const module = { exports: {} as T };
  (script.runInThisContext() as Wrapper)(module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** A command's name as part of a file name; anything else (an option first, a typo) shares one. */
const keyOf = (command: string): string => (/^[a-z][a-z-]{0,39}$/.test(command) ? command : 'other');

/**
 * The code kept in `file` when it is a regular file of this user's, of a sane size, whole
 * (its digest checks): V8 checks what it was made by, not that every byte is intact, and a
 * damaged cache would crash the process. `damaged` when the digest does not check.
 */
function readOwn(file: string): Buffer | 'damaged' | undefined {
  let fd: number | undefined;
  try {
    // Without blocking: a FIFO in its place would otherwise hold the run until something wrote to it.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    // Another user's file could hand this process code: only our own is taken.
    if (!st.isFile() || st.size === 0 || st.size > MAX_BYTES || (process.getuid !== undefined && st.uid !== process.getuid())) return undefined;
    const bytes = Buffer.allocUnsafe(st.size);
    let at = 0;
    while (at < st.size) {
      const n = readSync(fd, bytes, at, st.size - at, at);
      if (n === 0) return 'damaged';
      at += n;
    }
    const code = bytes.subarray(DIGEST_BYTES);
    return st.size > DIGEST_BYTES && digest(code).equals(bytes.subarray(0, DIGEST_BYTES)) ? code : 'damaged';
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Write what `script` compiled to `file`, whole (a temp file renamed over it), then drop the oldest beyond KEEP. */
function keep(script: Script, folder: string, file: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (process.getuid !== undefined && statSync(folder).uid !== process.getuid()) return;
    const code = script.createCachedData();
    // A new file only ('wx'): opening a FIFO left in its place to write would block.
    writeFileSync(temp, Buffer.concat([digest(code), code]), { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
    // Only files named as this module names them: the folder may be one of the user's own (COURSESYNC_CODE_CACHE=~).
    const files = readdirSync(folder)
      .filter((name) => CACHE_FILE.test(name))
      .map((name) => ({ path: join(folder, name), at: statSync(join(folder, name)).mtimeMs }));
    for (const old of files.sort((a, b) => b.at - a.at).slice(KEEP)) rmSync(old.path, { force: true });
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // Left for the next prune.
    }
  }
}
