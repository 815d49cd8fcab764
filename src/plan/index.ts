/** Plan (PURE): desired × state (× live) → Plan; its simulation and its renderings. */
export * from './plan-schema.js';
export * from './diff-course.js';
export * from './diff-live.js';
export * from './diff-fields.js';
export * from './keep-in-order.js';
export * from './simulate-plan.js';
export * from './section-slots.js';
export * from './describe-change.js';
export * from './html-only.js';
export * from './source-diff.js';
export * from './change-detail.js';
export * from './render-text.js';
export * from './render-markdown.js';
export * from './render-json.js';
export * from './impact.js';
export * from './render-impact.js';
export * from './impact-gate.js';
