/** The school API's wire schemas, one module per resource, shared by the client and the emulator. */
export * from './lessons.js';
export * from './operations.js';
export * from './programs.js';
export * from './members.js';
export * from './sections.js';
export * from './offers.js';
export * from './badges.js';
export * from './custom-code.js';
export * from './webhooks.js';
export * from './errors.js';
export * from './query.js';
