/**
 * Checks a school base URL before any request: http(s) only, no credentials, no query or
 * fragment, and plain `http://` only for loopback hosts (docs/cli.md). Used by the client and by
 * the CLI's connection settings, so both refuse the same URLs with the same message.
 */
import { isLoopbackHost } from './loopback.js';
import { failure } from '../diagnostics/error-codes/index.js';

/**
 * Parse and check `value`. `source` says where it came from (`--base-url`,
 * `COURSESYNC_BASE_URL`, `coursesync.yaml school.base_url`) so the error points there.
 * Returns the URL without a trailing slash.
 * @throws CoursesyncError `connection/invalid-url` or `connection/insecure-url`
 */
export function checkBaseUrl(value: string, source = 'the base URL'): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw failure('connection/invalid-url', { source, problem: 'not-a-url', value });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw failure('connection/invalid-url', { source, problem: 'scheme', value: url.protocol });
  }
  if (url.username !== '' || url.password !== '') {
    throw failure('connection/invalid-url', { source, problem: 'credentials', value: '' });
  }
  if (url.search !== '' || url.hash !== '') {
    throw failure('connection/invalid-url', { source, problem: 'query', value: `${url.origin}${url.pathname}` });
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw failure('connection/insecure-url', { source, host: url.hostname });
  }
  return withoutTrailingSlash(`${url.origin}${url.pathname}`);
}

/** A base URL without trailing slashes: the one spelling two addresses of a school are compared in. */
export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
