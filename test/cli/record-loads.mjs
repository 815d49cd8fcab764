/**
 * A preload for the built CLI (`NODE_OPTIONS=--import=<this file>`): every file module the run
 * loads is appended, once loaded (a file that failed to load is not), as a file: URL per line,
 * to the file named by COURSESYNC_LOAD_LOG; a worker's loads too.
 * startup.test.ts reads it to see which command modules a run loaded.
 */
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  const loaded = await next(url, context);
  if (url.startsWith('file:')) appendFileSync(process.env.COURSESYNC_LOAD_LOG, url + '\\n');
  return loaded;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
