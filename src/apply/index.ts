/** Apply (I/O): run a Plan against the school with write-ahead state, per-section chains and a concurrency limit. */
export * from './apply-plan.js';
export * from './apply-course.js';
export * from './check-saved-plan.js';
export * from './record-call.js';
export * from './resolve-pending.js';
export * from './summarize-apply.js';
