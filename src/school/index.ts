/** The school API: typed client, retries, operations, wire schemas shared with the emulator. */
export * from './client.js';
export * from './errors.js';
export * from './operations.js';
export * from '../school-api/retry-policy.js';
export * from './base-url.js';
export * from './loopback.js';
export type { ResponseEvent, RetryEvent } from './transport.js';
