/**
 * Read a file only when it is a regular file (I/O). Opened without blocking and checked
 * before reading: a FIFO (or a device) in the place of a state, lock or cache file would
 * otherwise hang the read until something writes to it.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/** Thrown for a path that exists but is not a regular file; `kind` says what it is. */
export class NotRegularFileError extends Error {
  readonly code = 'ENOTREG';
  constructor(
    readonly file: string,
    readonly kind: string,
  ) {
    super(`${file} is ${kind}, not a regular file`);
    this.name = 'NotRegularFileError';
  }
}

/** Open a file for reading only when it is a regular file; the caller closes the handle. */
export async function openRegularFile(file: string): Promise<FileHandle> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new NotRegularFileError(file, info.isFIFO() ? 'a FIFO (named pipe)' : info.isDirectory() ? 'a folder' : info.isSocket() ? 'a socket' : 'a device');
    }
    return handle;
  } catch (e) {
    await handle.close();
    throw e;
  }
}

export async function readRegularFile(file: string): Promise<string> {
  const handle = await openRegularFile(file);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
