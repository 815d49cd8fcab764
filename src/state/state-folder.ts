/**
 * The state folder `.coursesync/` must be a folder this process can write before apply sends
 * anything: the state is written around every call, so a folder it cannot write would fail
 * after the first request, with the school changed and nothing recorded. Checked once, up
 * front, with what the file system says for this process (root may write where others may not;
 * a read-only mount refuses everyone).
 */
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { failure } from '../diagnostics/error-codes/index.js';
import type { CoursesyncError } from '../diagnostics/errors.js';
import { stateFolderOf } from '../model/state/schema.js';

/** The error for a state folder that cannot be made or written, by the system's error code. */
export function stateFolderError(folder: string, error: NodeJS.ErrnoException): CoursesyncError {
  const code = error.code ?? '';
  const cause =
    code === 'EEXIST' || code === 'ENOTDIR' ? 'not-a-folder' : code === 'EROFS' ? 'read-only' : code === 'EACCES' || code === 'EPERM' ? 'permission' : 'other';
  return failure('state/folder-unwritable', { folder, cause, detail: error.message }, { cause: error });
}

/**
 * Make sure `<dir>/.coursesync/` exists and this process may create files in it.
 * @throws CoursesyncError `state/folder-unwritable`
 */
export async function ensureWritableStateFolder(dir: string, environment?: string): Promise<string> {
  const folder = join(dir, stateFolderOf(environment));
  try {
    await mkdir(folder, { recursive: true });
    await access(folder, constants.W_OK | constants.X_OK);
  } catch (e) {
    throw stateFolderError(folder, e as NodeJS.ErrnoException);
  }
  return folder;
}
