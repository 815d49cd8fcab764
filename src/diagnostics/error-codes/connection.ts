/** Runtime errors of reaching the school: addresses, tokens, answers and operations. */
import { entry } from './entry.js';

const BASE_URL_EXAMPLE = 'give the API base address including /api/v1, e.g. https://school.example.com/api/v1';

export const CONNECTION_ERRORS = {
  'connection/no-base-url': entry(
    'no school address in --base-url, COURSESYNC_BASE_URL or coursesync.yaml',
    () => 'no school address is configured',
    () => 'pass --base-url, set COURSESYNC_BASE_URL, or set school.base_url in coursesync.yaml (e.g. https://school.example.com/api/v1)',
  ),
  'connection/invalid-url': entry<{ source: string; problem: 'not-a-url' | 'scheme' | 'credentials' | 'query'; value: string }>(
    'the school address is not an https:// API address',
    ({ source, problem, value }) =>
      problem === 'not-a-url'
        ? `${source} is not a URL: "${value}"`
        : problem === 'scheme'
          ? `${source} must use https://, not ${value}//`
          : problem === 'credentials'
            ? `${source} must not contain a user name or password`
            : `${source} must not contain a query or fragment: "${value}" was expected`,
    ({ problem }) =>
      problem === 'credentials'
        ? 'remove the user:password@ part; the token comes from COURSESYNC_TOKEN or --token-file'
        : problem === 'query'
          ? 'give only the API base address including /api/v1'
          : BASE_URL_EXAMPLE,
  ),
  'connection/insecure-url': entry<{ source: string; host: string }>(
    'plain http:// to a host that is not loopback',
    ({ source, host }) => `${source} uses plain http:// to ${host}, which would send the token unencrypted`,
    () => 'use https://; plain http:// is only allowed for loopback hosts (127.0.0.0/8, ::1, localhost), e.g. a local emulator',
  ),
  'connection/no-token': entry<{ problem: 'unset' | 'empty' | 'empty-file' | 'multi-line-file' | 'malformed'; file?: string }>(
    'no usable API key in COURSESYNC_TOKEN or --token-file',
    ({ problem, file }) =>
      `no usable API token: ${
        problem === 'unset'
          ? 'COURSESYNC_TOKEN is not set'
          : problem === 'empty'
            ? 'COURSESYNC_TOKEN is set but empty'
          : problem === 'empty-file'
            ? `the token file ${file} is empty`
            : problem === 'multi-line-file'
              ? `the token file ${file} holds more than one line`
              : 'it is empty or holds spaces, line breaks or other characters an API key cannot have'
      }`,
    ({ problem }) =>
      problem === 'empty'
        ? 'put the school API key in it (export COURSESYNC_TOKEN=…); in GitHub Actions an empty value means the secret COURSESYNC_TOKEN is not set for this repository (or the run comes from a fork, which gets no secrets)'
        : 'set COURSESYNC_TOKEN to the school API key, or pass --token-file <file> holding only the key on one line; the token is never accepted as a flag value',
  ),
  'connection/token-file': entry<{ file: string; reason: string }>(
    'the --token-file cannot be read',
    ({ file, reason }) => `cannot read the token file ${file} (${reason})`,
    () => 'give --token-file a readable file that holds only the API key, or set COURSESYNC_TOKEN instead',
  ),
  'connection/unauthorized': entry<{ answer: string }>(
    'the school refused the API key (401)',
    ({ answer }) => `the school refused the API token (${answer})`,
    () => 'check that COURSESYNC_TOKEN (or the --token-file) holds a valid API key for this school, and that the base URL is the right school',
  ),
  'connection/forbidden': entry<{ answer: string }>(
    'the API key may not do this (403)',
    ({ answer }) => `the API token may not do this (${answer})`,
    () => 'use a key with edit access to every program involved; a move or duplication needs both the source and the destination program',
  ),
  'connection/not-found': entry<{ answer: string; subject?: string | undefined }>(
    'the school has no such record (404)',
    ({ answer, subject }) => `${subject ? `the school has no ${subject}` : 'the school has no such record'} (${answer})`,
    () => 'check the id, and that the base URL points to the school the id belongs to',
  ),
  'school/api-error': entry<{ endpoint: string; status: number; serverError: string | null; hint?: string | undefined }>(
    'the school answered with an error status',
    ({ endpoint, status, serverError }) => `${endpoint} answered ${status}: ${serverError ?? 'no error message'}`,
    ({ status, hint }) => {
      if (hint !== undefined) return hint;
      if (status === 401) return 'check that COURSESYNC_TOKEN (or --token-file) holds a valid API key for this school';
      if (status === 403) return 'use an API key with edit access to every program involved (moves and duplications need both programs)';
      if (status === 404) return 'check the id: the school has no such record, or the base URL points to another school';
      if (status === 429) return 'wait a moment and run the command again, or lower --concurrency: the school is rate limiting';
      if (status >= 500) return 'run the command again later: the school failed (calls that may have been saved are reported separately)';
      return undefined;
    },
  ),
  'school/unreachable': entry<{ endpoint: string; reason: string; hint?: string | undefined }>(
    'the request did not get an answer (network, timeout, redirect)',
    ({ endpoint, reason }) => `${endpoint} failed: ${reason}`,
    ({ hint }) => hint ?? 'check the base URL and the network, then run the command again',
  ),
  // Failures no retry mends: said for what they are, at once (src/school/connection-problems.ts).
  'school/not-tls': entry<{ endpoint: string; host: string }>(
    'an https:// base URL whose server speaks plain http',
    ({ endpoint, host }) => `${endpoint} failed: the base URL says https://, but ${host} answered in plain http (no TLS)`,
    ({ host }) => `for a local server such as the emulator use http://${host}/api/v1 (plain http only to loopback); for the school, check the port of its https:// address`,
  ),
  'school/untrusted-certificate': entry<{ endpoint: string; host: string; problem: string; nodeCode: string }>(
    'the server\'s TLS certificate is not trusted (self-signed, expired, another host); not retried',
    ({ endpoint, host, problem, nodeCode }) => `${endpoint} failed: the certificate of ${host} is not trusted: ${problem} (${nodeCode}); the token was not sent and the request was not tried again`,
    ({ nodeCode }) =>
      nodeCode === 'ERR_TLS_CERT_ALTNAME_INVALID' || nodeCode === 'CERT_HAS_EXPIRED' || nodeCode === 'CERT_NOT_YET_VALID'
        ? 'check the base URL names the school\'s own host, and tell the school its certificate is wrong'
        : 'if the school uses its own certificate authority, give Node its certificate: NODE_EXTRA_CA_CERTS=/path/to/ca.pem (certificate checks are never turned off)',
  ),
  'school/no-api-path': entry<{ endpoint: string; baseUrl: string; suggested: string }>(
    'the base URL lacks /api/v1, so the school answers 404',
    ({ endpoint, baseUrl }) => `${endpoint} answered 404: the base URL ${baseUrl} does not end in /api/v1, the path of the school's API`,
    ({ suggested }) => `use ${suggested} (in --base-url, COURSESYNC_BASE_URL or school.base_url of coursesync.yaml)`,
  ),
  'school/bad-response': entry<{ endpoint: string; field: string; problem: string }>(
    'the answer is not what the school API sends',
    ({ endpoint, field, problem }) => `${endpoint} answered with an unexpected body: ${field || '(body)'} ${problem}`,
    () => 'check the base URL: it may point to something that is not the school API v1 (it must end in /api/v1)',
  ),
  'school/invalid-request': entry<{ endpoint: string; problem: string }>(
    'a request the school would refuse; it was not sent',
    ({ endpoint, problem }) => `${endpoint} not sent: ${problem}`,
    () => undefined,
  ),
  'school/outcome-unknown': entry<{ endpoint: string; reason: string; lesson?: { name: string; section_id: string } | undefined }>(
    'a create may or may not have been saved; it was not sent again',
    ({ endpoint, reason, lesson }) =>
      `${endpoint}: ${reason}; ${lesson ? `lesson "${lesson.name}" in section ${lesson.section_id} may or may not have been created` : 'the change may or may not have been saved'}; it was not re-sent, to avoid a duplicate`,
    ({ lesson }) =>
      lesson ? 'check the section in the school, then `coursesync import` the lesson by id, or re-run apply with --recreate' : 'check the school before running the command again',
  ),
  'school/operation-failed': entry<{ operationId: string; operation: string; error: string | null }>(
    'a duplication ended failed',
    ({ operationId, operation, error }) => `operation ${operationId} (${operation}) failed: ${error ?? 'no reason given'}`,
    () => 'fix the cause and start the duplication again with a new idempotency key',
  ),
  'school/operation-timeout': entry<{ operationId: string; operation: string; timeoutMs: number }>(
    'a duplication was still pending at the timeout',
    ({ operationId, operation, timeoutMs }) => `operation ${operationId} (${operation}) was still pending after ${timeoutMs} ms`,
    () => 'run the same command again with the same idempotency key: it picks up the same operation instead of starting a new copy',
  ),
};
