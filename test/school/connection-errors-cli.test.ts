/**
 * Connection mistakes of the first hour, through the built CLI against real local servers:
 * each is said for what it is, at once, with what to do. A base URL without /api/v1 (the
 * emulator answers 404 to everything there), https:// to a server speaking plain http, a
 * self-signed certificate (openssl makes one; a TLS server counts the handshakes), and an
 * empty COURSESYNC_TOKEN.
 */
import { execFile } from 'node:child_process';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { SECRET, startTestEmulator } from '../apply/helpers.js';
import { runCli } from '../e2e/helpers.js';

const run = promisify(execFile);

let emu: RunningEmulator;
let dir: string;
const servers: Server[] = [];
beforeAll(async () => {
  emu = await startTestEmulator();
  dir = await mkdtemp(join(tmpdir(), 'coursesync-connection-'));
});
afterAll(async () => {
  await emu?.close();
  for (const s of servers) s.close();
  await rm(dir, { recursive: true, force: true });
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const members = (baseUrl: string, env: Record<string, string> = { COURSESYNC_TOKEN: SECRET }) => runCli(['members', 'list', '--base-url', baseUrl], env, dir);

describe('connection errors say what is wrong', () => {
  it('a base URL without /api/v1: the 404 is named as such, with the address to use (not "check the id")', async () => {
    const root = emu.url.replace(/\/api\/v1$/, '');
    const before = emu.stats().requests;
    for (const base of [root, `${root}/api`]) {
      const r = await members(base);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `coursesync: GET /members answered 404: the base URL ${base} does not end in /api/v1, the path of the school's API\n  hint: use ${root}/api/v1 (in --base-url, COURSESYNC_BASE_URL or school.base_url of coursesync.yaml)\n`,
      );
    }
    // Those requests were outside /api/v1: the API itself saw none.
    expect(emu.stats().requests).toBe(before);
    const status = await runCli(['auth', 'status', '--base-url', root], { COURSESYNC_TOKEN: SECRET }, dir);
    expect(status.stdout).toContain('Status: ✗ not accepted (GET /members answered 404)');
    expect(status.stdout).toContain('does not end in /api/v1');
    expect(status.stdout).not.toMatch(/check the id/i);
  });

  it('https:// to a server that speaks plain http: said once, never retried, no OpenSSL text', async () => {
    let connections = 0;
    const server = createHttpServer((_req, res) => res.end('{}'));
    server.on('connection', () => connections++);
    const port = await listen(server);
    const r = await members(`https://127.0.0.1:${port}/api/v1`);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `coursesync: GET /members failed: the base URL says https://, but 127.0.0.1:${port} answered in plain http (no TLS)\n  hint: for a local server such as the emulator use http://127.0.0.1:${port}/api/v1 (plain http only to loopback); for the school, check the port of its https:// address\n`,
    );
    expect(connections).toBe(1);
  });

  it('a self-signed certificate: named, the token never sent, not retried, and how to trust a private CA', async () => {
    await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1']);
    let handshakes = 0;
    let requests = 0;
    const server = createHttpsServer({ key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) }, (_req, res) => {
      requests++;
      res.end('{"data":[],"meta":{}}');
    });
    server.on('tlsClientError', () => handshakes++);
    server.on('secureConnection', () => handshakes++);
    const port = await listen(server);
    const r = await members(`https://127.0.0.1:${port}/api/v1`);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `coursesync: GET /members failed: the certificate of 127.0.0.1:${port} is not trusted: it is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT); the token was not sent and the request was not tried again\n  hint: if the school uses its own certificate authority, give Node its certificate: NODE_EXTRA_CA_CERTS=/path/to/ca.pem (certificate checks are never turned off)\n`,
    );
    expect(handshakes).toBe(1);
    expect(requests).toBe(0);
    // The hint works: with the certificate given to Node, the same command reaches the server.
    const trusted = await members(`https://127.0.0.1:${port}/api/v1`, { COURSESYNC_TOKEN: SECRET, NODE_EXTRA_CA_CERTS: join(dir, 'cert.pem') });
    expect(trusted.stderr).not.toContain('certificate');
    expect(requests).toBe(1);
  });

  it('an empty COURSESYNC_TOKEN is said to be empty, not "not set", with the CI cause', async () => {
    const r = await members(emu.url, { COURSESYNC_TOKEN: '' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^coursesync: no usable API token: COURSESYNC_TOKEN is set but empty\n {2}hint: put the school API key in it .*the secret COURSESYNC_TOKEN is not set for this repository/);
    const unset = await members(emu.url, {});
    expect(unset.stderr).toContain('COURSESYNC_TOKEN is not set');
  });
});
