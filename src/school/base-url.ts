/**
 * Checks a school base URL before any request: http(s) only, no credentials, no query or
 * fragment, and plain `http://` only for loopback hosts (docs/cli.md). Used by the client and by
 * the CLI's connection settings, so both refuse the same URLs with the same message.
 */
import { CoursesyncError } from '../diagnostics/errors.js';
import { isLoopbackHost } from './loopback.js';

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
    throw new CoursesyncError(`${source} is not a URL: "${value}".`, {
      code: 'connection/invalid-url',
      hint: 'Give the API base address including /api/v1, e.g. https://school.example.com/api/v1.',
    });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CoursesyncError(`${source} must use https://, not ${url.protocol}//.`, {
      code: 'connection/invalid-url',
      hint: 'Give the API base address including /api/v1, e.g. https://school.example.com/api/v1.',
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new CoursesyncError(`${source} must not contain a user name or password.`, {
      code: 'connection/invalid-url',
      hint: 'Remove the user:password@ part; the token comes from COURSESYNC_TOKEN or --token-file.',
    });
  }
  if (url.search !== '' || url.hash !== '') {
    throw new CoursesyncError(`${source} must not contain a query or fragment: "${url.origin}${url.pathname}" was expected.`, {
      code: 'connection/invalid-url',
      hint: 'Give only the API base address including /api/v1.',
    });
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new CoursesyncError(`${source} uses plain http:// to ${url.hostname}, which would send the token unencrypted.`, {
      code: 'connection/insecure-url',
      hint: 'Use https://. Plain http:// is only allowed for loopback hosts (127.0.0.0/8, ::1, localhost), e.g. a local emulator.',
    });
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}
