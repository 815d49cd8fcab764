import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainSchoolError, resolveConnection } from '../../src/school/connection.js';
import { CoursesyncError } from '../../src/diagnostics/errors.js';
import { SchoolApiError } from '../../src/school/errors.js';
import type { CourseConfig } from '../../src/model/config.js';

const dir = mkdtempSync(join(tmpdir(), 'coursesync-conn-'));
const tokenFile = join(dir, 'token');
writeFileSync(tokenFile, '  file-token\n');
const emptyFile = join(dir, 'empty');
writeFileSync(emptyFile, '\n');
const config: CourseConfig = { removed_lessons: 'keep', school: { base_url: 'https://yaml.example.com/api/v1' } };

function failure(fn: () => unknown): CoursesyncError {
  try {
    fn();
  } catch (e) {
    if (e instanceof CoursesyncError) return e;
    throw e;
  }
  throw new Error('expected a CoursesyncError');
}

describe('resolveConnection', () => {
  it.each<[string, Parameters<typeof resolveConnection>[0], { baseUrl: string; token: string; timeoutMs?: number }]>([
    ['flag wins over env and yaml', { flags: { baseUrl: 'https://flag.example.com/api/v1' }, config, env: { COURSESYNC_BASE_URL: 'https://env.example.com/api/v1', COURSESYNC_TOKEN: 't' } }, { baseUrl: 'https://flag.example.com/api/v1', token: 't' }],
    ['env wins over yaml', { flags: {}, config, env: { COURSESYNC_BASE_URL: 'https://env.example.com/api/v1', COURSESYNC_TOKEN: 't' } }, { baseUrl: 'https://env.example.com/api/v1', token: 't' }],
    ['yaml last', { flags: {}, config, env: { COURSESYNC_TOKEN: 't' } }, { baseUrl: 'https://yaml.example.com/api/v1', token: 't' }],
    ['yaml timeout passed on', { flags: {}, config: { ...config, school: { ...config.school, timeout_ms: 5000 } }, env: { COURSESYNC_TOKEN: 't' } }, { baseUrl: 'https://yaml.example.com/api/v1', token: 't', timeoutMs: 5000 }],
    ['empty env falls through', { flags: {}, config, env: { COURSESYNC_BASE_URL: '', COURSESYNC_TOKEN: 't' } }, { baseUrl: 'https://yaml.example.com/api/v1', token: 't' }],
    ['loopback http allowed', { flags: { baseUrl: 'http://127.0.0.1:4010/api/v1/' }, env: { COURSESYNC_TOKEN: ' t ' } }, { baseUrl: 'http://127.0.0.1:4010/api/v1', token: 't' }],
    ['token file trimmed, wins over env', { flags: { baseUrl: 'https://x.example.com/api/v1', tokenFile }, env: { COURSESYNC_TOKEN: 'env-token' } }, { baseUrl: 'https://x.example.com/api/v1', token: 'file-token' }],
  ])('%s', (_label, args, expected) => {
    expect(resolveConnection(args)).toStrictEqual(expected);
  });

  it.each<[string, Parameters<typeof resolveConnection>[0], string, string]>([
    ['no base url anywhere', { flags: {}, env: { COURSESYNC_TOKEN: 't' } }, 'connection/no-base-url', '--base-url'],
    ['no token', { flags: { baseUrl: 'https://x.example.com/api/v1' }, env: {} }, 'connection/no-token', 'COURSESYNC_TOKEN'],
    ['plain http to a remote host', { flags: {}, env: { COURSESYNC_BASE_URL: 'http://school.example.com/api/v1', COURSESYNC_TOKEN: 't' } }, 'connection/insecure-url', 'COURSESYNC_BASE_URL'],
    ['yaml http remote', { flags: {}, config: { removed_lessons: 'keep', school: { base_url: 'http://10.1.2.3/api/v1' } }, env: { COURSESYNC_TOKEN: 't' } }, 'connection/insecure-url', 'coursesync.yaml school.base_url'],
    ['missing token file', { flags: { baseUrl: 'https://x.example.com/api/v1', tokenFile: join(dir, 'nope') }, env: {} }, 'connection/token-file', 'nope'],
    ['empty token file', { flags: { baseUrl: 'https://x.example.com/api/v1', tokenFile: emptyFile }, env: {} }, 'connection/no-token', 'empty'],
  ])('%s → %s', (_label, args, code, mentions) => {
    const e = failure(() => resolveConnection(args));
    expect(e.code).toBe(code);
    expect(`${e.message} ${e.hint ?? ''}`).toContain(mentions);
    expect(e.message).not.toMatch(/^Error:/);
  });
});

describe('explainSchoolError', () => {
  const api = (status: number, serverError: string) => new SchoolApiError({ status, serverError, endpoint: 'PATCH /lessons/les_9' });
  it.each<[number, string, string, string]>([
    [401, 'Access denied', 'connection/unauthorized', 'COURSESYNC_TOKEN'],
    [403, 'Access denied', 'connection/forbidden', 'edit access'],
    [404, 'Record not found', 'connection/not-found', 'check the id'],
  ])('%i → %s', (status, serverError, code, hintText) => {
    const e = explainSchoolError(api(status, serverError), 'lesson les_9') as CoursesyncError;
    expect(e.code).toBe(code);
    expect(e.message).toContain('PATCH /lessons/les_9 answered');
    expect(e.hint).toContain(hintText);
  });

  it('names the missing record on 404', () => {
    expect((explainSchoolError(api(404, 'Record not found'), 'lesson les_9') as Error).message).toBe(
      'the school has no lesson les_9 (PATCH /lessons/les_9 answered 404: Record not found)',
    );
  });

  it('passes other errors through', () => {
    const e = api(422, 'Invalid arguments: /name maxLength');
    expect(explainSchoolError(e)).toBe(e);
  });
});
