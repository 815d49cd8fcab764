/**
 * The emulator's public entry: `startEmulator` starts a faithful local school on a port (0 = a
 * free one) and answers its base URL. Every test suite that talks to the school uses this.
 */
import { failure } from '../diagnostics/error-codes/index.js';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SEED } from './default-seed.js';
import type { EmulatorStats } from './inspect.js';
import { parseSeed, readSeedFile, type Seed, type SeedInput } from './seed.js';
import { API_PREFIX, createEmulatorServer } from './server.js';

export type { EmulatorStats } from './inspect.js';
export type { Seed, SeedInput } from './seed.js';
export { DEFAULT_SEED } from './default-seed.js';
export { parseSeed, readSeedFile } from './seed.js';

export interface EmulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; 0 (the default here) picks a free one. */
  port?: number;
  /** A seed object, or the path of a seed YAML file; default: the school of examples/. */
  seed?: SeedInput | string;
  /** Delay before every API request is processed. */
  latencyMs?: number;
  /** Share (0–1) of API requests answered 500/503 without being processed. */
  failRate?: number;
  /** Requests per second per API key before 429 + Retry-After; 0 = unlimited. */
  rateLimit?: number;
  /** Time from a duplication request to its completion; default 200. */
  operationDelayMs?: number;
  /** Share (0–1) of API requests processed and saved, then answered by dropping the connection. */
  dropAfterCommitRate?: number;
  /** Share (0–1) of API requests answered by dropping the connection before processing. */
  dropBeforeProcessRate?: number;
  /** Duplication operations end `failed` with an error message. */
  failOperations?: boolean;
  /** Accept http:// and private webhook addresses (local test receivers). */
  allowInsecureWebhooks?: boolean;
  /** Source of randomness for the fault rates; default Math.random. */
  random?: () => number;
}

export interface RunningEmulator {
  /** `http://HOST:PORT/api/v1` */
  url: string;
  port: number;
  /** The API keys of the seed, and the programs each may edit. */
  apiKeys: ReadonlyArray<{ token: string; programs: 'all' | readonly string[] }>;
  close(): Promise<void>;
  stats(): EmulatorStats;
}

/** A user-facing error for the usual reasons a port cannot be opened. */
function listenError(e: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  if (e.code === 'EADDRINUSE') return failure('emulator/port-in-use', { where }, { cause: e });
  if (e.code === 'EACCES') return failure('emulator/port-denied', { where }, { cause: e });
  if (e.code === 'EADDRNOTAVAIL' || e.code === 'ENOTFOUND') return failure('emulator/bad-host', { where }, { cause: e });
  return e;
}

function rate(name: string, value: number | undefined): number {
  const v = value ?? 0;
  if (!(v >= 0 && v <= 1)) throw new RangeError(`${name} must be between 0 and 1, got ${v}`);
  return v;
}

/** Start an emulator; resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const seed: Seed =
    typeof options.seed === 'string' ? await readSeedFile(options.seed) : parseSeed(options.seed ?? DEFAULT_SEED, 'seed');
  const host = options.host ?? '127.0.0.1';
  const core = createEmulatorServer(seed, {
    latencyMs: options.latencyMs ?? 0,
    failRate: rate('failRate', options.failRate),
    rateLimit: options.rateLimit ?? 0,
    dropAfterCommitRate: rate('dropAfterCommitRate', options.dropAfterCommitRate),
    dropBeforeProcessRate: rate('dropBeforeProcessRate', options.dropBeforeProcessRate),
    random: options.random ?? Math.random,
    operationDelayMs: options.operationDelayMs ?? 200,
    failOperations: options.failOperations ?? false,
    allowInsecureWebhooks: options.allowInsecureWebhooks ?? false,
  });
  const port0 = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    const fail = (e: NodeJS.ErrnoException): void => reject(listenError(e, host, port0));
    core.server.once('error', fail);
    core.server.listen(port0, host, () => {
      core.server.off('error', fail);
      resolve();
    });
  });
  const port = (core.server.address() as AddressInfo).port;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${hostInUrl}:${port}${API_PREFIX}`,
    port,
    apiKeys: seed.api_keys.map((k) => ({ token: k.token, programs: k.programs })),
    stats: core.stats,
    close: () =>
      new Promise<void>((resolve, reject) => {
        core.server.close((e) => (e ? reject(e) : resolve()));
        core.server.closeAllConnections();
      }),
  };
}
