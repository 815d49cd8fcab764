/** State (I/O): the state file, its lock, and the response hashing apply and refresh share. */
export * from '../model/state/schema.js';
export * from './serialize-state.js';
export * from '../model/state/hash-response.js';
export * from './state-file.js';
export * from './lock-state.js';
export * from './state-store.js';
