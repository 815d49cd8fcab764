import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/school/loopback.js';
import { checkBaseUrl } from '../../src/school/base-url.js';
import { CoursesyncError } from '../../src/diagnostics/errors.js';

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.3.4', true],
    ['[::1]', true],
    ['::1', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['localhost.', true],
    ['[::ffff:127.0.0.1]', true],
    ['[::ffff:7f00:1]', true],
    ['128.0.0.1', false],
    ['10.0.0.1', false],
    ['127.evil.com', false],
    ['127.0.0.1.nip.io', false],
    ['localhost.evil.com', false],
    ['[::2]', false],
    ['school.example.com', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('checkBaseUrl', () => {
  it.each([
    ['https://school.example.com/api/v1', 'https://school.example.com/api/v1'],
    ['https://school.example.com/api/v1/', 'https://school.example.com/api/v1'],
    ['http://127.0.0.1:4010/api/v1', 'http://127.0.0.1:4010/api/v1'],
    ['http://[::1]:4010/api/v1', 'http://[::1]:4010/api/v1'],
    ['http://localhost:4010/api/v1', 'http://localhost:4010/api/v1'],
  ])('accepts %s', (input, expected) => {
    expect(checkBaseUrl(input)).toBe(expected);
  });

  it.each([
    ['http://school.example.com/api/v1', 'connection/insecure-url'],
    ['http://127.0.0.1.nip.io/api/v1', 'connection/insecure-url'],
    ['http://10.0.0.5/api/v1', 'connection/insecure-url'],
    ['ftp://school.example.com/api/v1', 'connection/invalid-url'],
    ['not a url', 'connection/invalid-url'],
    ['https://user:pw@school.example.com/api/v1', 'connection/invalid-url'],
    ['https://school.example.com/api/v1?x=1', 'connection/invalid-url'],
  ])('refuses %s with %s, naming the source', (input, code) => {
    let caught: unknown;
    try {
      checkBaseUrl(input, 'COURSESYNC_BASE_URL');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CoursesyncError);
    expect((caught as CoursesyncError).code).toBe(code);
    expect((caught as CoursesyncError).message).toContain('COURSESYNC_BASE_URL');
    expect((caught as CoursesyncError).hint).toBeTruthy();
  });
});
