/** Diagnostics (PURE): the one shape for problems with files, their formats, and user errors. */
export * from './diagnostic.js';
export * from './errors.js';
export * from './github.js';
