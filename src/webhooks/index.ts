/** Webhooks as code: check webhooks.yaml, diff it with the school, render the plan (PURE), read the file (I/O). */
export * from './check-webhooks-file.js';
export * from './diff-webhooks.js';
export * from './identity.js';
export * from './render-webhooks-plan.js';
export { checkWebhooksAt, readWebhooksFile } from './read-webhooks-file.js';
